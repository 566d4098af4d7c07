"""League standings for a hand-made season (issue 26 item 5), on screen, printed and in CSV.

Done means: "League standings for a hand-made season are right with ties, on screen, printed
and in CSV." The season's rule: points per placing 10, 6, 4, 2; players tied for a place share
the points of the places they cover (scoring/league/points.py). Ranks are the results' ranks
(docs/game-contract.md; RULES.md §2 For Sale "still tied -> shared win").

Evening 1 (6 March): Ann 1 Bob 2 Cid 3 Dee 4 -> 10 6 4 2; Bob and Ann share 1st, Eve 3rd ->
8 8 4. Evening 2 (13 March): Cid 1, Dee and Eve 2nd -> 10 5 5; Dee 1 Eve 2 Cid 3 -> 10 6 4;
Fay and Gus share 1st of two -> 8 8.
Season: Ann 18 (2 wins) and Cid 18 (1 win): wins put Ann first. Dee 17, Eve 15, Bob 14, Fay
and Gus 8 each with one win in one game: a shared 6th place.
"""

import csv
import io
import re
from datetime import UTC, datetime

import pytest

from companion_app.store import tables as store_tables
from scoring.league.evenings import evening_day

EVENING_1 = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)
EVENING_2 = datetime(2026, 3, 13, 19, 0, tzinfo=UTC)
SEASON_ROWS = [
    # place, shared, name, points, games, wins, points per game
    ("1", "0", "Ann", "18.00", "2", "2", "9.00"),
    ("2", "0", "Cid", "18.00", "3", "1", "6.00"),
    ("3", "0", "Dee", "17.00", "3", "1", "5.67"),
    ("4", "0", "Eve", "15.00", "3", "0", "5.00"),
    ("5", "0", "Bob", "14.00", "2", "1", "7.00"),
    ("6", "1", "Fay", "8.00", "1", "1", "8.00"),
    ("6", "1", "Gus", "8.00", "1", "1", "8.00"),
]


@pytest.fixture
def season(app, client, club, monkeypatch):
    """The hand-made season: two evenings of ranked games; returns the season's URL."""
    for moment, games in (
        (
            EVENING_1,
            [(["Ann", "Bob", "Cid", "Dee"], [1, 2, 3, 4]), (["Bob", "Ann", "Eve"], [1, 1, 3])],
        ),
        (
            EVENING_2,
            [
                (["Cid", "Dee", "Eve"], [1, 2, 2]),
                (["Dee", "Cid", "Eve"], [1, 3, 2]),
                (["Fay", "Gus"], [1, 1]),
            ],
        ),
    ):
        monkeypatch.setattr(store_tables, "_now", lambda moment=moment: moment.isoformat())
        for names, ranks in games:
            club.play(names, ranks)
    form = {
        "name": "Jaro 2026",
        "kind": "placing",
        "place_1": "10",
        "place_2": "6",
        "place_3": "4",
        "place_4": "2",
        "evening": ["1", "2"],
    }
    response = client.post("/club/seasons/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def rows_on_page(html: str) -> list[tuple]:
    """(place, shared, name, points, games, wins, per game) of each standings row shown."""
    found = []
    for row in re.findall(r"<tr data-person=\"\d+\" data-place=\"\d+\">(.*?)</tr>", html, re.S):
        cell = dict(re.findall(r'data-stat="(\w+)">(.*?)</td>', row, re.S))
        name = re.search(r"<th scope=\"row\">(.*?)</th>", row).group(1)
        place = re.match(r"(\d+)\.", cell["place"]).group(1)
        shared = "1" if "shared-mark" in cell["place"] else "0"
        found.append(
            (place, shared, name, cell["points"], cell["games"], cell["wins"], cell["per_game"])
        )
    return found


def as_page_numbers(rows: list[tuple]) -> list[tuple]:
    """The CSV's numbers as the English page writes them (no trailing zeros)."""

    def short(text: str) -> str:
        return text.rstrip("0").rstrip(".") if "." in text else text

    return [(p, s, n, short(pts), g, w, short(pg)) for p, s, n, pts, g, w, pg in rows]


def test_the_evenings_are_the_days_the_tables_started():
    assert evening_day(datetime(2026, 3, 6, 23, 50)).isoformat() == "2026-03-06"
    # a club night past midnight is still the evening before (before 06:00)
    assert evening_day(datetime(2026, 3, 7, 1, 30)).isoformat() == "2026-03-06"
    assert evening_day(datetime(2026, 3, 7, 6, 0)).isoformat() == "2026-03-07"


def test_season_standings_on_screen_with_ties_explained(client, season):
    html = client.get(season, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert rows_on_page(html) == as_page_numbers(SEASON_ROWS)
    notes = re.findall(r'data-stat="note">(.*?)</td>', html)
    assert (
        notes[0]
        == notes[1].replace("Ann", "Cid")
        == "Level on points with Cid; more wins come first."
    )
    assert notes[1] == "Level on points with Ann; more wins come first."
    assert notes[2:5] == ["", "", ""]
    assert notes[5] == ("Level with Gus on points, wins and points per game: the place is shared.")
    assert "Points per placing (place 1: 10, place 2: 6, place 3: 4, place 4: 2" in html


def test_evening_standings_use_the_seasons_rule(client, season):
    evening_1 = client.get(f"{season}/evenings/1", headers={"Accept-Language": "en"})
    assert rows_on_page(evening_1.get_data(as_text=True)) == [
        ("1", "0", "Ann", "18", "2", "2", "9"),
        ("2", "0", "Bob", "14", "2", "1", "7"),
        ("3", "1", "Cid", "4", "1", "0", "4"),
        ("3", "1", "Eve", "4", "1", "0", "4"),
        ("5", "0", "Dee", "2", "1", "0", "2"),
    ]
    evening_2 = client.get(f"{season}/evenings/2", headers={"Accept-Language": "en"})
    assert [row[2:4] for row in rows_on_page(evening_2.get_data(as_text=True))] == [
        ("Dee", "15"),
        ("Cid", "14"),
        ("Eve", "11"),
        ("Fay", "8"),
        ("Gus", "8"),
    ]


def test_season_standings_in_czech_write_decimal_commas(client, season):
    html = client.get(season, headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert [row[6] for row in rows_on_page(html)][2] == "5,67"


@pytest.mark.parametrize("paper", ["a4", "80mm", "58mm"])
def test_printed_standings_show_the_same_rows_and_a_qr_to_the_live_page(client, season, paper):
    html = client.get(f"{season}/print/{paper}", headers={"Accept-Language": "en"}).get_data(
        as_text=True
    )
    if paper == "a4":
        assert rows_on_page(html) == as_page_numbers(SEASON_ROWS)
    else:
        shown = re.findall(
            r'<li data-person="\d+" data-place="(\d+)"><strong>\d+\.( =)? (\w+)</strong>\s*'
            r'<span class="score">([\d.]+)</span>',
            html,
        )
        assert shown == [
            (place, " =" if shared == "1" else "", name, points)
            for place, shared, name, points, *_ in as_page_numbers(SEASON_ROWS)
        ]
        assert "Level on points with Cid; more wins come first." in html
    qr_url = re.search(r'<img src="([^"]+/qr\.svg)"', html).group(1)
    svg = client.get(qr_url)
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"


def test_standings_as_csv(client, season):
    response = client.get(f"{season}/standings.csv", headers={"Accept-Language": "en"})
    assert response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0] == [  # in the page's language (issue 32 item 4)
        "Place",
        "Shared place",
        "Player",
        "Points",
        "Games",
        "Wins",
        "Points per game",
        "Tie",
        "Person id",
    ]
    assert [tuple(row[:7]) for row in rows[1:]] == SEASON_ROWS
    assert rows[1][7] == "Level on points with Cid; more wins come first."
    assert rows[6][7] == "Level with Gus on points, wins and points per game: the place is shared."


def test_a_beaten_share_season_counts_players_beaten(client, season):
    form = {"name": "Podíly", "kind": "beaten", "beaten_points": "12", "evening": "2"}
    url = client.post("/club/seasons/new", data=form).headers["Location"]
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"{url}/standings.csv").get_data(as_text=True).lstrip("\ufeff"))
        )
    )
    # Cid: 12 (beat both) + 0 (last of three); Dee: 3 (half of Eve, of two) + 12; Eve: 3 + 6;
    # Fay and Gus tied: half of one beaten -> 6 each
    assert [(row[2], row[3]) for row in rows[1:]] == [
        ("Dee", "15.00"),
        ("Cid", "12.00"),
        ("Eve", "9.00"),
        ("Fay", "6.00"),
        ("Gus", "6.00"),
    ]


def test_a_season_with_an_unusable_rule_is_refused_next_to_the_form(client, season):
    form = {"name": "Bad", "kind": "placing", "place_1": "3", "place_2": "5", "evening": "1"}
    response = client.post("/club/seasons/new", data=form)
    assert response.status_code == 400
    assert "Place 2 cannot score more than place 1." in response.get_data(as_text=True)
    assert client.get("/club/seasons/3").status_code == 404  # nothing was stored
