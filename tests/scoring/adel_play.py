"""Adel Verpflichtet setups and a table that plays moves while it knows the hidden piles."""

import random

from scoring import adel_verpflichtet as adel
from scoring.adel_verpflichtet import cards

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def card(text: str) -> dict:
    """ "B 1720" -> {"letter": "B", "year": 1720}."""
    letter, year = text.split()
    return {"letter": letter, "year": int(year)}


def hand(*texts: str) -> list[dict]:
    """Several cards from their labels."""
    return [card(text) for text in texts]


def deck(rng: random.Random | None = None) -> list[dict]:
    """45 different cards (letters A-F, distinct years), shuffled when `rng` is given."""
    found = [
        {"letter": cards.LETTERS[i % 6], "year": 1500 + 7 * i} for i in range(cards.TOTAL_CARDS)
    ]
    if rng is not None:
        rng.shuffle(found)
    return found


def fractions(banquet: int) -> list[list[int]]:
    """A track whose fractions grow with the space (made up for tests, like a board would be)."""
    return [[2 + space // 5, 1 + space // 8] for space in range(banquet)]


def setup(count: int = 3, variant: str | None = None, banquet: int = 30, **changes) -> dict:
    """A valid setup for `count` players dealt from an unshuffled deck."""
    dealt = deck()
    piles = split(dealt, count)
    values = {
        "players": NAMES[:count],
        "variant": variant,
        "profile": "Test board",
        "banquet": banquet,
        "fractions": fractions(banquet),
        "checks": [[10 * seat + k for k in (1, 2, 3, 4)] for seat in range(1, count + 1)],
        "thieves": [[2 * seat - 1, 2 * seat] for seat in range(1, count + 1)],
        "hands": [dealt[4 * seat : 4 * seat + 4] for seat in range(count)],
        "tops": [piles[0][0], piles[1][0]],
    }
    if variant is None:
        del values["variant"]
    return {**values, **changes}


def split(dealt: list[dict], count: int) -> list[list[dict]]:
    """The undealt cards as the two piles (first half one bigger when odd)."""
    rest = dealt[cards.HAND * count :]
    half = (len(rest) + 1) // 2
    return [rest[:half], rest[half:]]


class Table:
    """A live table: the state, its moves, the cards still hidden in the piles and, when the
    app does not track the hands, the cards each player holds that the app has not seen."""

    def __init__(self, values: dict, piles: list[list[dict]], dealt: list | None = None) -> None:
        self.setup = values
        self.state = adel.new_table(values)
        self.moves: list[dict] = []
        self.hidden = [list(pile[1:]) for pile in piles]
        self.unseen = [list(hand) for hand in dealt] if dealt else [[] for _ in values["players"]]

    def hands(self) -> list[list[dict]]:
        """What each player really holds: the cards the app has seen and the ones it has not."""
        return [
            player["hand"] + unseen
            for player, unseen in zip(self.state["players"], self.unseen, strict=True)
        ]

    def play(self, move: dict) -> dict:
        """Apply `move` (filling in the next top card of a bought pile) and keep it."""
        if move.get("type") == "buy" and "next" not in move:
            pile = self.hidden[move["pile"]]
            move = {**move, "next": pile[0] if pile else None}
        self.state = adel.apply(self.state, move)
        if move["type"] == "buy":
            self.hidden[move["pile"]] = self.hidden[move["pile"]][1:]
        shows = self.state["shows"] or [None] * len(self.unseen)
        for seat, player in enumerate(self.state["players"]):  # shown cards are seen from now on
            seen = player["hand"] + (shows[seat] or [])
            self.unseen[seat] = [card for card in self.unseen[seat] if card not in seen]
            assert len(self.unseen[seat]) == player.get("unseen", 0), "a card count went wrong"
        self.moves.append(move)
        return self.state


def table(count: int = 3, variant: str | None = None, **changes) -> Table:
    """A fresh table from `setup` (the app tracks every hand)."""
    values = setup(count, variant, **changes)
    return Table(values, split(deck(), count))


def untracked(count: int = 3, variant: str | None = None, **changes) -> Table:
    """A fresh table from `setup` whose hands stay with the players (no hands entered)."""
    values = setup(count, variant, **changes)
    dealt = values.pop("hands")
    return Table(values, split(deck(), count), dealt)
