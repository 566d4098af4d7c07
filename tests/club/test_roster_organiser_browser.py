"""The organiser runs the roster in headless Chromium (issue 32 item 2, "Done means").

"Another [browser test] adds, removes and merges people (with undo) and seats a
near-duplicate name." This computer is the organiser. The header with "Players" in the top
menu stays one line at 1024 px and 800 px wide in both languages.
"""

import pytest

from companion_app.store import db, roster
from tests.club.conftest import Club
from tests.live import check_tablet_fit, screenshot

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 800, "height": 1280}


def people(app) -> dict[str, roster.Person]:
    with app.app_context():
        return {person.name: person for person in roster.everyone(db.get_db())}


@pytest.mark.browser
def test_the_organiser_adds_removes_and_merges_people_with_undo(live_server, browser, ranked):
    base, app = live_server
    club = Club(app)
    club.play(["Petr", "Eva"], [1, 2])
    club.play(["Ptr", "Eva"], [1, 2])  # a typo made a second entry
    page = browser.new_page(viewport=LANDSCAPE, locale="en-GB")
    page.goto(base + "/")
    page.click("[data-testid=people-link]")
    page.fill("[data-testid=add-name]", "Hana")
    page.click("[data-testid=add-person]")
    assert page.inner_text("[data-testid=roster-done]") == "Hana joined the roster."
    hana = people(app)["Hana"].id
    assert people(app)["Hana"].tables == 0
    check_tablet_fit(page, "people", LANDSCAPE["width"])
    screenshot(page, "club-roster-organiser-people")
    page.click(f"[data-testid=remove-{hana}]")
    assert page.inner_text("[data-testid=roster-done]") == "Hana was removed from the roster."
    assert "Hana" not in people(app)

    petr, typo = people(app)["Petr"].id, people(app)["Ptr"].id
    page.goto(f"{base}/people/{petr}")
    page.locator(f"label:has([data-testid=merge-{typo}])").click()
    page.click("[data-testid=merge]")
    assert page.inner_text("h1") == "Merge Ptr into Petr?"
    assert "1 table of Ptr moves to Petr" in page.inner_text("[data-testid=merge-moves]")
    assert set(people(app)) == {"Petr", "Ptr", "Eva"}  # nothing moved before the confirm
    screenshot(page, "club-roster-merge-confirm")
    page.click("[data-testid=merge-confirm]")
    assert page.inner_text("[data-testid=merged]") == "Ptr was merged into Petr."
    assert page.inner_text("[data-stat=played]") == "2"
    assert set(people(app)) == {"Petr", "Eva"}
    page.click(f"[data-testid=undo-merge-{typo}]")
    assert "Ptr is a person of their own again" in page.inner_text("[data-testid=merged]")
    assert page.inner_text("[data-stat=played]") == "1"
    after = people(app)
    assert (after["Petr"].tables, after["Ptr"].tables, after["Ptr"].id) == (1, 1, typo)


@pytest.mark.browser
@pytest.mark.parametrize(
    ("locale", "says_near", "says_new", "viewport"),
    [
        ("en-GB", "matches: Cýril", "new person", LANDSCAPE),
        ("cs-CZ", "shoda: Cýril", "nový hráč", PORTRAIT),
    ],
)
def test_a_near_duplicate_keeps_its_chip_and_is_seated_only_when_ticked_as_new(
    live_server, browser, ranked, locale, says_near, says_new, viewport
):
    base, app = live_server
    Club(app).play(["Cýril", "Eva"], [1, 2])
    page = browser.new_page(viewport=viewport, locale=locale)
    page.goto(base + "/tables/new/razzia")
    page.click("[data-testid=player-0]")
    page.keyboard.type("Cyril")
    assert page.locator(".roster-chip[data-name='Cýril']").is_visible()  # still in view
    match = page.locator("[data-testid=seat-match-0]")
    match.filter(has_text=says_near).wait_for()
    assert page.locator("[data-testid=new-person-0]").is_visible()
    page.click("[data-testid=player-1]")  # on to the next seat: every chip again
    page.locator(".roster-chip[data-name='Eva']").click()
    assert page.input_value("[data-testid=player-1]") == "Eva"
    page.click("[data-testid=player-2]")
    page.keyboard.type("Jan")
    page.locator("[data-testid=seat-match-2]").filter(has_text=says_new).wait_for()
    check_tablet_fit(page, "new table", viewport["width"])
    screenshot(page, f"club-roster-near-duplicate-{locale}")
    with page.expect_navigation():
        page.click("[data-testid=create]")  # not ticked: refused, nothing made
    assert "/new/" in page.url
    assert page.locator("[data-error=players]").is_visible()
    assert set(people(app)) == {"Cýril", "Eva"}
    assert page.inner_text("[data-testid=seat-match-0]") == says_near
    page.check("[data-testid=new-person-0]")
    with page.expect_navigation():
        page.click("[data-testid=create]")
    assert "/new/" not in page.url
    assert set(people(app)) == {"Cýril", "Cyril", "Eva", "Jan"}
    assert people(app)["Cýril"].tables == 1


@pytest.mark.browser
def test_a_look_alike_spelling_keeps_the_matched_chip_in_view(live_server, browser, ranked):
    base, app = live_server
    Club(app).play(["Cýril", "Eva"], [1, 2])
    page = browser.new_page(viewport=LANDSCAPE, locale="en-GB")
    page.goto(base + "/tables/new/razzia")
    page.click("[data-testid=player-0]")
    page.keyboard.type("\u0421yril")  # a Cyrillic С: no letters in common with the chip's
    page.locator("[data-testid=seat-match-0]").filter(has_text="matches: Cýril").wait_for()
    page.locator(".roster-chip[data-name='Cýril']").wait_for(state="visible")
    assert page.locator(".roster-chip[data-name='Eva']").is_hidden()  # the letters filter


@pytest.mark.browser
@pytest.mark.parametrize("locale", ["en-GB", "cs-CZ"])
@pytest.mark.parametrize("width", [1024, 800])
def test_the_header_with_players_stays_one_line(live_server, browser, locale, width):
    base, _app = live_server
    page = browser.new_page(viewport={"width": width, "height": 700}, locale=locale)
    page.goto(base + "/people")
    screenshot(page, f"club-roster-header-{locale}-{width}")
    middles = page.evaluate(
        "Array.from(document.querySelectorAll('.topbar .brand, .mainnav a, .topbar .langswitch'))"
        ".map(el => { const box = el.getBoundingClientRect(); return box.top + box.height / 2; })"
    )
    assert len(middles) >= 7  # the brand and six menu links, Players among them
    spread = max(middles) - min(middles)
    assert spread < 8, f"{locale} at {width}px: the header wraps: {middles}"
    check_tablet_fit(page, "header", width)
