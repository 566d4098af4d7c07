"""Setting up a table from the roster in headless Chromium (issue 26 item 2).

Done means: "Setup of a 5-player table from the roster is 5 taps for the names". The chips
list who played most recently first; letters typed in a seat find a person (accents and
capitals do not matter); a name nobody has is added in place as a new person.
"""

import pytest

from companion_app.store import db, roster
from tests.club.conftest import Club
from tests.live import screenshot

ROSTER = ["Ann", "Bob", "Čeněk", "Dana", "Eva", "Filip", "Gustav"]
LANDSCAPE = {"width": 1024, "height": 768}


def seed(app) -> None:
    """Two finished tables: Filip and Gustav played last, so their chips come first."""
    club = Club(app)
    club.play(["Ann", "Bob", "Čeněk", "Dana", "Eva"], [1, 2, 3, 4, 5])
    club.play(["Filip", "Gustav"], [1, 2])


def people(app) -> dict[str, int]:
    with app.app_context():
        return {person.name: person.tables for person in roster.everyone(db.get_db())}


@pytest.mark.browser
def test_five_taps_seat_five_players_from_the_roster(live_server, browser, ranked):
    base, app = live_server
    seed(app)
    page = browser.new_page(viewport=LANDSCAPE, locale="en-GB")
    page.goto(base + "/tables/new/razzia")
    chips = page.locator("[data-testid=roster-chips] .roster-chip:visible")
    assert chips.all_inner_texts()[:2] == ["Filip", "Gustav"]  # most recent first
    taps = 0
    for name in ["Eva", "Ann", "Čeněk", "Bob", "Dana"]:
        page.locator(f".roster-chip[data-name='{name}']").click()
        taps += 1
    assert taps == 5
    seats = [page.input_value(f"[data-testid=player-{seat}]") for seat in range(5)]
    assert seats == ["Eva", "Ann", "Čeněk", "Bob", "Dana"]
    assert page.locator(".roster-chip[data-name='Eva']").is_hidden()  # seated: no chip
    screenshot(page, "club-roster-setup")
    with page.expect_navigation():
        page.click("[data-testid=create]")
    assert "/tables/" in page.url and "/new/" not in page.url
    counts = people(app)
    assert set(counts) == set(ROSTER)  # nobody new: the five are the roster's people
    assert counts["Eva"] == 2 and counts["Filip"] == 1


@pytest.mark.browser
def test_letters_find_a_person_and_a_new_name_is_added_in_place(live_server, browser, ranked):
    base, app = live_server
    seed(app)
    page = browser.new_page(viewport=LANDSCAPE, locale="en-GB")
    page.goto(base + "/tables/new/razzia")
    page.click("[data-testid=player-0]")
    page.keyboard.type("cen")
    assert page.locator("[data-testid=roster-chips] .roster-chip:visible").all_inner_texts() == [
        "Čeněk"
    ]
    page.locator(".roster-chip[data-name='Čeněk']").click()
    assert page.input_value("[data-testid=player-0]") == "Čeněk"
    page.locator(".roster-chip[data-name='Gustav']").click()
    assert page.input_value("[data-testid=player-1]") == "Gustav"
    page.fill("[data-testid=player-2]", "Hana")
    with page.expect_navigation():
        page.click("[data-testid=create]")
    counts = people(app)
    assert counts["Hana"] == 1 and counts["Čeněk"] == 2 and counts["Gustav"] == 2
