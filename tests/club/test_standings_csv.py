"""Standings in CSV that a spreadsheet opens right (issue 32 item 4), seasons and evenings.

Done means: "A test opens the Czech CSV as a spreadsheet would (`;`, decimal comma, BOM) and
checks numbers and names." In Czech the cells are separated by ";" and numbers carry a decimal
comma, after a UTF-8 BOM (so a spreadsheet reads the accents); column names are the page's
language's; the last column is the person's id, which a rename does not change; the file is
named after the season or evening.

The evening (default rule 10, 6, 4, 2, 1): František 1 Bořek 2 Hanka 3 Žofie 4 -> 10 6 4 2;
Hanka 1, Bořek and Žofie share 2nd -> 10, (6 + 4) / 2 = 5 each; Žofie 1 František 2 Hanka 3
-> 10 6 4. Hanka 18 in 3 (6 a game), Žofie 17 in 3 (5.67), František 16 in 2 (8), Bořek 11
in 2 (5.5).
"""

import csv
import io
import re

import pytest

from companion_app.store import db, roster
from companion_app.web.standings_text import file_slug

CS, EN = {"Accept-Language": "cs"}, {"Accept-Language": "en"}
BOM = b"\xef\xbb\xbf"
#: name, points, games, wins, points per game
EXPECTED = [
    ("Hanka", 18.0, 3, 1, 6.0),
    ("Žofie", 17.0, 3, 1, 5.67),
    ("František", 16.0, 2, 1, 8.0),
    ("Bořek", 11.0, 2, 0, 5.5),
]


@pytest.fixture
def evening(client, club):
    """The evening's three games; its page."""
    club.play(["František", "Bořek", "Hanka", "Žofie"], [1, 2, 3, 4])
    club.play(["Hanka", "Bořek", "Žofie"], [1, 2, 2])
    club.play(["Žofie", "František", "Hanka"], [1, 2, 3])
    return "/club/evenings/1"


@pytest.fixture
def season(client, evening):
    """A season of that evening under the same rule, named with accents; its page."""
    form = {"name": "Jarní liga 2026", "kind": "placing", "evening": "1"}
    form |= {f"place_{place}": str(points) for place, points in enumerate([10, 6, 4, 2, 1], 1)}
    response = client.post("/club/seasons/new", data=form)
    assert response.status_code == 303
    return response.headers["Location"]


def as_a_spreadsheet_opens(body: bytes) -> list[list[str]]:
    """What a Czech spreadsheet sees: the BOM says UTF-8, ";" separates the cells."""
    assert body.startswith(BOM)
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))


def czech_number(text: str) -> float:
    """A number with a decimal comma, as a Czech spreadsheet parses it (no point allowed)."""
    assert re.fullmatch(r"-?\d+(,\d+)?", text), text
    return float(text.replace(",", "."))


def person_ids(app) -> dict[str, int]:
    """Each person's id by name."""
    with app.app_context():
        return {person.name: person.id for person in roster.everyone(db.get_db())}


@pytest.mark.parametrize("page", ["evening", "season", "season_evening"])
def test_item_4_the_czech_csv_opens_in_a_spreadsheet_with_names_and_numbers_right(
    app, client, season, evening, page
):
    url = {"evening": evening, "season": season, "season_evening": f"{season}/evenings/1"}[page]
    rows = as_a_spreadsheet_opens(client.get(f"{url}/standings.csv", headers=CS).get_data())
    assert rows[0] == [
        "Místo",
        "Dělené místo",
        "Hráč",
        "Body",
        "Hry",
        "Výhry",
        "Bodů na hru",
        "Shoda",
        "ID osoby",
    ]
    assert all(len(row) == 9 for row in rows)
    found = [
        (row[2], czech_number(row[3]), int(row[4]), int(row[5]), czech_number(row[6]))
        for row in rows[1:]
    ]
    assert found == EXPECTED
    assert [row[6] for row in rows[1:]] == ["6,00", "5,67", "8,00", "5,50"]
    ids = person_ids(app)
    assert [int(row[8]) for row in rows[1:]] == [ids[name] for name, *_ in EXPECTED]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4"]


def test_item_4_the_english_csv_keeps_commas_and_decimal_points(client, season):
    body = client.get(f"{season}/standings.csv", headers=EN).get_data()
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert body.startswith(BOM)
    assert rows[0][:3] == ["Place", "Shared place", "Player"] and rows[0][8] == "Person id"
    assert [(row[2], row[3], row[6]) for row in rows[1:]] == [
        ("Hanka", "18.00", "6.00"),
        ("Žofie", "17.00", "5.67"),
        ("František", "16.00", "8.00"),
        ("Bořek", "11.00", "5.50"),
    ]


def test_item_4_the_person_id_stays_when_a_person_is_renamed(app, client, evening):
    before = person_ids(app)["Bořek"]
    assert client.post(f"/people/{before}/rename", data={"name": "Bořek Velký"}).status_code == 303
    rows = as_a_spreadsheet_opens(client.get(f"{evening}/standings.csv", headers=CS).get_data())
    assert (rows[4][2], rows[4][8]) == ("Bořek Velký", str(before))


def test_item_4_a_tie_note_with_a_separator_stays_in_its_cell(client, club):
    club.play(["Ann; B", "Cid"], [1, 1])  # a shared 1st: both notes name the other
    rows = as_a_spreadsheet_opens(
        client.get("/club/evenings/1/standings.csv", headers=CS).get_data()
    )
    assert [row[2] for row in rows[1:]] == ["Ann; B", "Cid"]
    assert "Ann; B" in rows[2][7] and len(rows[2]) == 9


def test_item_4_the_file_is_named_after_the_season_or_evening(client, season, evening):
    def file_name(url: str) -> str:
        disposition = client.get(url, headers=CS).headers["Content-Disposition"]
        return re.fullmatch(r'attachment; filename="([^"]+)"', disposition).group(1)

    with client.application.app_context():
        day = roster_day(client)
    assert file_name(f"{season}/standings.csv") == "standings-jarni-liga-2026.csv"
    assert file_name(f"{season}/evenings/1/standings.csv") == (
        f"standings-jarni-liga-2026-{day}.csv"
    )
    assert file_name(f"{evening}/standings.csv") == f"standings-{day}.csv"
    client.post("/club/evenings/1/name", data={"name": "Páteční klub: Říjen!"})
    assert file_name(f"{evening}/standings.csv") == f"standings-patecni-klub-rijen-{day}.csv"


def roster_day(client) -> str:
    """The evening's day (today's evening, YYYY-MM-DD)."""
    row = db.get_db().execute("SELECT day FROM evenings WHERE id = 1").fetchone()
    return row["day"]


def test_item_4_a_slug_keeps_ascii_letters_and_digits():
    assert file_slug("Jarní liga 2026") == "jarni-liga-2026"
    assert file_slug("  Žluťoučký kůň ", "2026-03-06") == "zlutoucky-kun-2026-03-06"
    assert file_slug("日本") == ""  # nothing to keep: the view names the file by its id
    assert len(file_slug("a" * 200)) == 60
