"""A 5-player Adel Verpflichtet table on the shared tablet in headless Chromium (issue 31).

The table's truth (the hidden piles and the hands the app has not seen) is kept by
tests/scoring/adel_play's `Table`; each move the script chooses is tapped on the page the way a
scorer taps it, and the same move is played on the model, so the page must end where the rules do.
"""

import collections
import random

from scoring.adel_verpflichtet import cards
from tests.live import WAIT_MS, json_request
from tests.scoring.adel_play import untracked
from tests.scoring.adel_random import random_move
from tests.web.test_tap_budget import ADEL_NAMES, IN_VIEW, Api, Taps, adel_catalogue

#: The profile whose earlier tables saw every card (`adel_catalogue`): each card is a chip.
PROFILE = "Club board"

#: What a chip ticked before any tap is, by field: the location as last turn, the castle's card.
PRESET = {"place": "location ticked as last turn", "act": "action card ticked"}


def chip(testid: str) -> str:
    """The chip (its label) whose input has this test id."""
    return f".chip:has([data-testid='{testid}'])"


class AdelTablet:
    """The tablet's page at a 5-player table whose hands stay with the players."""

    def __init__(self, page, base: str, seed: int = 31, banquet: int = 30) -> None:
        self.page, self.base = page, base
        self.api = Api(base)
        adel_catalogue(self.api)
        self.model = untracked(5, profile=PROFILE, banquet=banquet)
        created = self.api.create("adel_verpflichtet", self.model.setup)
        assert created["state"]["players"][0]["name"] == ADEL_NAMES[0]
        self.table_id = created["id"]
        self.rng = random.Random(seed)
        self.taps = Taps(page)
        self.lock_ins = 0
        #: Taps on a submit button that lay outside the screen (the decision needed a scroll).
        self.hidden_decisions: list[str] = []
        #: The scorer's taps by panel (the move's type; lock-ins apart): one entry per move.
        self.by_panel: dict[str, list[int]] = {}
        #: Taps the page's defaults and shortcuts saved, by kind.
        self.saved: collections.Counter = collections.Counter()

    def open(self, lang: str = "en") -> None:
        """The table's page in `lang`."""
        self.page.goto(self.base + "/")
        self.page.click(f"[data-testid=lang-{lang}]")
        self.page.goto(f"{self.base}/tables/{self.table_id}")

    def state(self) -> dict:
        """The table's state through the API."""
        return json_request(self.base, "GET", f"/api/tables/{self.table_id}")[1]["state"]

    def lock_in(self) -> None:
        """Every seat presses its button on the on-screen panel (taps on the tablet)."""
        for seat in range(len(ADEL_NAMES)):
            button = f"[data-testid=seat-{seat}]"
            self.page.wait_for_selector(
                f"{button}[data-state=armed]:not([disabled])", timeout=WAIT_MS
            )
            self.taps.tap(button)
            self.lock_ins += 1
            self.page.wait_for_selector(
                f"{button}[data-state=locked], {button}[data-state=revealed]", timeout=WAIT_MS
            )

    def submit(self, testid: str) -> None:
        """Tap a panel's submit button (noted if it lay below the fold)."""
        button = self.page.locator(f"[data-testid={testid}]")
        if not button.evaluate(IN_VIEW):
            self.hidden_decisions.append(f"turn {self.model.state['turn']}: {testid}")
        self.taps.tap(f"[data-testid={testid}]", navigates=True)

    def card(self, prefix: str, card: dict, year_id: str) -> None:
        """A card by its letter chip (unless that letter is already chosen) and its year chip."""
        letter = self.page.locator(f"[data-testid='{prefix}-letter-{card['letter']}']")
        if not letter.is_checked():
            self.taps.tap(chip(f"{prefix}-letter-{card['letter']}"))
        self.taps.tap(chip(f"{year_id}{card['letter']}{card['year']}"))

    def choose(self, field: str, values: list[str]) -> None:
        """One chip per seat for a revealed choice, unless the page has it ticked already; for
        the locations, "everyone at ..." first when that is fewer taps (a scorer sees it)."""
        ticked = [self._ticked(f"{field}{seat}-{value}") for seat, value in enumerate(values)]
        self.saved[PRESET[field]] += sum(ticked)
        if field == "place":
            plain = ticked.count(False)
            cheapest = max(cards.PLACES, key=values.count)
            shortcut = 1 + len(values) - values.count(cheapest)
            if shortcut < plain:
                self.taps.tap(f"[data-testid=everyone-{cheapest}]")
                self.saved["everyone at one place"] += plain - shortcut
                ticked = [self._ticked(f"{field}{seat}-{v}") for seat, v in enumerate(values)]
        for seat, value in enumerate(values):
            if not ticked[seat]:
                self.taps.tap(chip(f"{field}{seat}-{value}"))

    def _ticked(self, testid: str) -> bool:
        """Whether the chip with this test id is ticked."""
        return self.page.locator(f"[data-testid='{testid}']").is_checked()

    def play(self, move: dict) -> None:
        """Tap `move` on the page, then play it on the model."""
        kind = move["type"]
        taps, lock_ins = self.taps.count, self.lock_ins
        self._tap(move)
        scorer = self.taps.count - taps - (self.lock_ins - lock_ins)
        self.by_panel.setdefault(kind, []).append(scorer)
        self.model.play(move)
        shown, rules = self.state(), self.model.state
        for key in ("turn", "phase", "register", "jail", "piles"):
            assert shown[key] == rules[key], f"{key} differs after {kind}"
        assert [p["position"] for p in shown["players"]] == [
            p["position"] for p in rules["players"]
        ]

    def _tap(self, move: dict) -> None:
        """The taps of `move` on its panel."""
        kind = move["type"]
        if kind == "locations":
            self.lock_in()
            self.choose("place", move["places"])
            self.submit("location-submit")
        elif kind == "actions":
            self.lock_in()
            self.choose("act", [_encode(action) for action in move["actions"]])
            self.submit("action-submit")
        elif kind == "buy":
            self._buy(move)
        elif kind in ("exhibitions", "final"):
            for seat, shown in enumerate(move["shows"]):
                for card in shown or []:
                    self.card(f"show{seat}", card, f"show{seat}-")
            self.submit("exhibit-submit" if kind == "exhibitions" else "final-submit")
        elif kind == "steal":
            for seat, card in enumerate(move["cards"]):
                if card:
                    self.taps.tap(chip(f"steal{seat}-{card['letter']}{card['year']}"))
            self.submit("steal-submit")
        elif kind == "next":
            self.submit("next-submit")

    def _buy(self, move: dict) -> None:
        """The pile taken and the card that comes up on it."""
        if not self.page.locator(f"[data-testid=pile-{move['pile']}]").is_checked():
            self.taps.tap(f"[data-testid=pile-{move['pile']}]")
        coming = self.model.hidden[move["pile"]]
        if coming:
            self.card("next", coming[0], "next-year-")
        self.submit("buy-submit")

    def turn(self) -> int:
        """One whole turn from the locations to Next turn; its taps (lock-ins included)."""
        before, turn = self.taps.count, self.model.state["turn"]
        while self.model.state["turn"] == turn and self.model.state["phase"] != "final":
            hands = self.model.hands()
            move = random_move(self.model.state, self.rng, hands)
            if move["type"] == "exhibitions":  # a table's exhibitors show their best
                move["shows"] = [
                    cards.best_from_hand(hands[seat]) if shown else None
                    for seat, shown in enumerate(move["shows"])
                ]
                move.pop("fraction", None)  # every fraction was entered at setup
            self.play(move)
        return self.taps.count - before


def _encode(action: dict) -> str:
    """An action card as its chip's value: "check:12", "thief:3", "detective"."""
    return f"{action['card']}:{action['value']}" if "value" in action else action["card"]
