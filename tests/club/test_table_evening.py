"""A table's evening can be changed (issue 26 item 5, docs/club.md "Evenings and seasons").

Issue 26 item 5: "games belong to an evening (today's, by default)"; the organiser moves a
table (finished or not) to another evening: a game entered the next morning, a table started
on the wrong day. The evenings' and the season's standings follow at once (their cached values
too), ratings do not (they follow the games' end order), only the organiser may move a table
(docs/security.md) and the move is in the database.

The season: points per placing 10, 6 (places 3 and later score 0). Evening A (6 March):
G1 Ann 1 Bob 2; G2 Cid 1 Ann 2. Evening B (13 March): G3 Bob 1 Cid 2; G4 Dee 1 Ann 2.
  A: Ann 16, Cid 10, Bob 6.         B: Bob 10, Dee 10 (a shared 1st place), Ann 6, Cid 6 (shared).
  Season: Ann 22, then Bob and Cid 16 (one win each in two games: shared), Dee 10.
G2 moved to B: A: Ann 10, Bob 6. B: Cid 16, Ann 12, Bob 10, Dee 10. The season is the same.
G2 moved on to 7 March (a new evening, in no season): the season loses it: Ann 16, Bob 16
(shared), Dee 10, Cid 6.
"""

import csv
import io
import re
from datetime import UTC, datetime

import pytest

from companion_app import create_app
from companion_app.club import ratings
from companion_app.server import rights
from companion_app.store import db, get_store
from companion_app.store import league as stored
from companion_app.store import tables as store_tables
from tests.app.helpers import PLAYERS, SETS

EVENING_A = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)
EVENING_B = datetime(2026, 3, 13, 19, 0, tzinfo=UTC)
LATER = datetime(2026, 3, 20, 19, 0, tzinfo=UTC)
OUTSIDE = {"REMOTE_ADDR": "192.168.1.50"}
EN = {"Accept-Language": "en"}


def at(monkeypatch, moment: datetime) -> None:
    """Tables created from now on start at `moment`."""
    monkeypatch.setattr(store_tables, "_now", lambda: moment.isoformat())


@pytest.fixture
def night(app, client, club, monkeypatch):
    """The two evenings' four games and the season over both; the tables' ids by name."""
    at(monkeypatch, EVENING_A)
    games = {
        "G1": club.play(["Ann", "Bob"], [1, 2]),
        "G2": club.play(["Cid", "Ann"], [1, 2]),
    }
    at(monkeypatch, EVENING_B)
    games["G3"] = club.play(["Bob", "Cid"], [1, 2])
    games["G4"] = club.play(["Dee", "Ann"], [1, 2])
    form = {"name": "Jaro", "kind": "placing", "place_1": "10", "place_2": "6"}
    response = client.post("/club/seasons/new", data=form | {"evening": ["1", "2"]})
    assert response.status_code == 303, response.get_data(as_text=True)
    return games


def evening_of(app, table_id: str) -> str:
    """The day of the evening a table belongs to (ISO)."""
    with app.app_context():
        return stored.table_evening(db.get_db(), table_id).day.isoformat()


def standings(client, url: str) -> list[tuple[str, str, str]]:
    """(person, points, shared) of each row of a standings CSV."""
    text = client.get(url, headers=EN).get_data(as_text=True).lstrip("\ufeff")
    return [(row[2], row[3], row[1]) for row in list(csv.reader(io.StringIO(text)))[1:]]


def shown(client, url: str) -> list[tuple[str, str]]:
    """(person, points) of the standings page's rows, as the page shows them."""
    html = client.get(url, headers=EN).get_data(as_text=True)
    rows = re.findall(r"<tr data-person=\"\d+\" data-place=\"\d+\">(.*?)</tr>", html, re.S)
    return [
        (
            re.search(r'<th scope="row">(.*?)</th>', row).group(1),
            re.search(r'data-stat="points">(.*?)</td>', row).group(1),
        )
        for row in rows
    ]


def move(client, table_id: str, **form):
    """POST the move form as the organiser's browser would."""
    return client.post(f"/club/tables/{table_id}/evening", data=form, headers=EN)


def error_at(response) -> tuple[str, str]:
    """(field, sentence) of the refusal shown next to the form."""
    found = re.findall(r'data-error="(\w+)">(.*?)<', response.get_data(as_text=True))
    assert len(found) == 1, found
    return found[0]


def all_ratings(app) -> dict:
    """Everyone's rating overall and in the ranked game, by person id."""
    with app.app_context():
        book = ratings.book()
        return {
            person: (book.rating(person), book.rating(person, "ranked")) for person in book.overall
        }


A_BEFORE = [("Ann", "16.00", "0"), ("Cid", "10.00", "0"), ("Bob", "6.00", "0")]
B_BEFORE = [
    ("Bob", "10.00", "1"),
    ("Dee", "10.00", "1"),
    ("Ann", "6.00", "1"),
    ("Cid", "6.00", "1"),
]
SEASON_BEFORE = [
    ("Ann", "22.00", "0"),
    ("Bob", "16.00", "1"),
    ("Cid", "16.00", "1"),
    ("Dee", "10.00", "0"),
]
SEASON = "/club/seasons/1"


def test_moving_a_finished_table_changes_both_evenings_and_then_the_season(app, client, night):
    a_csv, b_csv = f"{SEASON}/evenings/1/standings.csv", f"{SEASON}/evenings/2/standings.csv"
    # read first: the standings are now in the club's memory, which the move must invalidate
    assert standings(client, a_csv) == A_BEFORE
    assert standings(client, b_csv) == B_BEFORE
    assert standings(client, f"{SEASON}/standings.csv") == SEASON_BEFORE
    rated = all_ratings(app)

    moved = move(client, night["G2"], evening="2")
    assert moved.status_code == 303
    assert moved.headers["Location"].endswith("/club/evenings/2")
    page = client.get("/club/evenings/2", headers=EN).get_data(as_text=True)
    assert "ranked (Cid, Ann) moved here from Friday, Mar 6, 2026." in page
    assert f'data-table="{night["G2"]}"' in page
    assert f'data-table="{night["G2"]}"' not in client.get("/club/evenings/1").get_data(
        as_text=True
    )
    assert evening_of(app, night["G2"]) == "2026-03-13"
    assert standings(client, a_csv) == [("Ann", "10.00", "0"), ("Bob", "6.00", "0")]
    assert standings(client, b_csv) == [
        ("Cid", "16.00", "0"),
        ("Ann", "12.00", "0"),
        ("Bob", "10.00", "1"),
        ("Dee", "10.00", "1"),
    ]
    assert standings(client, f"{SEASON}/standings.csv") == SEASON_BEFORE  # both in the season
    # the page and the A4 printout read the same standings
    assert shown(client, f"{SEASON}/evenings/2") == [
        ("Cid", "16"),
        ("Ann", "12"),
        ("Bob", "10"),
        ("Dee", "10"),
    ]
    assert shown(client, f"{SEASON}/evenings/1/print/a4") == [("Ann", "10"), ("Bob", "6")]

    # the next morning's game belonged to the night after evening A: a new evening, no season
    again = move(client, night["G2"], day="2026-03-07")
    assert again.status_code == 303
    assert evening_of(app, night["G2"]) == "2026-03-07"
    assert standings(client, b_csv) == B_BEFORE[:2] + [("Ann", "6.00", "1"), ("Cid", "6.00", "1")]
    assert standings(client, f"{SEASON}/standings.csv") == [
        ("Ann", "16.00", "1"),
        ("Bob", "16.00", "1"),
        ("Dee", "10.00", "0"),
        ("Cid", "6.00", "0"),
    ]
    assert shown(client, SEASON)[0] == ("Ann", "16")
    # ratings follow the games' end order, not their evenings: nobody's changed
    assert all_ratings(app) == rated


def test_a_table_in_play_moves_and_keeps_its_evening_when_it_ends(
    app, client, club, night, monkeypatch
):
    at(monkeypatch, LATER)
    table_id = club.start(["Ann", "Dee"])  # 20 March: an evening in no season
    assert move(client, table_id, evening="1").status_code == 303
    club.finish(table_id, [1, 2])
    assert evening_of(app, table_id) == "2026-03-06"
    assert standings(client, f"{SEASON}/evenings/1/standings.csv")[:2] == [
        ("Ann", "26.00", "0"),
        ("Cid", "10.00", "0"),
    ]


def test_the_move_survives_a_restart(app, client, night, tmp_path):
    assert move(client, night["G1"], evening="2").status_code == 303
    restarted = create_app({"TESTING": True, "SECRET_KEY": "test"}, instance_path=str(tmp_path))
    assert evening_of(restarted, night["G1"]) == "2026-03-13"  # club_sync left it there
    fresh = restarted.test_client()
    assert standings(fresh, f"{SEASON}/evenings/1/standings.csv") == [
        ("Cid", "10.00", "0"),
        ("Ann", "6.00", "0"),
    ]


def test_an_emptied_evening_in_no_season_is_forgotten_others_stay(
    app, client, club, night, monkeypatch
):
    at(monkeypatch, LATER)
    g5 = club.play(["Eve", "Fay"], [1, 2])  # 20 March: an evening in no season
    assert move(client, g5, evening="2").status_code == 303
    with app.app_context():
        days = [each.day.isoformat() for each in stored.evenings(db.get_db())]
    assert days == ["2026-03-13", "2026-03-06"]
    # evening A is in the season: emptied, it stays (its standings are then empty)
    for game in ("G1", "G2"):
        assert move(client, night[game], evening="2").status_code == 303
    assert client.get("/club/evenings/1").status_code == 200
    assert standings(client, f"{SEASON}/evenings/1/standings.csv") == []


def test_a_viewer_a_scorer_and_a_host_who_are_not_the_organiser_are_refused(app, night):
    table_id = razzia_from_api(app)
    with app.test_request_context():
        keys = {role: rights.table_key(table_id, role) for role in (rights.HOST, rights.SCORER)}
    dealt = app.test_client().post(
        f"/api/tables/{table_id}/moves",
        json={"version": 0, "move": {"type": "deal", "sets": SETS}},
        headers={"Authorization": f"Bearer {keys[rights.SCORER]}"},
        environ_base=OUTSIDE,
    )
    assert dealt.status_code == 200  # the key makes its holder a scorer of the table
    for headers in ({}, *({"Authorization": f"Bearer {key}"} for key in keys.values())):
        refused = app.test_client().post(
            f"/club/tables/{table_id}/evening",
            data={"evening": "1"},
            headers=EN | headers,
            environ_base=OUTSIDE,
        )
        assert refused.status_code == 403
        assert "Only the club&#39;s organiser" in refused.get_data(as_text=True)
    viewer = app.test_client().get(
        f"/club/tables/{table_id}/evening", headers=EN, environ_base=OUTSIDE
    )
    html = viewer.get_data(as_text=True)
    assert viewer.status_code == 200 and 'data-testid="move-to-1"' not in html
    assert "Only the club’s organiser can move a table to another evening." in html
    assert 'data-testid="move-' not in app.test_client().get(
        "/club/evenings/2", environ_base=OUTSIDE
    ).get_data(as_text=True)
    assert evening_of(app, table_id) != "2026-03-06"


def razzia_from_api(app) -> str:
    """A Razzia! table created through the API by this computer; its id."""
    response = app.test_client().post("/api/tables", json={"game": "razzia", "players": PLAYERS})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def test_the_organiser_link_lets_a_tablet_move_a_table(app, night):
    tablet = app.test_client()
    link = re.search(
        r'href="http[^"]*(/club/organiser/[^"]+)"',
        app.test_client().get("/club").get_data(as_text=True),
    ).group(1)
    assert tablet.post(link, environ_base=OUTSIDE).status_code == 303
    page = tablet.get(f"/club/tables/{night['G3']}/evening", environ_base=OUTSIDE)
    assert 'data-testid="move-to-1"' in page.get_data(as_text=True)
    done = tablet.post(
        f"/club/tables/{night['G3']}/evening", data={"evening": "1"}, environ_base=OUTSIDE
    )
    assert done.status_code == 303
    assert evening_of(app, night["G3"]) == "2026-03-06"


def test_a_cross_site_post_or_a_foreign_host_is_refused(app, client, night):
    url = f"/club/tables/{night['G1']}/evening"
    cross = client.post(url, data={"evening": "2"}, headers=EN | {"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403
    assert "came from another web site" in cross.get_data(as_text=True)
    foreign = client.post(url, data={"evening": "2"}, headers=EN | {"Host": "evil.example"})
    assert foreign.status_code == 400
    assert evening_of(app, night["G1"]) == "2026-03-06"


def test_an_unknown_table_is_refused_with_its_sentence(client, night):
    for response in (
        move(client, "no-such-table", evening="1"),
        client.get("/club/tables/no-such-table/evening", headers=EN),
    ):
        assert response.status_code == 404
        assert "There is no table with id no-such-table." in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("form", "field", "sentence"),
    [
        ({"evening": "99"}, "evening", "There is no such evening."),
        ({"evening": "x1"}, "evening", "There is no such evening."),
        ({"evening": "9" * 30}, "evening", "There is no such evening."),
        ({}, "evening", "Choose an evening, or a day for a new one."),
        (
            {"evening": "2", "day": "2026-03-07"},
            "evening",
            "Choose either an evening or a day, not both.",
        ),
        (
            {"day": "2026-02-30"},
            "day",
            "The day 2026-02-30 is not in the calendar; pick it with the date picker.",
        ),
        (
            {"day": "7.3.2026"},
            "day",
            "The day 7.3.2026 is not in the calendar; pick it with the date picker.",
        ),
        (
            {"day": "9999-01-01"},
            "day",
            "That day has not come yet; a table can only move to an evening that has begun.",
        ),
    ],
)
def test_an_unknown_evening_or_a_bad_day_is_refused_next_to_its_field(
    app, client, night, form, field, sentence
):
    refused = move(client, night["G1"], **form)
    assert refused.status_code == 400
    assert error_at(refused) == (field, sentence)
    assert evening_of(app, night["G1"]) == "2026-03-06"
    with app.app_context():
        assert len(stored.evenings(db.get_db())) == 2  # no evening was made either


def test_an_abandoned_table_belongs_to_no_evening(app, client, club, night):
    table_id = club.start(["Ann", "Bob"])
    with app.app_context():
        get_store().abandon(table_id)
    refused = move(client, table_id, evening="1")
    assert refused.status_code == 400
    assert "This table was abandoned; it belongs to no evening any more." in refused.get_data(
        as_text=True
    )


def test_the_move_page_and_its_sentences_in_czech(client, night):
    cs = {"Accept-Language": "cs"}
    page = client.get(f"/club/tables/{night['G1']}/evening", headers=cs).get_data(as_text=True)
    assert "Večer stolu" in page and "pátek 13. 3. 2026" in page
    client.post(f"/club/tables/{night['G1']}/evening", data={"evening": "2"}, headers=cs)
    moved = client.get("/club/evenings/2", headers=cs).get_data(as_text=True)
    assert "Stůl ranked (Ann, Bob) je teď tady; předtím patřil k večeru pátek 6. 3. 2026." in moved
    refused = client.post(f"/club/tables/{night['G1']}/evening", data={}, headers=cs)
    assert error_at(refused) == ("evening", "Vyberte večer, nebo den pro nový večer.")


def test_the_results_page_names_the_evening_and_the_organiser_moves_from_it(client, night):
    html = client.get(f"/tables/{night['G4']}/results", headers=EN).get_data(as_text=True)
    assert re.search(r'data-testid="results-evening">Friday, Mar 13, 2026<', html)
    assert f'href="/club/tables/{night["G4"]}/evening" data-testid="move-evening"' in html
