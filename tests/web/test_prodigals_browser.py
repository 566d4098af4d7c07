"""Klub ztroskotanců played by clicking in headless Chromium: a full 5-round game and an early end.

The numbers are worked by hand from RULES.md §5 (see the comments per round); board values
are test numbers typed into the setup form, as a table would type its own.
"""

import pytest

from tests.live import check_tablet_fit, screenshot

LANDSCAPE = {"width": 1280, "height": 800}
TARGETS = "button, a.button, select, input[type=text], label.chip span, summary"
PLAYERS = ["Ann", "Bob", "Cid"]
ANN, BOB, CID = range(3)
HYDE_PARK = {1: [3, 2, 1], 2: [3, 2, 1], 3: [4, 2, 1], 4: [4, 2, 1], 5: [5, 3, 1]}
BOARD = {"messengers": 4, "money": 10, "districts": 4, "district": 1, "votes": 30}


class Tablet:
    """The scorekeeper's tablet: fills the Klub forms and submits them."""

    def __init__(self, page) -> None:
        self.page = page

    def submit(self, selector: str) -> None:
        """Click a button that posts a form, wait for the next page, and expect no refusal."""
        with self.page.expect_navigation():
            self.page.click(selector)
        refusals = self.page.query_selector_all("p.error[role=alert]")  # not status warnings
        errors = [e for e in refusals if e.inner_text().strip()]
        assert not errors, errors[0].inner_text()

    def entry(self, panel: str, seat: int, fields: dict, button: str) -> None:
        """Tap the player's chip (a tile chip names its owner), fill the fields, submit."""
        tile = fields.pop(f"{panel}-tile", None) or fields.pop(f"{panel}-give", None)
        if tile is None:
            self.page.click(f"[data-testid={panel}-seat] .chip:has(input[data-seat='{seat}'])")
        else:
            owned = f"input[data-tile='{seat}:{tile}']"
            self.page.click(f"#property-{panel} .chip:has({owned})")
        for testid, value in fields.items():
            self.page.fill(f"[data-testid={testid}]", str(value))
        self.submit(f"[data-testid={button}]")

    def hyde_park(self, megaphones: list[int], column: list[int]) -> None:
        """Check the round's column against the board, enter the megaphones, apply."""
        self.submit("[data-testid=end-actions]")
        shown = [self.page.inner_text(f"[data-testid=loss-{place}]") for place in (1, 2, 3)]
        assert shown == [f"\u2212{loss}" for loss in column]
        for seat, count in enumerate(megaphones):
            self.page.fill(f"[data-testid=megaphones-{seat}]", str(count))
        self.submit("[data-testid=hyde-park-apply]")

    def old_lady(self, exempt=(), society=None) -> None:
        """Enter the Old Lady's token pushes, mark the exempt players, finish the round."""
        for seat, total in (society or {}).items():
            self.entry("society", seat, {"society-sum": total}, "society-save")
        for seat in exempt:
            self.page.check(f"[data-testid=exempt-{seat}]")
        self.submit("[data-testid=old-lady-done]")

    def scores(self, seat: int, competitions) -> list[int]:
        """The scoreboard's competition scores of a seat."""
        cells = [
            self.page.inner_text(f"[data-testid=score-{seat}-{name}]") for name in competitions
        ]
        return [int(cell.split()[0]) for cell in cells]

    def box_round(self) -> int:
        """The round the table box shows on its round pixels (the panel's device feed)."""
        url = self.page.get_attribute("[data-testid=device-panel]", "data-device-url")
        absolute = self.page.evaluate("url => new URL(url, location.href).href", url)
        display = self.page.request.get(absolute).json()["display"]
        assert display["police"] < display["limit"], "the raid animation must never play"
        return display["round"]

    def shot(self, name: str) -> None:
        """A tablet-size screenshot; the page must not scroll sideways."""
        screenshot(self.page, f"prodigals-{name}")
        check_tablet_fit(self.page, name, LANDSCAPE["width"], TARGETS, skip=".device-panel")


def new_table(tablet: Tablet, base: str, competitions: list[str]) -> None:
    """Home -> new table -> Klub -> names, competitions, board values -> turn order by hand."""
    page = tablet.page
    page.goto(base + "/")
    page.click("[data-testid=lang-en]")
    page.click("[data-testid=new-table]")
    page.click("[data-game=prodigals_club]")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"[data-testid=player-{seat}]", name)
    for name in ("property", "legacy", "election", "society"):
        page.set_checked(f"[data-testid=competition-{name}]", name in competitions)
    for field, value in BOARD.items():
        page.fill(f"[data-testid={field}]", str(value))
    for round_no, column in HYDE_PARK.items():
        for place, loss in enumerate(column, start=1):
            page.fill(f"[data-testid=hp{round_no}_{place}]", str(loss))
    for index, value in enumerate([2, 3, 4, 5]):
        page.fill(f"[data-testid=token{index}]", str(value))
    page.fill("[data-testid=society_low]", "-10")
    page.fill("[data-testid=society_high]", "40")
    tablet.shot("setup")
    tablet.submit("[data-testid=create]")
    for place in range(len(PLAYERS)):
        page.click(f"[data-testid=order-{place}] .chip:has(input[data-seat='{place}'])")
    tablet.submit("[data-testid=order-by-hand]")


ALL = ["property", "election", "society"]


@pytest.mark.browser
def test_a_full_five_round_game_with_all_three_competitions(live_server, browser):
    """Handicaps, every kind of entry, reservations, Hyde Park, the Old Lady, the final ranking."""
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    tablet = Tablet(page)
    new_table(tablet, base, ALL)
    # Handicaps (3 players): Ann 2 (+£1, +1 vote), Bob 1 (+£1), Cid none.
    assert "+£1" in page.inner_text("[data-testid=handicap-0]")
    assert tablet.scores(ANN, ALL) == [11, 31, 14] and tablet.scores(CID, ALL) == [10, 30, 14]
    assert tablet.box_round() == 1

    # Round 1 (marker on district 1, column 3/2/1).
    tablet.entry("add", ANN, {"add-tiles": "5/1 4/2"}, "add-save")
    tablet.entry("add", BOB, {"add-tiles": "6/3"}, "add-save")
    tablet.entry("add", CID, {"add-tiles": "3/4"}, "add-save")
    tablet.entry("sell", ANN, {"sell-tile": "5/1"}, "sell-save")  # £5 − £1 marker: cash 15
    tablet.entry("votes", BOB, {"votes-delta": -5}, "votes-save")  # 25
    tablet.entry(
        "society",
        CID,
        {f"society-token-{i}": v for i, v in enumerate([1, 2, 3, 4])},
        "society-save",
    )
    page.click(f"[data-testid=reserve-seat] .chip:has(input[data-seat='{CID}'])")
    page.click("[data-testid=reserve-place] .chip:has(input[data-place='1'])")
    tablet.submit("[data-testid=reserve-save]")
    tablet.shot("round1-actions")
    # Megaphones 2, 1, 3: Bob fewest +1 (26), Cid 1st −3 (27), Ann 2nd −2 (29).
    tablet.hyde_park([2, 1, 3], HYDE_PARK[1])
    tablet.shot("old-lady")
    tablet.old_lady(exempt=[ANN], society={BOB: 15})
    assert "Cid, Ann, Bob" in page.inner_text("[data-testid=round-end] [data-testid=next-order]")
    assert [tablet.scores(seat, ALL) for seat in range(3)] == [
        [19, 29, 14],
        [17, 26, 15],
        [13, 27, 10],
    ]
    tablet.shot("round-end")
    tablet.submit("[data-testid=next-round]")

    # Round 2 (marker on district 2): Ann sells 4/2 for £3 (18), spends 10 (8); Bob exchanges
    # 6 for 1 at limit −3: £2 from the bank (13).
    assert page.inner_text("[data-testid=district]").endswith("2")
    tablet.entry("sell", ANN, {"sell-tile": "4/2"}, "sell-save")
    tablet.entry("spend", ANN, {"spend-amount": 10}, "spend-save")
    tablet.entry(
        "exchange",
        BOB,
        {"exchange-give": "6/3", "exchange-take": "1/2", "exchange-limit": -3},
        "exchange-save",
    )
    assert "£2" in page.inner_text("[data-testid=notice]")
    tablet.entry("votes", ANN, {"votes-delta": -4}, "votes-save")  # 25
    # Megaphones 0, 2, 2: Ann +1 (26), Bob and Cid share 1st: −3 each (23, 24).
    tablet.hyde_park([0, 2, 2], HYDE_PARK[2])
    tablet.old_lady()
    assert [tablet.scores(seat, ALL) for seat in range(3)] == [
        [8, 26, 14],
        [14, 23, 15],
        [13, 24, 10],
    ]
    tablet.submit("[data-testid=next-round]")

    # Round 3: Cid spends 5 (5); Bob +25 votes is capped at 44 with a notice.
    assert tablet.box_round() == 3
    tablet.entry("spend", CID, {"spend-amount": 5}, "spend-save")
    tablet.entry("votes", BOB, {"votes-delta": 25}, "votes-save")
    assert "Votes capped at 44" in page.inner_text("[data-testid=notice]")
    tablet.shot("votes-capped")
    # Megaphones 1, 4, 3 (column 4/2/1): Ann +1 (27), Bob −4 (40), Cid −2 (22).
    tablet.hyde_park([1, 4, 3], HYDE_PARK[3])
    tablet.old_lady(society={ANN: 12})
    tablet.submit("[data-testid=next-round]")

    # Round 4: Bob −30 (10); megaphones 4, 4, 1: Ann and Bob −4 (23, 6), Cid +1 (23).
    tablet.entry("votes", BOB, {"votes-delta": -30}, "votes-save")
    tablet.hyde_park([4, 4, 1], HYDE_PARK[4])
    tablet.old_lady()
    assert [tablet.scores(seat, ALL) for seat in range(3)] == [
        [8, 23, 12],
        [14, 6, 15],
        [8, 23, 10],
    ]
    tablet.submit("[data-testid=next-round]")

    # Round 5 (marker back on district 1): Cid sells 3/4 at face value (8).
    assert page.inner_text("[data-testid=district]").endswith("1")
    tablet.entry("sell", CID, {"sell-tile": "3/4"}, "sell-save")
    # Megaphones 2, 0, 1 (column 5/3/1): Bob +1 (7), Ann −5 (18), Cid −3 (20).
    tablet.hyde_park([2, 0, 1], HYDE_PARK[5])
    tablet.old_lady(exempt=[CID])

    # Final: Ann 8/18/12 → 18; Bob 13 + 1 + £3 penalty = 17 / 7 / 15 → 17; Cid 8/20/10 → 20.
    final = {
        seat: [int(page.inner_text(f"[data-testid=final-{seat}-{name}]")) for name in ALL]
        for seat in range(3)
    }
    assert final == {ANN: [8, 18, 12], BOB: [17, 7, 15], CID: [8, 20, 10]}
    ranks = [page.inner_text(f"[data-testid=final-rank-{seat}]") for seat in range(3)]
    assert ranks == ["2.", "1.", "3."]
    assert "Bob" in page.inner_text("[data-testid=winners]")
    assert "after round 5" in page.inner_text("[data-testid=final]")
    tablet.shot("final")
    page.click("[data-testid=history-link]")
    tablet.shot("history")
    page.close()


@pytest.mark.browser
def test_a_game_that_ends_after_round_two_because_a_score_reached_zero(live_server, browser):
    """Property and election: Cid, owning nothing, spends his last £10 in round 2."""
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    tablet = Tablet(page)
    new_table(tablet, base, ["property", "election"])
    tablet.hyde_park([1, 2, 3], HYDE_PARK[1])
    assert page.get_attribute("[data-testid=phase]", "data-phase") == "round_end"
    tablet.submit("[data-testid=next-round]")
    tablet.entry("spend", CID, {"spend-amount": 10}, "spend-save")
    assert tablet.scores(CID, ["property"]) == [0]
    # Hyde Park (no society: it ends the round) and the end check: Cid's property is 0.
    tablet.hyde_park([2, 2, 2], HYDE_PARK[2])
    assert page.get_attribute("[data-testid=phase]", "data-phase") == "game_over"
    assert "Game over after round 2" in page.inner_text("[data-testid=final]")
    assert tablet.box_round() == 2
    # Ann 11/31+1 → 32, Bob 11/31, Cid 0/31: Cid's highest (31) is the lowest.
    assert page.inner_text("[data-testid=final-rank-2]") == "1."
    tablet.shot("early-end")
    page.click("[data-testid=lang-cs]")
    assert "Konec hry po 2. kole" in page.inner_text("[data-testid=final]")
    tablet.shot("early-end-cs")
    page.close()


@pytest.mark.browser
def test_a_legacy_game_ends_when_a_legacy_score_reaches_zero(live_server, browser):
    """Legacy (Dědictví) + election (RULES.md §5): £70 each, no handicaps, market values."""
    base, _app = live_server
    page = browser.new_page(viewport=LANDSCAPE)
    tablet = Tablet(page)
    new_table(tablet, base, ["legacy", "election"])
    assert "nobody gets a handicap" in page.inner_text("[data-testid=no-handicaps]")
    assert tablet.scores(ANN, ["legacy", "election"]) == [70, 30]
    # Ann buys a £12 farm for £20 (cash 50, score 62); it drops to £5 (55).
    tablet.entry("legacy-spend", ANN, {"legacy-spend-amount": 20}, "legacy-spend-save")
    tablet.entry(
        "legacy-add",
        ANN,
        {"legacy-add-label": "Statek", "legacy-add-value": 12},
        "legacy-add-save",
    )
    assert tablet.scores(ANN, ["legacy"]) == [62]
    page.click("[data-testid=legacy-value-property] .chip:has(input[value='0:1'])")
    page.fill("[data-testid=legacy-value-value]", "5")
    tablet.submit("[data-testid=legacy-value-save]")
    assert tablet.scores(ANN, ["legacy"]) == [55]
    # Bob buys a £9 property and then spends everything: 0 cash + 9.
    tablet.entry("legacy-add", BOB, {"legacy-add-value": 9}, "legacy-add-save")
    tablet.entry("legacy-spend", BOB, {"legacy-spend-amount": 70}, "legacy-spend-save")
    tablet.shot("legacy-actions")
    # Bob discards the property: his Legacy score is 0.
    page.click("[data-testid=legacy-remove-property] .chip:has(input[value='1:1'])")
    tablet.submit("[data-testid=legacy-remove-save]")
    assert tablet.scores(BOB, ["legacy"]) == [0]
    # Megaphones 1, 1, 1: everyone +1 (31); the round ends and Bob's 0 ends the game.
    tablet.hyde_park([1, 1, 1], HYDE_PARK[1])
    assert page.get_attribute("[data-testid=phase]", "data-phase") == "game_over"
    final = [int(page.inner_text(f"[data-testid=final-score-{seat}]")) for seat in range(3)]
    assert final == [55, 31, 70]
    assert page.inner_text("[data-testid=final-rank-1]") == "1."
    tablet.shot("legacy-final")
    page.click("[data-testid=lang-cs]")
    assert "Dědictví" in page.inner_text("[data-testid=final]")
    page.close()
