"""A complete 3-player For Sale game by clicking in headless Chromium, reveals on the box panel."""

import pytest

from scoring import for_sale
from tests.live import WAIT_MS, check_tablet_fit, final_rows, ranked_rows, screenshot
from tests.scoring.for_sale_play import IN_ORDER, NAMES

LANDSCAPE = {"width": 1280, "height": 800}
#: The checks of each selling round, in the order they are picked on the form.
CHECK_ROUNDS = [
    [15000, 0, 7000],
    [14000, 9000, 2000],
    [13000, 12000, 0],
    [15000, 3000, 4000],
    [5000, 6000, 8000],
    [10000, 11000, 2000],
    [3000, 4000, 5000],
    [6000, 7000, 8000],
    [9000, 10000, 11000],
    [12000, 13000, 14000],
]


class Tablet:
    """The tablet on the table, plus the rules following along to check what it shows."""

    def __init__(self, page) -> None:
        self.page = page
        self.state = for_sale.new_table({"players": NAMES})

    def follow(self, move: dict) -> None:
        """Apply the move the page just made to the local copy of the rules."""
        self.state = for_sale.apply(self.state, move)

    def submit(self, selector: str) -> None:
        """Click a button that posts a form; the page must show no refusal after it."""
        with self.page.expect_navigation():
            self.page.click(selector)
        refused = ".error[role=alert]"  # a refusal (a warning such as local-only is a status)
        assert not self.page.query_selector(refused), self.page.inner_text(refused)

    def actor(self) -> int:
        """The seat the turn banner names."""
        return int(self.page.get_attribute("[data-testid=turn]", "data-seat"))

    def shot(self, name: str) -> None:
        """Save the page at tablet size."""
        screenshot(self.page, f"for-sale-{name}")
        check_tablet_fit(self.page, name, LANDSCAPE["width"])


def seat_and_start(tablet: Tablet, base: str) -> None:
    """Home -> new table -> For Sale -> three names -> start player by lot."""
    page = tablet.page
    page.goto(base + "/")
    page.click("[data-testid=lang-en]")
    page.click("[data-testid=new-table]")
    page.click("[data-game=for_sale]")
    for seat, name in enumerate(NAMES):
        page.fill(f"[data-testid=player-{seat}]", name)
    tablet.submit("[data-testid=create]")
    tablet.submit("[data-testid=start-lot]")
    start = int(page.get_attribute(".start-badge >> xpath=ancestor::article", "data-seat"))
    tablet.follow({"type": "start", "seat": start})


def buying_round(tablet: Tablet, houses: list[int], number: int) -> None:
    """Tick the houses; the leader bids 1 (2 in even rounds), then everyone else passes."""
    page = tablet.page
    for house in houses[:-1]:
        page.click(f".house-pick:has(input[data-house='{house}'])")
    # The last house due sends the form (static/app.js): one tap per house, no Enter.
    tablet.submit(f".house-pick:has(input[data-house='{houses[-1]}'])")
    tablet.follow({"type": "houses", "houses": sorted(houses)})
    leader = tablet.actor()
    bid = 1 + number % 2
    page.fill("[data-testid=bid-coins]", str(bid))
    if number == 0:
        tablet.shot("auction")
    tablet.submit("[data-testid=bid]")
    tablet.follow({"type": "bid", "seat": leader, "coins": bid})
    while page.query_selector("[data-testid=auction]"):
        seat = tablet.actor()
        tablet.submit("[data-testid=pass]")
        tablet.follow({"type": "pass", "seat": seat})


def selling_round(tablet: Tablet, checks: list[int], number: int) -> None:
    """Pick the checks, lock every seat on the box panel, then enter everyone's lowest house."""
    page = tablet.page
    for value in checks[:-1]:
        page.click(f".check-pick:has(input[data-check='{value}']:not(:checked))")
    # The last check tapped sends the form (static/app.js): no Enter tap.
    tablet.submit(f".check-pick:has(input[data-check='{checks[-1]}']:not(:checked))")
    tablet.follow({"type": "checks", "checks": checks})
    sale = [player["houses"][0] for player in tablet.state["players"]]
    for seat, house in enumerate(sale):
        page.click(f"[data-testid=sell-{seat}] .chip:has(input[data-house='{house}'])")
    if number == 0:  # entering before anyone locked in is refused, nothing changes
        with page.expect_navigation():
            page.click("[data-testid=sell-submit]")
        assert "waiting for Filip, Valerie, Jiří" in page.inner_text("[data-error=sell]")
        for seat, house in enumerate(sale):  # the refused entry is kept as tapped
            assert page.is_checked(f"[data-testid=sell-{seat}] input[data-house='{house}']")
    for seat in range(len(NAMES)):
        button = f"[data-testid=seat-{seat}]"
        page.wait_for_selector(f"{button}[data-state=armed]:not([disabled])", timeout=WAIT_MS)
        page.click(button)
        page.wait_for_selector(
            f"{button}[data-state=locked], {button}[data-state=revealed]", timeout=WAIT_MS
        )
    if number == 0:
        tablet.shot("reveal")
    tablet.submit("[data-testid=sell-submit]")
    tablet.follow({"type": "sell", "houses": sale})


@pytest.mark.browser
def test_a_whole_three_player_game_by_clicking(live_server, browser):
    """Ten buying and ten selling rounds; the final screen shows the rules' money and ranks."""
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    tablet = Tablet(page)
    seat_and_start(tablet, base)
    for number, houses in enumerate(IN_ORDER):
        buying_round(tablet, houses, number)
    assert page.query_selector("[data-testid=checks-panel]")
    for number, checks in enumerate(CHECK_ROUNDS):
        selling_round(tablet, checks, number)
    assert tablet.state["phase"] == "game_over"
    tablet.shot("final")
    final = for_sale.results(tablet.state)
    assert final_rows(page, "data-money") == ranked_rows(final)
    winners = [p["name"] for p in final["players"] if p["winner"]]
    assert all(name in page.inner_text("[data-testid=winners]") for name in winners)
    assert not errors, errors
    page.close()


@pytest.mark.browser
def test_setup_and_calculator_in_czech(live_server, browser):
    """The variant and refund options seat a table; the calculator refuses at the field."""
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    tablet = Tablet(page)
    page.goto(base + "/")
    page.click("[data-testid=lang-cs]")
    page.goto(base + "/tables/new/for_sale")
    for seat, name in enumerate(NAMES):
        page.fill(f"[data-testid=player-{seat}]", name)
    page.check("[data-testid=variant]")
    page.click("[data-testid=refund] .chip:has(input[data-refund=down])")
    tablet.shot("setup-cs")
    tablet.submit("[data-testid=create]")
    assert "Vylosovat začínajícího hráče" in page.inner_text("[data-testid=start-panel]")
    tablet.submit("[data-testid=start-lot]")
    assert "Otočte 2 domy" in page.inner_text("[data-testid=houses-panel]")
    page.goto(base + "/score/for_sale")
    page.fill("[data-testid='p0.name']", "Filip")
    page.fill("[data-testid='p0.checks']", "15000 0 7000")
    page.fill("[data-testid='p1.name']", "Valerie")
    page.fill("[data-testid='p1.coins']", "30")
    page.fill("[data-testid='p2.name']", "Jiří")
    with page.expect_navigation():
        page.click("[data-testid=score-submit]")
    assert "dostane každý jen 28 mincí" in page.inner_text("[data-error='p1.coins']")
    tablet.shot("score-cs")
    page.fill("[data-testid='p1.coins']", "3")
    tablet.submit("[data-testid=score-submit]")
    assert "Filip" in page.inner_text("[data-testid=sheet-winners]")
    page.close()
