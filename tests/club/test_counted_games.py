"""Games the club stands behind (issue 30 item 2, docs/club.md "Which games count").

Measured before the fix: a device with no rights but its own tables seated "regular" at five
tables it created and played alone to the end; the regular's games went 2 -> 7, the rating
-4.9 -> -12.2, and the season standings followed. Now a finished game moves ratings, a
person's statistics and the standings only when this computer, the organiser or a club tablet
created its table, or the organiser counted it with one tap.

The club's evening (6 March): Regular wins against Ann, loses to Bob; a season over it,
points per placing 10, 6. The stranger's device (192.168.1.66) then plays five games of
"regular" (a spelling of Regular) against "Stranger", the stranger winning each.
"""

import re
from datetime import UTC, datetime

import pytest

from companion_app import create_app
from companion_app.club import league as club_league
from companion_app.club import profile, ratings
from companion_app.store import counted, db, roster
from companion_app.store import league as stored
from companion_app.store import tables as store_tables
from tests.lan import device

EVENING = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)
STRANGER = "192.168.1.66"
TABLET = "192.168.1.70"
EN = {"Accept-Language": "en"}
SOLO_GAMES = 5


def play_over_http(client, names: list[str], ranks: list[int]) -> str:
    """A ranked table created by `client` through the API and played to its end; its id."""
    created = client.post("/api/tables", json={"game": "ranked", "players": names})
    assert created.status_code == 201, created.get_json()
    table_id = created.get_json()["id"]
    move = {"version": 0, "move": {"type": "finish", "ranks": ranks}}
    ended = client.post(f"/api/tables/{table_id}/moves", json=move)
    assert ended.status_code == 200 and ended.get_json()["finished"], ended.get_json()
    return table_id


def stranger_games(app) -> list[str]:
    """The stranger's five solo games, "regular" losing each."""
    stranger = device(app, STRANGER)
    return [play_over_http(stranger, ["regular", "Stranger"], [2, 1]) for _ in range(SOLO_GAMES)]


@pytest.fixture
def regular(app, client, club, monkeypatch) -> int:
    """The club's evening and its season; the regular's person id."""
    monkeypatch.setattr(store_tables, "_now", lambda: EVENING.isoformat())
    first = club.play(["Regular", "Ann"], [1, 2])
    club.play(["Bob", "Regular"], [1, 2])
    form = {"name": "Jaro", "kind": "placing", "place_1": "10", "place_2": "6"}
    response = client.post("/club/seasons/new", data=form | {"evening": ["1"]})
    assert response.status_code == 303, response.get_data(as_text=True)
    with app.app_context():
        return roster.seated(db.get_db(), first)[0].id


def record(app, person: int) -> dict:
    """Everything the club says of the person: rating, statistics, season and evening rows."""
    with app.app_context():
        conn = db.get_db()
        rating = ratings.rating_of(person)
        page = profile.profile(person)
        season = stored.season(conn, 1)
        rows = {
            key: next(
                (
                    (row.points, row.games, row.wins, row.place)
                    for row in board.rows
                    if row.person == person
                ),
                None,
            )
            for key, board in (
                ("season", club_league.board(season)),
                ("evening", club_league.board(season, season.evenings[0])),
            )
        }
    return {
        "rating": (rating.mu, rating.sigma, rating.games),
        "played": len(page.plays),
        "won": page.won,
        "games": [(line.game, line.played, line.won) for line in page.games],
        "rivals": sorted(rival.name for rival in page.rivals),
        **rows,
    }


def test_a_strangers_solo_games_change_nobodys_record(app, client, regular):
    """Five games the stranger's device created and played alone leave the regular's rating,
    games, statistics and standings as they were; the games stay in the archive, marked."""
    before = record(app, regular)
    assert before["played"] == 2 and before["rating"][2] == 2
    tables = stranger_games(app)
    assert record(app, regular) == before
    person_page = client.get(f"/people/{regular}", headers=EN).get_data(as_text=True)
    assert "Stranger" not in person_page.split('data-testid="organise-person"')[0]
    assert 'data-testid="recent"' in person_page
    evening = client.get("/club/evenings/1", headers=EN).get_data(as_text=True)
    assert 'data-testid="not-counted-note"' in evening
    for table_id in tables:
        assert f'data-testid="not-counted-{table_id}"' in evening
        assert f'data-testid="count-{table_id}"' in evening  # this computer is the organiser
    assert evening.count('data-counted="yes"') == 2
    phone = device(app, "192.168.1.99").get("/club/evenings/1", headers=EN).get_data(as_text=True)
    assert f'data-testid="not-counted-{tables[0]}"' in phone
    assert 'data-testid="count-' not in phone  # a viewer sees the mark, not the tap


def test_the_organisers_one_tap_counts_them(app, client, regular):
    """The same games, counted by the organiser, move the rating, games and standings."""
    before = record(app, regular)
    tables = stranger_games(app)
    for table_id in tables:
        tapped = client.post(f"/club/tables/{table_id}/count")
        assert tapped.status_code == 303
        assert tapped.headers["Location"].endswith(f"/club/evenings/1#t-{table_id}")
    after = record(app, regular)
    assert after["played"] == before["played"] + SOLO_GAMES == after["rating"][2]
    assert after["rating"][0] < before["rating"][0]  # five losses
    assert after["won"] == before["won"]
    assert "Stranger" in after["rivals"]
    assert after["season"][1] == before["season"][1] + SOLO_GAMES
    assert after["season"][0] == before["season"][0] + SOLO_GAMES * 6
    assert after["evening"] == after["season"]
    with app.app_context():
        assert counted.how_counted(db.get_db(), tables[0]) == counted.ORGANISER
    # Don't count: the table leaves the record again
    assert client.post(f"/club/tables/{tables[0]}/uncount").status_code == 303
    less = record(app, regular)
    assert less["played"] == after["played"] - 1 and less["season"][1] == after["season"][1] - 1


def test_the_results_page_says_not_counted_and_counts_with_one_tap(app, client, regular):
    """A not counted game's results page says so to everyone; the organiser's tap counts it
    and comes back to the results page."""
    table_id = stranger_games(app)[0]
    phone = device(app, "192.168.1.99").get(f"/tables/{table_id}/results", headers=EN)
    assert 'data-testid="not-counted"' in phone.get_data(as_text=True)
    assert 'data-testid="count"' not in phone.get_data(as_text=True)
    page = client.get(f"/tables/{table_id}/results", headers=EN).get_data(as_text=True)
    assert 'data-testid="count"' in page
    tapped = client.post(f"/club/tables/{table_id}/count", data={"back": "results"})
    assert tapped.headers["Location"].endswith(f"/tables/{table_id}/results")
    page = client.get(f"/tables/{table_id}/results", headers=EN).get_data(as_text=True)
    assert 'data-testid="not-counted"' not in page and 'data-testid="uncount"' in page
    czech = client.post(f"/club/tables/{table_id}/uncount", data={"back": "results"})
    assert czech.status_code == 303
    page = client.get(f"/tables/{table_id}/results", headers={"Accept-Language": "cs"})
    assert "Nezapočítáno" in page.get_data(as_text=True)


def tablet_link(client) -> tuple[int, str]:
    """The organiser makes a club tablet's link on the club page: (tablet id, link path)."""
    made = client.post("/club/tablets", data={"name": "Stůl 3"})
    assert made.status_code == 303
    page = client.get("/club", headers=EN).get_data(as_text=True)
    found = re.search(r'data-testid="tablet-link-(\d+)">http://[^/]+(/club/tablets/[^<]+)<', page)
    return int(found.group(1)), found.group(2)


def test_a_club_tablets_games_count_at_once_until_it_is_revoked(app, client, regular):
    """A game from a club tablet counts at once; once revoked, its new games do not, and the
    games it counted stay counted."""
    before = record(app, regular)
    tablet_id, link = tablet_link(client)
    tablet = device(app, TABLET)
    asked = tablet.get(link, headers=EN)
    assert asked.status_code == 200 and 'data-testid="take-tablet"' in asked.get_data(as_text=True)
    assert tablet.post(link).status_code == 303
    club_page = tablet.get("/club", headers=EN).get_data(as_text=True)
    assert 'data-testid="this-tablet"' in club_page and 'data-testid="tablets"' not in club_page
    first = play_over_http(tablet, ["regular", "Cid"], [2, 1])
    counted_once = record(app, regular)
    assert counted_once["played"] == before["played"] + 1 == counted_once["rating"][2]
    with app.app_context():
        assert counted.how_counted(db.get_db(), first) == counted.TABLET
    listed = client.get("/club", headers=EN).get_data(as_text=True)
    assert "Stůl 3" in listed and "let in on" in listed
    assert client.post(f"/club/tablets/{tablet_id}/revoke").status_code == 303
    assert "revoked on" in client.get("/club", headers=EN).get_data(as_text=True)
    play_over_http(tablet, ["regular", "Cid"], [2, 1])
    assert record(app, regular) == counted_once
    assert 'data-testid="this-tablet"' not in tablet.get("/club").get_data(as_text=True)
    again = tablet.post(link, headers=EN)
    assert again.status_code == 400 and "revoked this club tablet" in again.get_data(as_text=True)


def test_a_tablet_link_lets_in_one_device_and_needs_its_key(app, client):
    """A link is taken once: a second device is refused; a wrong key is refused (403)."""
    _tablet_id, link = tablet_link(client)
    assert device(app, TABLET).post(link).status_code == 303
    second = device(app, "192.168.1.71").post(link, headers=EN)
    assert second.status_code == 400 and "already used" in second.get_data(as_text=True)
    wrong = device(app, "192.168.1.72").post(link[:-3] + "bad", headers=EN)
    assert wrong.status_code == 403
    assert "does not let any device in as a club tablet" in wrong.get_data(as_text=True)


def test_the_organisers_own_device_counts_its_tables(app, client, regular):
    """A browser that took the organiser link is trusted like this computer."""
    page = client.get("/club").get_data(as_text=True)
    link = re.search(r'href="http://[^/]+(/club/organiser/[^"]+)"', page).group(1)
    organiser = device(app, "192.168.1.80")
    assert organiser.post(link).status_code == 303
    table_id = play_over_http(organiser, ["regular", "Dee"], [1, 2])
    with app.app_context():
        assert counted.how_counted(db.get_db(), table_id) == counted.ORGANISER
    assert record(app, regular)["played"] == 3


def test_only_the_organiser_counts_or_lets_tablets_in(app, client, regular):
    """Counting, un-counting and the tablets are the organiser's: 403 with a sentence for the
    table's own host, a club tablet and a cross-site page; nothing changes."""
    table_id = stranger_games(app)[0]
    stranger = device(app, STRANGER)
    for path in (f"/club/tables/{table_id}/count", f"/club/tables/{table_id}/uncount"):
        refused = stranger.post(path, headers=EN)
        assert refused.status_code == 403
        assert "which games count" in refused.get_data(as_text=True)
    tablet_id, link = tablet_link(client)
    tablet = device(app, TABLET)
    tablet.post(link)
    assert tablet.post(f"/club/tables/{table_id}/count").status_code == 403
    assert tablet.post("/club/tablets", data={"name": "mine"}).status_code == 403
    assert tablet.post(f"/club/tablets/{tablet_id}/revoke").status_code == 403
    forged = client.post(f"/club/tables/{table_id}/count", headers={"Sec-Fetch-Site": "cross-site"})
    assert forged.status_code == 403
    with app.app_context():
        assert counted.how_counted(db.get_db(), table_id) is None
        assert counted.tablet(db.get_db(), tablet_id).active


def test_refusals_say_why(app, client, regular):
    """An unknown table is a 404, an unknown tablet and a bad tablet name a 400 with the
    sentence next to the field; nothing is stored."""
    assert client.post("/club/tables/nosuch22/count", headers=EN).status_code == 404
    assert client.post("/club/tablets/999/revoke", headers=EN).status_code == 400
    bad = client.post("/club/tablets", data={"name": "a\u200bb"}, headers=EN)
    assert bad.status_code == 400 and 'data-error="name"' in bad.get_data(as_text=True)
    with app.app_context():
        assert counted.tablets(db.get_db()) == []


def test_every_table_of_an_upgraded_database_counts(tmp_path, ranked):
    """A database from before the rule: every table it holds counts when the upgrade runs
    (the club saw those games); a stranger's new table after it does not."""
    settings = {"TESTING": True, "SECRET_KEY": "upgrade"}
    old = create_app(settings, instance_path=str(tmp_path))
    played = [play_over_http(device(old, STRANGER), ["Eva", "Fay"], [1, 2]) for _ in range(2)]
    with old.app_context():
        conn = db.get_db()
        conn.execute("DROP TABLE counted_tables")  # as an older companion left it
        conn.execute("DROP TABLE club_tablets")
        conn.execute("PRAGMA user_version=5")
    upgraded = create_app(settings, instance_path=str(tmp_path))
    newer = play_over_http(device(upgraded, STRANGER), ["Eva", "Fay"], [1, 2])
    with upgraded.app_context():
        conn = db.get_db()
        assert [counted.how_counted(conn, table) for table in played] == ["upgrade"] * 2
        assert counted.how_counted(conn, newer) is None
        eva = roster.seated(conn, newer)[0].id
        assert ratings.rating_of(eva).games == 2
    create_app(settings, instance_path=str(tmp_path))  # a later start changes nothing
    with upgraded.app_context():
        assert counted.how_counted(db.get_db(), newer) is None


def test_the_new_table_form_decides_too(app, client):
    """A table from the tablet's form counts from this computer, not from a stranger's phone."""
    ids = []
    for who in (client, device(app, STRANGER)):
        made = who.post("/tables/new/razzia", data={"player": ["Petr", "Eva", "Jan"]})
        assert made.status_code == 303, made.get_data(as_text=True)
        ids.append(made.headers["Location"].rsplit("/", 1)[-1])
    with app.app_context():
        assert [counted.how_counted(db.get_db(), table) for table in ids] == ["host", None]
