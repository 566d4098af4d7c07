"""A complete 4-player game played only by clicking in headless Chromium, with screenshots.

The same game is Razzia!'s viewport walk (tests/web/walk.py): after every tap the page it led
to, and the same position on a Czech tablet, must keep the next decision in view.
"""

import re
from io import BytesIO

import pytest

from tests.live import check_tablet_fit, screenshot
from tests.web import game_script as g
from tests.web.walk import Walk

#: Touch targets on the pages: buttons, button-like links, inputs, ticked labels.
TARGETS = (
    "button, a.button, select, input[type=text], input[type=number], .mainnav a, "
    "label.chip span, label.take, summary, .table-link"
)
LANDSCAPE = {"width": 1024, "height": 768}
#: A table page's address (a tap's redirect may add ?seat= or #panel).
TABLE_PAGE = re.compile(r"/tables/([^/?#]+)(?:[?#]|$)")
PORTRAIT = {"width": 800, "height": 1280}


class Tablet:
    """The tablet on the table: clicks through the companion like the players would."""

    def __init__(self, page) -> None:
        self.page = page

    def submit(self, selector: str) -> None:
        """Click a button that posts a form and wait for the page it leads to."""
        with self.page.expect_navigation():
            self.page.click(selector)

    def actor(self) -> int:
        """The seat the turn banner names."""
        return int(self.page.get_attribute("[data-testid=turn]", "data-seat"))

    def step(self, step: tuple) -> None:
        """Play one scripted step, checking first that the page names the right player."""
        seat, action, argument = step
        assert self.actor() == seat, (step, self.actor())
        if action == "draw":
            self.submit(f"#draw button[data-card={argument}]")
        elif action == "bid":
            self.submit(f"#auction button[data-check='{argument}']")
        elif action == "pass":
            self.submit("#auction [data-testid=pass]")
        elif action == "forced":
            self.submit("[data-testid=forced-auction]")
        elif action == "thief":
            for kind in argument:
                self.page.check(f"#thief input[value={kind}]:not(:checked) >> nth=0")
            self.submit("[data-testid=thief-take]")
        refused = ".error[role=alert]"  # a refusal (a warning such as local-only is a status)
        assert not self.page.query_selector(refused), self.page.inner_text(refused)

    def shot(self, name: str) -> None:
        """Save the page at both tablet sizes; check it fits and its targets are big enough."""
        for label, size in (("landscape", LANDSCAPE), ("portrait", PORTRAIT)):
            self.page.set_viewport_size(size)
            screenshot(self.page, f"{name}-{label}")
            check_tablet_fit(self.page, f"{name} {label}", size["width"], TARGETS)
        self.page.set_viewport_size(LANDSCAPE)

    def cell(self, seat: int, category: str) -> int:
        """A number of the round-end breakdown table."""
        text = self.page.inner_text(f".round-end td[data-seat='{seat}'][data-cat='{category}']")
        return int(text.replace("\u2212", "-"))


def seat_players(tablet: Tablet, base: str) -> None:
    """Home -> new table -> Razzia! -> four names -> deal the sets A, B, C, D by hand."""
    page = tablet.page
    page.goto(base + "/")
    page.click("[data-testid=lang-en]")
    page.click("[data-testid=new-table]")
    page.click("[data-game=razzia]")
    for seat, name in enumerate(g.PLAYERS):
        page.fill(f"[data-testid=player-{seat}]", name)
    tablet.submit("[data-testid=create]")
    for seat, label in enumerate(g.SETS):
        page.click(f"[data-testid=set-{seat}] .chip:has(input[data-set='{label}'])")
    tablet.submit("[data-testid=deal-hand]")


def check_round_end(tablet: Tablet, scores: list[dict], totals: list[int]) -> None:
    """The round-end breakdown shows the hand-worked scores and cumulative totals."""
    for seat, expected in enumerate(scores):
        shown = {category: tablet.cell(seat, category) for category in expected}
        assert shown == expected, (seat, shown)
        assert tablet.cell(seat, "cumulative") == totals[seat]


def check_qr(page, base: str) -> None:
    """The QR code on the screen, as the browser drew it, decodes to the results page URL."""
    import zxingcpp
    from PIL import Image

    drawn = Image.open(BytesIO(page.locator("[data-testid=qr] svg").screenshot()))
    decoded = zxingcpp.read_barcodes(drawn)
    assert decoded and decoded[0].text.startswith(base + "/tables/")
    assert decoded[0].text.endswith("/results")


class WalkedTablet(Tablet):
    """The clicking tablet, with a walk that checks every position it reaches (and in Czech)."""

    def __init__(self, page, walk: Walk) -> None:
        super().__init__(page)
        self.walk = walk

    def submit(self, selector: str) -> None:
        """Click, wait for the page, then check that position (tests/web/walk.py)."""
        super().submit(selector)
        table = TABLE_PAGE.search(self.page.url)
        if table:
            self.walk.follow(table.group(1))
            # The walk turns this tablet too: its taps alternate landscape and portrait.
            self.walk.look(selector, shown=("en", self.page))


@pytest.mark.browser
def test_a_whole_game_by_clicking(live_server, browser):
    """Three rounds of draws, auctions, a thief and forced auctions; final standings match;
    every decision in view after every tap (RULES.md §1; the walk of tests/web/walk.py)."""
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    walk = Walk(base, browser, "razzia", languages=("cs",))
    tablet = WalkedTablet(page, walk)
    seat_players(tablet, base)
    shots = {(0, 28): "table", (0, 5): "auction"}
    for number, (steps, scores, totals) in enumerate(g.ROUNDS):
        for index, step in enumerate(steps):
            if (number, index) in shots:
                tablet.shot(shots[(number, index)])
            tablet.step(step)
        check_round_end(tablet, scores, totals)
        if number < len(g.ROUNDS) - 1:
            if number == 0:
                tablet.shot("round-end")
            tablet.submit("[data-testid=next-round]")
    walk.close()
    phases = {"deal", "turn", "auction", "round_end", "game_over"}
    assert {(lang, phase) for lang in ("cs", "en") for phase in phases} <= walk.seen
    tablet.shot("final")
    ranking = page.query_selector_all(".final .ranking li")
    shown = [
        (
            int(li.get_attribute("data-seat")),
            int(li.get_attribute("data-total")),
            int(li.get_attribute("data-rank")),
        )
        for li in ranking
    ]
    assert shown == [(seat, g.FINAL_TOTALS[seat], g.FINAL_RANKS[seat]) for seat in range(4)]
    assert "Ann" in page.inner_text("[data-testid=winners]")
    check_qr(page, base)
    page.click("[data-testid=history-link]")
    tablet.shot("history")
    page.close()


@pytest.mark.browser
def test_the_other_pages_fit_tablets_in_czech(live_server, browser):
    """Home, new table and a refused score sheet, in Czech: no sideways scroll, big targets."""
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    tablet = Tablet(page)
    page.goto(base + "/")
    page.click("[data-testid=lang-cs]")
    tablet.shot("home")
    page.goto(base + "/tables/new/razzia")
    page.fill("[data-testid=player-0]", "Maximilián Bartoloměj z Kolovrat")
    tablet.submit("[data-testid=create]")
    assert "Razzii hrají 2 až 5 hráči, ne 1." in page.inner_text("[data-error=players]")
    tablet.shot("new-table")
    page.goto(base + "/score/razzia")
    page.fill("[name='p0.name']", "Felix")
    page.fill("[name='p1.name']", "Elke")
    page.fill("[name='p1.gold']", "4")
    tablet.submit("button.primary")
    assert "zlaté mince" in page.inner_text("[data-error='p1.gold']")
    assert page.input_value("[name='p1.gold']") == "4"
    tablet.shot("score-sheet")
    page.close()
