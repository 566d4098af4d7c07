"""A whole 7-player Cech zlodějů game by tapping in headless Chromium, to the results page."""

import pytest

from scoring import thieves_guild
from tests.live import check_tablet_fit, final_rows, ranked_rows, screenshot
from tests.scoring.thieves_guild_random import names

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 800, "height": 1280}
PLAYERS = names(7)
COSTS = ["1", "2", "4"]
#: Everything a finger taps on the table page.
TARGETS = "main button, main .chip span, main a.button"


class Tablet:
    """The tablet on the table, plus the rules following along to check what it shows."""

    def __init__(self, page) -> None:
        self.page = page
        self.state = thieves_guild.new_table({"players": PLAYERS, "card_costs": [1, 2, 4]})
        self.taps = 0

    def follow(self, move: dict) -> None:
        """Apply the move the page just made to the local copy of the rules."""
        self.state = thieves_guild.apply(self.state, move)

    def tap(self, selector: str) -> None:
        """Tap a control that does not post (a chip, a summary)."""
        self.taps += 1
        self.page.click(selector)

    def submit(self, selector: str, move: dict | None = None) -> None:
        """Tap a button that posts a move; the page must show no refusal after it."""
        self.taps += 1
        with self.page.expect_navigation():
            self.page.click(selector)
        assert not self.page.query_selector(".error"), self.page.inner_text(".error")
        if move is not None:
            self.follow(move)
        self.check_gold()

    def check_gold(self) -> None:
        """The big numbers show the rules' gold of every player."""
        if self.state["phase"] == "game_over":
            return
        shown = [
            int(self.page.get_attribute(f"[data-testid=gold-{seat}]", "data-gold"))
            for seat in range(len(self.state["players"]))
        ]
        assert shown == [player["gold"] for player in self.state["players"]]

    def visible(self, selector: str) -> None:
        """The next decision is on screen without scrolling."""
        box = self.page.locator(selector).first.bounding_box()
        height = self.page.viewport_size["height"]
        assert box is not None and box["y"] + box["height"] <= height, (selector, box, height)

    def shot(self, name: str, first_control: str | None = None) -> None:
        """Screenshots at 1024x768 and 800x1280; nothing scrolls sideways, targets are big."""
        for label, size in (("landscape", LANDSCAPE), ("portrait", PORTRAIT)):
            self.page.set_viewport_size(size)
            screenshot(self.page, f"thieves-guild-{name}-{label}")
            check_tablet_fit(self.page, name, size["width"], TARGETS)
            if first_control:
                self.visible(first_control)
        self.page.set_viewport_size(LANDSCAPE)


def seat_players(tablet: Tablet, base: str) -> None:
    """Home -> new table -> Cech zlodějů -> seven names and the card prices -> Eva starts."""
    page = tablet.page
    page.goto(base + "/")
    page.click("[data-testid=lang-en]")
    page.click("[data-testid=new-table]")
    page.click("[data-game=thieves_guild]")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"[data-testid=player-{seat}]", name)
    for index, cost in enumerate(COSTS[1:], start=1):
        page.fill(f"[data-testid=cost{index}]", cost)
    tablet.shot("setup")
    tablet.submit("[data-testid=create]")
    tablet.shot("start", "[data-testid=start-6]")
    tablet.submit("[data-testid=start-0]", {"type": "start", "seat": 0})


def robbery_turn(tablet: Tablet, loot: int, target: int, side: str, shots: bool = False) -> None:
    """Loot roll, target roll, the side, then the robbery the page named."""
    tablet.submit(f"[data-testid=loot-{loot}]", {"type": "loot", "roll": loot})
    if shots:
        tablet.shot("reaction", "[data-testid=target-6]")
    tablet.submit(f"[data-testid=target-{target}]", {"type": "target", "roll": target})
    if shots:
        tablet.shot("aim", "[data-testid=aim-right]")
    tablet.submit(f"[data-testid=aim-{side}]", {"type": "aim", "direction": side})
    victim = thieves_guild.actions(tablet.state)["victim"]
    assert PLAYERS[victim] in tablet.page.inner_text("[data-testid=robbery]")
    if shots:
        tablet.shot("robbery", "[data-testid=rob]")
    tablet.submit("[data-testid=rob]", {"type": "rob"})


def play_card(tablet: Tablet, seat: int, chips: list[str], move: dict) -> None:
    """Open the card form, tap the player and the chips, record the card."""
    tablet.tap("[data-testid=card-panel] > summary")
    tablet.tap(f"label:has([data-testid=seat-{seat}])")
    for chip in chips:
        tablet.tap(f"label:has([data-testid={chip}])")
    tablet.submit("[data-testid=card-submit]", move)


@pytest.mark.browser
def test_a_whole_seven_player_game_by_tapping_to_the_results_page(live_server, browser):
    """Six turns with a card bought, Špatná informace, Černý Petr and a pauper robbed."""
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    tablet = Tablet(page)
    seat_players(tablet, base)

    # Eva: a typical turn (buy a card, loot 6, target 1 to the right: Věra), taps counted.
    tablet.shot("buy", "[data-testid=loot-6]")
    tablet.taps = 0
    tablet.submit("[data-testid=buy]", {"type": "buy"})
    robbery_turn(tablet, 6, 1, "right", shots=True)
    typical_turn_taps = tablet.taps
    assert typical_turn_taps == 5

    # Petr rolls 3; Jana's Špatná informace makes it 6; five to the left is Věra again.
    tablet.submit("[data-testid=loot-3]", {"type": "loot", "roll": 3})
    play_card(
        tablet,
        2,
        ["card-0", "new-roll-6"],
        {"type": "card", "seat": 2, "card": "Špatná informace", "roll": 6},
    )
    assert "Loot: 6 gold" in page.inner_text("[data-testid=loot]")
    tablet.submit("[data-testid=target-5]", {"type": "target", "roll": 5})
    tablet.submit("[data-testid=aim-left]", {"type": "aim", "direction": "left"})
    tablet.submit("[data-testid=rob]", {"type": "rob"})

    # Jana robs Eva; before the robbery Karel hands Černý Petr to Olga.
    tablet.submit("[data-testid=loot-2]", {"type": "loot", "roll": 2})
    tablet.submit("[data-testid=target-2]", {"type": "target", "roll": 2})
    tablet.submit("[data-testid=aim-right]", {"type": "aim", "direction": "right"})
    tablet.tap("[data-testid=card-panel] > summary")
    tablet.shot("card-form")
    tablet.tap("label:has([data-testid=seat-3])")
    tablet.tap("label:has([data-testid=card-1])")
    tablet.tap("label:has([data-testid=black_peter-4])")
    tablet.submit(
        "[data-testid=card-submit]",
        {"type": "card", "seat": 3, "card": "Černý Petr", "black_peter": 4},
    )
    assert page.query_selector("[data-testid=black-peter-4]")
    tablet.submit("[data-testid=rob]", {"type": "rob"})

    # Karel robs Jana of 1; Olga pays 2 for Černý Petr as her turn starts, then robs Tomáš.
    robbery_turn(tablet, 1, 6, "left")
    assert tablet.state["players"][4]["gold"] == 11
    robbery_turn(tablet, 4, 1, "left")

    # Tomáš robs Věra of 5, but she has 1: she gives it, he pays the fine, the game ends.
    tablet.submit("[data-testid=loot-5]", {"type": "loot", "roll": 5})
    tablet.submit("[data-testid=target-1]", {"type": "target", "roll": 1})
    tablet.submit("[data-testid=aim-left]", {"type": "aim", "direction": "left"})
    assert "Věra has only 1 gold" in page.inner_text("[data-testid=pauper]")
    tablet.submit("[data-testid=rob]", {"type": "rob"})
    assert "Věra loses their last gold to the robbery" in page.inner_text("[data-testid=last-gold]")
    tablet.shot("ending", "[data-testid=settle]")
    tablet.submit("[data-testid=settle]", {"type": "settle"})

    assert tablet.state["phase"] == "game_over"
    assert [p["gold"] for p in tablet.state["players"]] == [16, 19, 14, 14, 15, 9, 0]
    assert tablet.state["bank"] == 4
    tablet.shot("final")
    final = thieves_guild.results(tablet.state)
    assert final_rows(page, "data-gold") == ranked_rows(final)
    assert "Petr" in page.inner_text("[data-testid=winners]")
    with page.expect_navigation():
        page.click("[data-testid=results-link]")
    assert "Petr" in page.inner_text("main")
    tablet.shot("results")
    history = page.goto(page.url.replace("/results", "/history"))
    assert history.ok and "Tomáš robs Věra of 5: Věra had 1" in page.inner_text("main")
    assert not errors, errors
    page.close()


@pytest.mark.browser
def test_nine_players_gold_fits_both_tablets(live_server, browser):
    """Nine players' gold in big numbers, the loot row on screen, at 1024x768 and 800x1280."""
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    page.goto(base + "/")
    page.click("[data-testid=lang-cs]")
    page.goto(base + "/tables/new/thieves_guild")
    for seat, name in enumerate(names(9)):
        page.fill(f"[data-testid=player-{seat}]", name)
    tablet = Tablet(page)
    tablet.state = thieves_guild.new_table({"players": names(9), "card_costs": [1]})
    tablet.submit("[data-testid=create]")
    tablet.submit("[data-testid=start-lot]")
    tablet.shot("nine-cs", "[data-testid=loot-6]")
    for seat in range(9):
        size = page.locator(f"[data-testid=gold-{seat}]").evaluate(
            "el => parseFloat(getComputedStyle(el).fontSize)"
        )
        assert size >= 48, size
    page.goto(base + "/score/thieves_guild")
    for column, name in enumerate(names(5)):
        page.fill(f"[data-testid='p{column}.name']", name)
        page.fill(f"[data-testid='p{column}.gold']", "13")
    for chip in ("robber-0", "loot_roll-5", "target_roll-6", "direction-left"):
        page.click(f"label:has([data-testid={chip}])")
    with page.expect_navigation():
        page.click("[data-testid=score-submit]")
    assert "se při šestce hází znovu" in page.inner_text("[data-error=target_roll]")
    page.click("label:has([data-testid=target_roll-4])")
    with page.expect_navigation():
        page.click("[data-testid=score-submit]")
    assert "Olga dává 5 zlatých" in page.inner_text("[data-testid=sheet-victim]")
    tablet.shot("score-cs")
    page.close()
