"""Tap budgets at the table (issue 14 item 2), counted as clicks in headless Chromium.

The tables are brought to the decision through the JSON API (this computer may move any table);
only the decision itself is tapped on the page. Budgets:
- For Sale selling round: at most checks + houses + 1 taps, plus one lock-in per seat;
- Klub ±1 vote: at most 2 taps (here 1: Bob's −1 in his row of steppers);
- Razzia pass: 1 tap, with the Pass button inside the viewport (no scroll).
Before these controls (issue 14): a For Sale selling round took about 22 taps and two scrolls,
a Klub ±1 vote 6-7 taps.
"""

import pytest

from tests.live import check_tablet_fit, json_request, screenshot
from tests.scoring.for_sale_play import IN_ORDER
from tests.web.game_script import ANN, BOB, CID, DEE, SETS, as_form

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 800, "height": 1280}
#: Waiting for the box panel to arm or lock a seat (ms).
WAIT_MS = 8000
#: Whether the element's box lies inside the viewport as the page stands (no scrolling).
IN_VIEW = """el => { const box = el.getBoundingClientRect();
  return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth; }"""
KLUB_BOARD = {
    "messengers": 4,
    "money": 10,
    "districts": 4,
    "district": 1,
    "votes": 30,
    "hyde_park": [[3, 2, 1]] * 5,
    "society_tokens": [2, 3, 4, 5],
    "society_range": [-10, 40],
}


class Taps:
    """Clicks on one page, counted, with the taps whose target lay outside the viewport."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0
        self.scrolls = 0

    def tap(self, selector: str, navigates: bool = False) -> None:
        """One tap; it counts a scroll when the target was not in view before it."""
        target = self.page.locator(selector).first
        target.wait_for(timeout=WAIT_MS)
        if not target.evaluate(IN_VIEW):
            self.scrolls += 1
        self.count += 1
        if navigates:
            with self.page.expect_navigation():
                target.click()
            errors = self.page.query_selector_all("p.error[role=alert]")
            assert not errors, errors[0].inner_text()
        else:
            target.click()


class Api:
    """The JSON API of the live server, as this computer."""

    def __init__(self, base: str) -> None:
        self.base = base

    def create(self, game: str, setup: dict) -> dict:
        """A new table; returns its JSON."""
        status, table = json_request(self.base, "POST", "/api/tables", {"game": game, **setup})
        assert status == 201, table
        return table

    def move(self, table: dict, move: dict) -> dict:
        """One move at the table's version; returns the table after it."""
        body = {"version": table["version"], "move": move}
        status, after = json_request(self.base, "POST", f"/api/tables/{table['id']}/moves", body)
        assert status == 200, (move, after)
        return after


def for_sale_to_selling(api: Api) -> dict:
    """A 3-player For Sale table through its ten buying rounds: everyone passes every auction."""
    table = api.create("for_sale", {"players": ["Filip", "Valerie", "Jiří"]})
    table = api.move(table, {"type": "start", "seat": 0})
    for houses in IN_ORDER:
        table = api.move(table, {"type": "houses", "houses": houses})
        while table["state"]["phase"] == "auction":
            seat = table["state"]["auction"]["turn"]
            table = api.move(table, {"type": "pass", "seat": seat})
    assert table["state"]["phase"] == "selling"
    return table


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_a_for_sale_selling_round_within_checks_houses_one_and_lock_ins(
    live_server, browser, viewport
):
    """RULES.md §2 selling: 3 checks, 3 houses, 1 Enter and 3 lock-ins are the whole round."""
    base, _app = live_server
    table = for_sale_to_selling(Api(base))
    page = browser.new_page(viewport=viewport)
    page.goto(f"{base}/tables/{table['id']}")
    taps = Taps(page)
    checks = [15000, 0, 7000]
    for index, value in enumerate(checks):  # the last check sends the form
        chip = f".check-pick:has(input[data-check='{value}']:not(:checked))"
        taps.tap(chip, navigates=index == len(checks) - 1)
    seats = range(3)
    for seat in seats:
        button = f"[data-testid=seat-{seat}]"
        page.wait_for_selector(f"{button}[data-state=armed]:not([disabled])", timeout=WAIT_MS)
        taps.tap(button)
        page.wait_for_selector(
            f"{button}[data-state=locked], {button}[data-state=revealed]", timeout=WAIT_MS
        )
    houses = [1, 2, 3]  # each seat's lowest house after the passes of IN_ORDER
    for seat, house in zip(seats, houses, strict=True):
        taps.tap(f"[data-testid=sell-{seat}] .chip:has(input[data-house='{house}'])")
    screenshot(page, f"tap-budget-for-sale-{viewport['width']}")
    taps.tap("[data-testid=sell-submit]", navigates=True)
    budget = len(checks) + len(houses) + 1 + len(seats)
    print(f"For Sale selling round {viewport}: {taps.count} taps, {taps.scrolls} scrolls")
    assert taps.count <= budget, f"{taps.count} taps for a selling round (budget {budget})"
    got = page.inner_text("[data-testid=player-2]")
    assert "1 face down" in got and "15,000" not in got, "checks won lie face down (§2)"
    status, after = json_request(base, "GET", f"/api/tables/{table['id']}")
    assert status == 200 and after["state"]["players"][2]["checks"] == [15000], (
        "Jiří's house 3 is the highest and takes the 15,000 check"
    )
    page.close()


@pytest.mark.browser
def test_klub_bob_loses_one_vote_in_one_tap(live_server, browser):
    """RULES.md §5 election: votes move one at a time on the track; −1 is one tap on Bob's row."""
    base, _app = live_server
    api = Api(base)
    table = api.create(
        "prodigals_club",
        {
            "players": ["Ann", "Bob", "Cid"],
            "competitions": ["property", "election"],
            "board": KLUB_BOARD,
        },
    )
    table = api.move(table, {"type": "order", "order": [0, 1, 2]})
    before = table["state"]["players"][1]["votes"]
    page = browser.new_page(viewport=LANDSCAPE)
    page.goto(f"{base}/tables/{table['id']}")
    taps = Taps(page)
    taps.tap("[data-testid=votes-down-1]", navigates=True)
    assert page.inner_text("[data-testid=votes-1]") == str(before - 1)
    taps.tap("[data-testid=cash-up-0]", navigates=True)  # Ann gets £1: one tap too
    screenshot(page, "tap-budget-klub")
    after = json_request(base, "GET", f"/api/tables/{table['id']}")[1]["state"]["players"]
    assert after[1]["votes"] == before - 1
    assert after[0]["cash"] == table["state"]["players"][0]["cash"] + 1
    print(f"Klub ±1 vote: 1 tap; two steppers: {taps.count} taps, {taps.scrolls} scrolls")
    assert taps.count <= 2 * 2
    page.close()


@pytest.mark.browser
def test_klub_a_moved_society_token_is_the_player_and_one_value(live_server, browser):
    """RULES.md §5 society: the score is the 4 chart values under the tokens; tapping Bob fills
    in his values, so a token moved is Bob's chip, its one new value and Save."""
    base, _app = live_server
    api = Api(base)
    setup = {"players": ["Ann", "Bob", "Cid"], "competitions": ["election", "society"]}
    table = api.create("prodigals_club", {**setup, "board": KLUB_BOARD})
    table = api.move(table, {"type": "order", "order": [0, 1, 2]})
    tokens = table["state"]["players"][1]["tokens"]
    page = browser.new_page(viewport=LANDSCAPE)
    page.goto(f"{base}/tables/{table['id']}")
    taps = Taps(page)
    taps.tap("[data-testid=society-seat] .chip:has(input[data-seat='1'])")
    shown = [page.input_value(f"[data-testid=society-token-{index}]") for index in range(4)]
    assert shown == [str(value) for value in tokens]
    page.fill("[data-testid=society-token-3]", str(tokens[3] - 2))
    taps.tap("[data-testid=society-save]", navigates=True)
    after = json_request(base, "GET", f"/api/tables/{table['id']}")[1]["state"]["players"][1]
    assert after["tokens"] == [*tokens[:3], tokens[3] - 2]
    print(f"Klub token moved: {taps.count} taps + one value typed, {taps.scrolls} scrolls")
    assert taps.count == 2
    page.close()


#: A test society chart (not the printed one): 4 columns, bottom space first.
KLUB_CHART = [[0, 2, 4, 6], [1, 3, 5, 7], [2, 4, 6, 8], [3, 5, 7, 9, 11]]
KLUB_PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve"]


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "cs"])
@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_klub_a_society_token_up_or_down_is_one_tap(live_server, browser, viewport, lang):
    """RULES.md §5 society: with the chart (a board value) entered, a token one space up or
    down is one tap on the player's row, and the score follows the chart (budget: ≤ 2 taps)."""
    base, _app = live_server
    api = Api(base)
    setup = {"players": KLUB_PLAYERS, "competitions": ["property", "election", "society"]}
    table = api.create(
        "prodigals_club", {**setup, "board": {**KLUB_BOARD, "society_chart": KLUB_CHART}}
    )
    table = api.move(table, {"type": "order", "order": [0, 1, 2, 3, 4]})
    page = browser.new_page(viewport=viewport, locale="cs-CZ" if lang == "cs" else "en-US")
    page.goto(f"{base}/tables/{table['id']}")
    page.click(f"[data-testid=lang-{lang}]")
    taps = Taps(page)
    taps.tap("[data-testid=token-up-4-2]", navigates=True)
    assert page.inner_text("[data-testid=token-4-2]") == "6"
    assert page.inner_text("[data-testid=society-4]") == "16"
    taps.tap("[data-testid=token-down-4-0]", navigates=True)
    assert page.inner_text("[data-testid=society-4]") == "14"
    name = f"tap-budget-klub-token-{lang}-{viewport['width']}"
    screenshot(page, name)
    check_tablet_fit(page, name, viewport["width"], "[data-testid=steps] button")
    after = json_request(base, "GET", f"/api/tables/{table['id']}")[1]["state"]["players"][4]
    assert after["tokens"] == [0, 3, 6, 5]
    print(
        f"Klub token up/down ({lang}, {viewport['width']}px): {taps.count} taps for two"
        f" moves, {taps.scrolls} scrolls"
    )
    assert taps.count <= 2 * 2 and taps.scrolls == 0
    page.close()


RAZZIA_TO_AUCTION = [(ANN, "draw", "ring"), (BOB, "draw", "car"), (CID, "draw", "police")]


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_a_razzia_pass_is_one_tap_without_scrolling(live_server, browser, viewport):
    """RULES.md §1 auction: Dee may pass; the Pass button is in view after the page loads."""
    base, _app = live_server
    api = Api(base)
    table = api.create("razzia", {"players": ["Ann", "Bob", "Cid", "Dee"]})
    table = api.move(table, {"type": "deal", "sets": SETS})
    for step in RAZZIA_TO_AUCTION:
        table = api.move(table, as_form(step))
    assert table["state"]["phase"] == "auction"
    page = browser.new_page(viewport=viewport)
    page.goto(f"{base}/tables/{table['id']}")
    taps = Taps(page)
    screenshot(page, f"tap-budget-razzia-{viewport['width']}")
    taps.tap("[data-testid=pass]", navigates=True)
    assert taps.count == 1
    assert taps.scrolls == 0, "the Pass button was below the fold"
    state = json_request(base, "GET", f"/api/tables/{table['id']}")[1]["state"]
    assert state["auction"]["bids"][0] == {"seat": DEE, "check": None}
    page.close()
