"""Tonight's ranking in headless Chromium (issue 32 item 1, "Done means").

"A browser test runs an evening without a season and prints its ranking (A4 and 58 mm)." The
evening's games end through the app's store (as the tablets' moves do); the organiser (this
computer) opens the evening from the club page, reads tonight's ranking, picks another points
rule with one chip and a tap, and prints the ranking on A4 and on a 58 mm receipt: both PDFs
list every player in order with their points, and the room display shows the ranking between
games.
"""

import re
from io import BytesIO

import pdfplumber
import pytest

from tests.club.conftest import Club
from tests.live import check_tablet_fit, screenshot

GAMES = [
    (["Ann", "Bob", "Cid", "Dee"], [1, 2, 3, 4]),
    (["Bob", "Ann", "Eve"], [1, 1, 3]),
]
#: Per placing 10, 6, 4, 2, 1 (the default), then per share of players beaten (10).
DEFAULT = [("1.", "Ann", "18"), ("2.", "Bob", "14"), ("3. =", "Cid", "4"), ("3. =", "Eve", "4")]
BEATEN = [("1.", "Ann", "17.5"), ("2.", "Bob", "14.17"), ("3.", "Cid", "3.33")]


def pdf_lines(pdf: bytes) -> list[str]:
    """The text lines of every page of a PDF."""
    with pdfplumber.open(BytesIO(pdf)) as document:
        return [line for page in document.pages for line in (page.extract_text() or "").split("\n")]


def ranked_lines(lines: list[str]) -> list[tuple[str, str, str]]:
    """(place, name, points) of each line that starts with a place."""
    found = []
    for line in lines:
        match = re.match(r"(\d+\.(?: =)?) ([A-Z][a-z]+) ([\d.]+)", line)
        if match:
            found.append(match.groups())
    return found


@pytest.mark.browser
def test_item_1_an_evening_without_a_season_is_ranked_and_printed(live_server, browser, ranked):
    base, app = live_server
    club = Club(app)
    for names, ranks in GAMES:
        club.play(names, ranks)
    page = browser.new_page(viewport={"width": 1024, "height": 768}, locale="en-GB")
    page.goto(f"{base}/club")
    with page.expect_navigation():
        page.click("a[href='/club/evenings/1']")
    assert "counts for no season yet" in page.inner_text("main")
    section = page.locator("[data-testid=evening-standings]")
    rows = section.locator("tbody tr")
    shown = [
        (
            " ".join(row.locator("[data-stat=place]").inner_text().split()),
            row.locator("th").inner_text(),
            row.locator("[data-stat=points]").inner_text(),
        )
        for row in rows.all()
    ]
    assert shown[:4] == DEFAULT
    check_tablet_fit(page, "evening", 1024, "button, a.button, input:not([type=radio]), label.chip")
    screenshot(page, "club-tonights-ranking")

    for paper, expected in (("a4", DEFAULT), ("58mm", DEFAULT)):
        with page.expect_navigation():
            page.click(f"[data-testid=print-{paper}]")
        assert page.locator("[data-testid=printed]").inner_text().startswith("Games counted: 2")
        lines = pdf_lines(page.pdf(prefer_css_page_size=True))
        assert ranked_lines(lines)[:4] == expected, (paper, lines)
        screenshot(page, f"club-tonights-ranking-{paper}")
        page.go_back()

    page.check("[data-testid=rule-beaten]")
    with page.expect_navigation():
        page.click("[data-testid=save-rule]")
    assert page.url.endswith("/club/evenings/1#standings")
    assert page.is_checked("[data-testid=rule-beaten]")
    with page.expect_navigation():
        page.click("[data-testid=print-58mm]")
    assert ranked_lines(pdf_lines(page.pdf(prefer_css_page_size=True)))[:3] == BEATEN

    page.goto(f"{base}/room")  # between games: tonight's ranking under the tiles
    tonight = page.locator("[data-testid=room-tonight]")
    assert tonight.is_visible()
    assert " ".join(tonight.locator("li").first.inner_text().split()) == "1. Ann 17.5"
    screenshot(page, "club-tonights-ranking-room")
