"""Tonight's ranking (issue 32 item 1): every evening has standings, in a season or not.

Done means: an evening without a season ranks its players under the default rule (per
placing 10, 6, 4, 2, 1) on its page, printed (A4, Letter, 80/58 mm) and in CSV; the
organiser may pick another rule (kept in `evening_rules`, migration 8, and carried by
`companion export`/`import`); an evening of a season ranks under the season's rule unless
the organiser picked one; /room shows tonight's ranking while at most two tables are in play.

The evening: Ann 1 Bob 2 Cid 3 Dee 4 -> 10 6 4 2; Bob and Ann share 1st, Eve 3rd -> (10 + 6)
/ 2 = 8, 8, 4. Ann 18 (2 wins), Bob 14, Cid and Eve 4 each (no win, 4 per game): shared 3rd,
Dee 2. Per share beaten (10): Ann 10 + 7.5, Bob 6.67 + 7.5, Cid 3.33, Eve 0, Dee 0.
"""

import re
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from companion_app import cli, create_app
from companion_app.server.live import pages as live_pages
from companion_app.store import db, get_store, league
from companion_app.store.migrations import MIGRATIONS, latest_version
from companion_app.store.room import room_version
from tests.club.test_league_pages import rows_on_page
from tests.club.test_roster import OUTSIDE

EN = {"Accept-Language": "en"}
DEFAULT_ROWS = [
    ("1", "0", "Ann", "18", "2", "2", "9"),
    ("2", "0", "Bob", "14", "2", "1", "7"),
    ("3", "1", "Cid", "4", "1", "0", "4"),
    ("3", "1", "Eve", "4", "1", "0", "4"),
    ("5", "0", "Dee", "2", "1", "0", "2"),
]


@pytest.fixture
def evening(club):
    """Tonight's two games, in no season; the evening's page."""
    club.play(["Ann", "Bob", "Cid", "Dee"], [1, 2, 3, 4])
    club.play(["Bob", "Ann", "Eve"], [1, 1, 3])
    return "/club/evenings/1"


def test_item_1_an_evening_without_a_season_ranks_its_players_under_the_default_rule(
    client, evening
):
    html = client.get(evening, headers=EN).get_data(as_text=True)
    assert "This evening counts for no season yet." in html
    assert "The evening’s ranking" in html
    assert rows_on_page(html) == DEFAULT_ROWS
    assert "Points per placing (place 1: 10, place 2: 6, place 3: 4, place 4: 2, place 5: 1" in html
    assert "Level with Eve on points, wins and points per game: the place is shared." in html
    assert "Games counted: 2" in html


@pytest.mark.parametrize("paper", ["a4", "letter", "80mm", "58mm"])
def test_item_1_tonights_ranking_prints_with_a_qr_of_the_evening(client, evening, paper):
    page = client.get(evening, headers=EN).get_data(as_text=True)
    assert f'href="{evening}/print/{paper}"' in page
    html = client.get(f"{evening}/print/{paper}", headers=EN).get_data(as_text=True)
    places = re.findall(r'data-person="\d+" data-place="(\d+)"', html)
    assert places == ["1", "2", "3", "3", "5"]
    assert "The evening’s ranking" in html
    qr = re.search(r'<img src="([^"]+/qr\.svg)"', html).group(1)
    assert qr == f"{evening}/qr.svg"
    assert client.get(qr).mimetype == "image/svg+xml"
    assert client.get(f"{evening}/print/a5").status_code == 404


def test_item_1_tonights_ranking_in_csv(client, evening):
    response = client.get(f"{evening}/standings.csv", headers=EN)
    assert response.mimetype == "text/csv"
    text = response.get_data(as_text=True)
    assert ",Ann," in text and ",Dee," in text


def test_item_1_the_organiser_picks_another_rule_and_can_go_back(client, evening):
    page = client.get(evening, headers=EN).get_data(as_text=True)
    assert re.search(r'value="auto" data-testid="rule-auto" checked', page)
    picked = client.post(f"{evening}/rule", data={"rule": "beaten"})
    assert picked.status_code == 303
    html = client.get(evening, headers=EN).get_data(as_text=True)
    assert re.search(r'value="beaten" data-testid="rule-beaten" checked', html)
    assert [row[2:4] for row in rows_on_page(html)] == [
        ("Ann", "17.5"),
        ("Bob", "14.17"),
        ("Cid", "3.33"),
        ("Dee", "0"),
        ("Eve", "0"),
    ]
    assert "Points per share of players beaten: 10" in html
    client.post(f"{evening}/rule", data={"rule": "auto"})
    assert rows_on_page(client.get(evening, headers=EN).get_data(as_text=True)) == DEFAULT_ROWS


def test_item_1_a_rule_not_offered_is_refused_next_to_the_choice(app, client, evening):
    refused = client.post(f"{evening}/rule", data={"rule": "season-99"}, headers=EN)
    assert refused.status_code == 400
    html = refused.get_data(as_text=True)
    assert re.search(r'data-error="rule">Choose one of the points rules listed\.<', html)
    with app.app_context():
        assert league.evening_rule(db.get_db(), 1) == (league.DEFAULT_RULE, False)
    assert client.post("/club/evenings/9/rule", data={"rule": "auto"}).status_code == 404


def test_item_1_only_the_organiser_picks_an_evenings_rule(app, evening):
    tablet = app.test_client()
    page = tablet.get(evening, environ_base=OUTSIDE, headers=EN).get_data(as_text=True)
    assert rows_on_page(page) == DEFAULT_ROWS  # everyone reads tonight's ranking
    assert 'name="rule"' not in page
    refused = tablet.post(f"{evening}/rule", data={"rule": "beaten"}, environ_base=OUTSIDE)
    assert refused.status_code == 403
    with app.app_context():
        assert league.evening_rule(db.get_db(), 1)[1] is False


def test_item_1_an_evening_of_a_season_ranks_under_the_seasons_rule_unless_picked(client, evening):
    form = {"name": "Jaro", "kind": "placing", "place_1": "5", "place_2": "3", "evening": "1"}
    assert client.post("/club/seasons/new", data=form).status_code == 303
    own = client.get(evening, headers=EN).get_data(as_text=True)
    season_evening = client.get("/club/seasons/1/evenings/1", headers=EN).get_data(as_text=True)
    assert rows_on_page(own) == rows_on_page(season_evening)
    assert rows_on_page(own)[0][2:4] == ("Ann", "9")  # 5, then a shared 1st: (5 + 3) / 2
    assert "As the season Jaro" in own
    client.post(f"{evening}/rule", data={"rule": "placing"})
    assert rows_on_page(client.get(evening, headers=EN).get_data(as_text=True)) == DEFAULT_ROWS
    # the season's own standings keep the season's rule
    assert rows_on_page(client.get("/club/seasons/1/evenings/1").get_data(as_text=True)) == (
        rows_on_page(season_evening)
    )


def test_item_1_migration_8_adds_the_evening_rules_to_an_older_database(tmp_path):
    instance = tmp_path / "old"
    create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(instance))
    path = instance / "companion.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE evening_rules")
    conn.execute("PRAGMA user_version=7")
    conn.commit()
    conn.close()
    create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(instance))
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version() >= 8
        assert conn.execute("SELECT COUNT(*) FROM evening_rules").fetchone()[0] == 0
    finally:
        conn.close()
    assert MIGRATIONS[7].version == 8 and "evening" in MIGRATIONS[7].why


def test_item_1_an_evenings_rule_moves_with_export_and_import(app, client, evening, tmp_path):
    client.post(f"{evening}/rule", data={"rule": "beaten"})
    path = tmp_path / "club.json"
    assert cli.main(["export", "--instance", app.instance_path, str(path)]) == 0
    target = tmp_path / "elsewhere"
    assert cli.main(["import", "--instance", str(target), str(path)]) == 0
    moved = create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(target))
    with moved.app_context():
        assert league.evening_rule(db.get_db(), 1) == ({"kind": "beaten", "points": 10}, True)
    assert Path(path).read_text(encoding="utf-8").count('"rule"') == 1


def test_item_1_a_moved_table_keeps_an_evening_with_a_picked_rule(app, client, club):
    """An empty unnamed evening is forgotten when its last table leaves, unless its rule was
    picked (the organiser's choice stays)."""
    table = club.play(["Ann", "Bob"], [1, 2])
    client.post("/club/evenings/1/rule", data={"rule": "beaten"})
    with app.app_context():
        conn = db.get_db()
        with db.write_transaction(conn):
            other = league.evening_of_day(conn, league.evening(conn, 1).day - timedelta(days=1))
            league.move_table(conn, table, other)
        assert [each.id for each in league.evenings(conn)] == [1, other]
        assert get_store().get(table).finished


def room_page(app) -> str:
    """The room display as a phone sees it."""
    client = app.test_client()
    return client.get("/room", headers=EN, environ_base=OUTSIDE).get_data(as_text=True)


def test_item_1_the_room_shows_tonights_ranking_while_few_tables_are_in_play(app, evening):
    html = room_page(app)  # between games: nothing in play
    section = re.search(r'data-testid="room-tonight"[^>]*>(.*?)</section>', html, re.S).group(1)
    shown = [
        " ".join(re.sub(r"<[^>]+>", " ", item).split())
        for item in re.findall(r"<li [^>]*>(.*?)</li>", section, re.S)
    ]
    assert shown == ["1. Ann 18", "2. Bob 14", "3. = Cid 4", "3. = Eve 4", "5. Dee 2"]
    with app.app_context():
        store = get_store()
        for _ in range(2):
            store.create_table("razzia", {"players": ["Fay", "Gus", "Hal"]})
        assert 'data-testid="room-tonight"' in room_page(app)
        store.create_table("razzia", {"players": ["Ivo", "Jan", "Kim"]})
    assert 'data-testid="room-tonight"' not in room_page(app)  # three tables in play


def test_item_1_the_room_shows_no_ranking_before_tonights_first_game(app):
    assert 'data-testid="room-tonight"' not in room_page(app)


def test_item_1_the_room_follows_a_picked_rule_at_once(app, client, evening):
    """The room's live version moves when the organiser picks a rule (no table moved), so
    every screen shows the ranking under the new rule."""
    with app.app_context():
        before = live_pages.version_key(room_version())
    client.post(f"{evening}/rule", data={"rule": "beaten"})
    with app.app_context():
        after = live_pages.version_key(room_version())
    assert after > before
    assert "1. Ann 17.5" in " ".join(re.sub(r"<[^>]+>", " ", room_page(app)).split())
