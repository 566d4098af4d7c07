"""A whole 3-player Adel Verpflichtet game by tapping in headless Chromium, reveals on the panel,
with every hand tracked (the setup option that proposes the final exhibition).

The script (unshuffled test deck, banquet at space 5, every fraction 2/1):
turn 1 Ann and Cid exhibit, Bob buys; turn 2 Bob's thief steals from Ann and Cid's detective
catches it; turn 3 everyone exhibits and Cid and Ann reach the banquet; final exhibition.
"""

import pytest

from scoring import adel_verpflichtet as adel
from scoring.adel_verpflichtet import cards
from tests.live import WAIT_MS, check_tablet_fit, screenshot
from tests.scoring.adel_play import deck, split

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 800, "height": 1280}
NAMES = ["Ann", "Bob", "Cid"]
BANQUET = 5
#: What the scorer taps on the table's panels: each at least a finger wide and high.
TARGETS = "#controls .chip span, #controls input[type=text], #controls button"


class Tablet:
    """The tablet at the table, counting the taps the table makes."""

    def __init__(self, page) -> None:
        self.page = page
        self.taps = 0

    def tap(self, selector: str) -> None:
        """One tap on the screen."""
        self.page.click(selector)
        self.taps += 1

    def chip(self, testid: str) -> None:
        """Tap the chip whose input has this test id."""
        self.tap(f".chip:has([data-testid='{testid}'])")

    def submit(self, selector: str) -> None:
        """Tap a button that posts a form; the page must show no refusal after it."""
        with self.page.expect_navigation():
            self.tap(selector)
        assert not self.page.query_selector(".error"), self.page.inner_text(".error")

    def lock_everyone(self) -> None:
        """Every seat presses its button on the on-screen box panel."""
        for seat in range(len(NAMES)):
            button = f"[data-testid=seat-{seat}]"
            self.page.wait_for_selector(
                f"{button}[data-state=armed]:not([disabled])", timeout=WAIT_MS
            )
            self.tap(button)
            self.page.wait_for_selector(
                f"{button}[data-state=locked], {button}[data-state=revealed]", timeout=WAIT_MS
            )

    def shot(self, name: str) -> None:
        """Save the page at both tablet sizes and check neither scrolls sideways."""
        for viewport, label in ((PORTRAIT, "portrait"), (LANDSCAPE, "landscape")):
            self.page.set_viewport_size(viewport)
            screenshot(self.page, f"adel-{label}-{name}")
            check_tablet_fit(self.page, f"{label} {name}", viewport["width"], TARGETS)
            self.decision_visible(f"{label} {name}", viewport["height"])

    def decision_visible(self, name: str, height: int) -> None:
        """The next decision (the panel's submit button) lies inside the first screen."""
        button = self.page.query_selector("#controls button[type=submit]")
        if button:
            box = button.bounding_box()
            assert box["y"] + box["height"] <= height, f"{name}: the decision needs scrolling"

    def state(self, base: str) -> dict:
        """The table's state through the API (the page's URL names the table)."""
        response = self.page.request.get(base + "/api" + self.page.url.split(base, 1)[1])
        return response.json()["state"]


def fill_setup(tablet: Tablet, base: str) -> None:
    """Home -> new table -> Adel Verpflichtet -> names, board values, hands and pile tops."""
    page = tablet.page
    page.goto(base + "/")
    page.click("[data-testid=lang-en]")
    page.goto(base + "/tables/new/adel_verpflichtet")
    dealt = deck()
    piles = split(dealt, len(NAMES))
    for seat, name in enumerate(NAMES):
        page.fill(f"[data-testid=player-{seat}]", name)
    page.fill("[data-testid=profile]", "Our board")
    page.fill("[data-testid=banquet]", str(BANQUET))
    for space in range(BANQUET):
        page.fill(f"[data-testid=top{space}]", "2")
        page.fill(f"[data-testid=bottom{space}]", "1")
    page.click(".chip:has([data-testid=track-hands])")
    for seat in range(len(NAMES)):
        for index in range(4):
            page.fill(f"[data-testid=p{seat}-check{index}]", str(10 * (seat + 1) + index + 1))
            enter_card(page, f"p{seat}.card{index}", dealt[4 * seat + index])
        for index in range(2):
            page.fill(f"[data-testid=p{seat}-thief{index}]", str(2 * seat + index + 1))
    for pile in range(2):
        enter_card(page, f"top{pile}", piles[pile][0])


def enter_card(page, prefix: str, card: dict) -> None:
    """A card by its letter chip and its year (a known year chip if offered, else typed)."""
    page.click(f".chip:has([data-testid='{prefix}-letter-{card['letter']}'])")
    known = page.query_selector(f"[data-testid='{prefix}-year-{card['letter']}{card['year']}']")
    if known and known.is_visible():
        page.click(f".chip:has([data-testid='{prefix}-year-{card['letter']}{card['year']}'])")
    else:
        page.fill(f"[data-testid='{prefix}-new']", str(card["year"]))


def exhibit(tablet: Tablet, base: str) -> None:
    """Each exhibitor's best exhibition as it is turned over: a letter and a year tap per card
    (nothing is pre-ticked at the castle: the shared screen shows no hand), then Enter."""
    state = tablet.state(base)
    for seat in adel.actions(state)["exhibitors"]:
        for card in cards.best_from_hand(state["players"][seat]["hand"]):
            tablet.chip(f"show{seat}-letter-{card['letter']}")
            tablet.chip(f"show{seat}-{card['letter']}{card['year']}")
    tablet.submit("[data-testid=exhibit-submit]")


def turn(tablet: Tablet, places: list[str], actions: list[str], first: bool) -> None:
    """Both secret choices of a turn, each locked in on the panel, then entered by taps."""
    page = tablet.page
    for seat, place in enumerate(places):
        tablet.chip(f"place{seat}-{place}")
    if first:
        with page.expect_navigation():
            page.click("[data-testid=location-submit]")
        assert "waiting for Ann, Bob, Cid" in page.inner_text("[data-error=location]")
        for seat, place in enumerate(places):  # the refused entry is kept as tapped
            assert page.is_checked(f"[data-testid=place{seat}-{place}]")
    tablet.lock_everyone()
    if first:
        tablet.shot("location")
    tablet.submit("[data-testid=location-submit]")
    for seat, action in enumerate(actions):
        tablet.chip(f"act{seat}-{action}")
    tablet.lock_everyone()
    if first:
        tablet.shot("action")
    tablet.submit("[data-testid=action-submit]")


def play_game(tablet: Tablet, base: str) -> int:
    """The scripted game; returns the taps of turn 1 (a typical turn)."""
    page = tablet.page
    fill_setup(tablet, base)
    tablet.shot("setup")
    tablet.submit("[data-testid=create]")
    tablet.taps = 0
    # Turn 1: Ann and Cid exhibit, Bob buys the A from pile 1; B 1591 comes up.
    turn(tablet, ["castle", "auction", "castle"], ["exhibit", "check:21", "exhibit"], True)
    tablet.chip("pile-0")
    tablet.chip("next-letter-B")
    page.fill("[data-testid='next-new']", "1591")
    tablet.taps += 1
    tablet.shot("buy")
    tablet.submit("[data-testid=buy-submit]")
    tablet.shot("exhibit")
    exhibit(tablet, base)
    tablet.shot("review")
    assert "is the best" in page.inner_text("[data-testid=steps]")
    tablet.submit("[data-testid=next-submit]")
    typical = tablet.taps
    # Turn 2: Bob's thief 3 steals Ann's D; Cid's detective catches it (rank 2: 2 forward).
    turn(tablet, ["castle"] * 3, ["exhibit", "thief:3", "detective"], False)
    exhibit(tablet, base)
    tablet.chip("steal0-D1521")
    tablet.shot("steal")
    tablet.submit("[data-testid=steal-submit]")
    steps = page.inner_text("[data-testid=steps]")
    assert "is caught: prison cell 1" in steps and "rank 2, 2 spaces forward" in steps
    tablet.submit("[data-testid=next-submit]")
    # Turn 3: everyone exhibits; Cid (C D E F) best +2, Ann (A B C) second +1: both at 5.
    turn(tablet, ["castle"] * 3, ["exhibit"] * 3, False)
    exhibit(tablet, base)
    assert "reached the banquet table" in page.inner_text("[data-testid=steps]")
    tablet.submit("[data-testid=next-submit]")
    tablet.shot("final-entry")
    tablet.submit("[data-testid=final-submit]")
    tablet.shot("ranking")
    return typical


def assert_ranking(page, state: dict) -> None:
    """The final screen shows the rules' positions and ranks."""
    final = adel.results(state)
    rows = page.query_selector_all("[data-testid=final-breakdown] tbody tr")
    shown = [(r.get_attribute("data-seat"), r.get_attribute("data-rank")) for r in rows]
    expected = sorted(((p["seat"], p["rank"]) for p in final["players"]), key=lambda r: r[1])
    assert shown == [(str(seat), str(rank)) for seat, rank in expected]
    assert [p["score"] for p in final["players"]] == [9, 0, 13]
    assert "Cid" in page.inner_text("[data-testid=winners]")


@pytest.mark.browser
def test_a_whole_three_player_game_by_tapping(live_server, browser):
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    tablet = Tablet(page)
    typical = play_game(tablet, base)
    state = tablet.state(base)
    assert state["phase"] == "game_over"
    assert_ranking(page, state)
    # A typical turn: 2 x (3 seat buttons + 3 chips + Enter), the buy (pile, letter, year,
    # Buy), the two exhibitions of 4 cards as turned over (letter and year each, 16) and Enter,
    # and Next turn.
    assert typical == 36
    page.goto(page.url + "/results")
    assert "Cid" in page.inner_text("body")
    tablet.shot("results")
    assert not errors, errors
    page.close()
