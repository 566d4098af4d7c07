"""The score-sheet form: builds the sheet, shows the breakdown or the refusal at its field."""

import html
import re

from tests.web.test_pages import text


def scored(page: str, category: str) -> list[int]:
    """A row of the result table, one number per player."""
    return [int(v) for v in re.findall(rf'data-cat="{category}">(-?\d+)', page)]


def round_3_form() -> dict:
    """The seed's worked examples as a round-3 sheet of two players (Felix, Elke)."""
    return {
        "round": "3",
        "p0.name": "Felix",
        "p0.cars": "1",
        "p0.drivers": "3",
        "p0.bodyguards": "4",
        "p0.jewelry.watch": "2",
        "p0.jewelry.necklace": "3",
        "p0.jewelry.ring": "2",
        "p0.businesses.restaurant": "4",
        "p0.businesses.casino": "3",
        "p0.businesses.film": "1",
        "p0.businesses.transport": "1",
        "p0.businesses.nightclub": "1",
        "p0.checks": ["5000", "6000", "8000", "9000"],
        "p1.name": "Elke",
        "p1.cars": "5",
        "p1.thieves": "2",
        "p1.gold": "2",
        "p1.jewelry.brooch": "2",
        "p1.jewelry.ring": "1",
        "p1.bodyguards": "1",
        "p1.checks": ["1000", "2000", "3000", "4000"],
    }


def test_the_empty_form_has_five_columns_and_every_field(client):
    """Round, five player columns, counts, jewelry and business kinds, check chips."""
    page = text(client.get("/score/razzia"))
    assert 'name="round"' in page
    for column in range(5):
        for field in (
            "name",
            "cars",
            "drivers",
            "gold",
            "thieves",
            "bodyguards",
            "jewelry.diamond",
            "businesses.horse_racing",
        ):
            assert f'name="p{column}.{field}"' in page
        assert page.count(f'name="p{column}.checks"') == 16


def test_a_round_3_sheet_is_scored_with_the_breakdown(client):
    """The worked examples: cars 4 / 0, jewelry 5 / 0, businesses 20 / 0, checks +5 / -5."""
    response = client.post("/score/razzia", data=round_3_form())
    assert response.status_code == 200
    page = text(response)
    assert scored(page, "cars_drivers") == [4, 0]
    assert scored(page, "jewelry") == [5, 0]
    assert scored(page, "gold") == [0, 6] and scored(page, "thieves") == [0, 4]
    assert scored(page, "bodyguards") == [5, -2]
    assert scored(page, "businesses") == [20, 0]
    assert scored(page, "checks") == [5, -5]
    assert scored(page, "total") == [39, 3]
    assert "Best this round: <strong>Felix</strong>" in page


def test_blank_columns_are_left_out(client):
    """Players typed in columns 1 and 4 make a two-player sheet."""
    form = {"round": "1", "p1.name": "A", "p1.cars": "1", "p4.name": "B", "p4.drivers": "2"}
    page = text(client.post("/score/razzia", data=form))
    assert scored(page, "cars_drivers") == [0, 2]


def test_a_bad_count_is_shown_at_its_field_and_the_form_keeps_what_was_typed(client):
    """Too many rings at the table: the message sits at Elke's ring field; values stay."""
    form = {**round_3_form(), "p1.jewelry.ring": "3"}
    response = client.post("/score/razzia", data=form)
    assert response.status_code == 400
    page = text(response)
    assert re.search(
        r'data-error="p1.jewelry.ring">5 rings at the table, but the game has only 4.', page
    )
    assert 'data-error="sheet-summary"' in page and 'data-testid="sheet-result"' not in page
    assert 'name="p0.name" id="p0.name" value="Felix"' in page
    assert 'name="p1.jewelry.ring" id="p1.jewelry.ring" value="3"' in page
    assert re.search(r'name="p0.checks" value="9000"\s+checked', page)


def test_a_typed_word_is_refused_by_the_calculator_at_its_field(client):
    """A count that is not a number reaches the calculator, which names the field."""
    form = {"round": "1", "p0.name": "A", "p1.name": "B", "p1.gold": "lots"}
    page = html.unescape(text(client.post("/score/razzia", data=form)))
    assert re.search(
        r"data-error=\"p1.gold\">Must be a whole number of 0 or more, not 'lots'.", page
    )


def test_round_3_without_checks_is_refused_at_the_checks(client):
    """Round 3 needs the checks; the message sits in that player's check row."""
    form = {**round_3_form(), "p1.checks": []}
    page = text(client.post("/score/razzia", data=form))
    assert 'data-error="p1.checks"' in page


def test_too_few_players_is_shown_at_the_top_of_the_form(client):
    """One player only: the players message next to the round selector."""
    page = text(client.post("/score/razzia", data={"round": "2", "p0.name": "Solo"}))
    assert re.search(
        r'data-error="players">1 given, but Razzia! is played by 2 to 5 players.', page
    )
    assert re.search(r'value="2" data-round="2"\s+checked>', page)  # the round chip kept


def test_the_form_speaks_czech(client):
    """Labels and refusals in Czech for a Czech browser."""
    headers = {"Accept-Language": "cs"}
    page = text(client.post("/score/razzia", data={"round": "1", "p0.name": "A"}, headers=headers))
    assert "Bodovací list Razzia!" in page and "osobní strážce" in page
    assert "ale Razzii hraje 2 až 5 hráčů" in page
