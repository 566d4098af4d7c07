"""Moving a table to another evening in headless Chromium (issue 26 item 5, docs/club.md).

The organiser (this computer) taps "Move to another evening" on the evening's page, then the
evening's chip: one tap moves the table. The chips and the day picker are on screen without
scrolling at 1024x768 and 800x1280, in English and Czech, and nothing a finger presses is
under 48 px ("a card, house or check is one tap on a chip").
"""

from datetime import UTC, datetime

import pytest

from companion_app.store import db
from companion_app.store import league as stored
from companion_app.store import tables as store_tables
from tests.club.conftest import Club
from tests.live import check_tablet_fit, screenshot

SIZES = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 800, "height": 1280}}
EVENINGS = [datetime(2026, 3, day, 19, 0, tzinfo=UTC) for day in (6, 13, 20, 27)]
TARGETS = "button, a.button, input"


def seed(app, monkeypatch) -> dict[str, str]:
    """Four evenings of March with a game each, and a game in play on the first."""
    club, tables = Club(app), {}
    for moment in EVENINGS:
        monkeypatch.setattr(store_tables, "_now", lambda moment=moment: moment.isoformat())
        tables[moment.day] = club.play(["Ann", "Bob", "Čeněk"], [1, 2, 3])
    tables[0] = club.start(["Dana", "Eva"])  # the monkeypatched clock: 27 March
    return tables


def day_of(app, table_id: str) -> str:
    with app.app_context():
        return stored.table_evening(db.get_db(), table_id).day.isoformat()


def in_view(page, selector: str) -> bool:
    """The whole element is inside the window, without scrolling."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0


@pytest.mark.browser
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", ["en", "cs"])
def test_one_tap_on_an_evening_moves_the_table(
    live_server, browser, ranked, monkeypatch, size, language
):
    base, app = live_server
    tables = seed(app, monkeypatch)
    page = browser.new_page(viewport=SIZES[size], locale="cs-CZ" if language == "cs" else "en-GB")
    page.goto(f"{base}/club/evenings/4")  # 27 March: its finished game and the one in play
    with page.expect_navigation():
        page.click(f"[data-testid=move-{tables[0]}]")
    for target in (
        "[data-testid=move-to-3]",
        "[data-testid=move-day]",
        "[data-testid=move-to-day]",
    ):
        assert in_view(page, target), target
    chips = page.locator("[data-testid=evening-chips] button").all_inner_texts()
    assert len(chips) == 3 and ("20" in chips[0])  # the nearest evening first
    check_tablet_fit(page, f"move {size} {language}", SIZES[size]["width"], TARGETS)
    screenshot(page, f"club-move-table-{size}-{language}")
    with page.expect_navigation():
        page.click("[data-testid=move-to-3]")  # the one tap
    assert page.url.endswith("/club/evenings/3")
    assert page.locator("[data-testid=moved]").is_visible()
    assert page.locator(f"[data-table='{tables[0]}']").is_visible()
    assert day_of(app, tables[0]) == "2026-03-20"
    screenshot(page, f"club-moved-table-{size}-{language}")


@pytest.mark.browser
def test_a_day_from_the_picker_moves_a_table_to_a_new_evening(
    live_server, browser, ranked, monkeypatch
):
    base, app = live_server
    tables = seed(app, monkeypatch)
    page = browser.new_page(viewport=SIZES["landscape"], locale="en-GB")
    page.goto(f"{base}/tables/{tables[13]}/results")
    screenshot(page, "club-results-evening")
    with page.expect_navigation():
        page.click("[data-testid=move-evening]")
    page.fill("[data-testid=move-day]", "2026-03-14")
    with page.expect_navigation():
        page.click("[data-testid=move-to-day]")
    assert "Saturday" in page.locator("[data-testid=evening-label]").inner_text()
    assert day_of(app, tables[13]) == "2026-03-14"
    # evening 13 March, now empty, unnamed and in no season, is gone from the club's list
    page.goto(f"{base}/club")
    days = page.locator("[data-testid=evenings] li").all_inner_texts()
    assert len(days) == 4 and not any("13" in day for day in days)
