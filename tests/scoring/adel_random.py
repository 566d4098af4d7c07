"""Random but legal Adel Verpflichtet tables, for property tests and the app's tests."""

import random

from scoring import adel_verpflichtet as adel
from scoring.adel_verpflichtet import cards, places
from tests.scoring.adel_play import NAMES, Table, deck, split

#: Chance that a track space's fraction is left for the table to enter during play.
BLANK_FRACTION = 0.15


def random_setup(
    count: int, rng: random.Random, variant: str | None = None, tracked: bool = True
) -> tuple[dict, list]:
    """A setup with random board values and a shuffled deal, and the two hidden piles."""
    dealt = deck(rng)
    banquet = rng.randint(8, 30)
    checks = rng.sample(range(1, 80), 4 * count)
    thieves = rng.sample(range(1, 30), 2 * count)
    piles = split(dealt, count)
    values = {
        "players": NAMES[:count],
        "banquet": banquet,
        "fractions": [
            None if rng.random() < BLANK_FRACTION else _fraction(rng) for _ in range(banquet)
        ],
        "checks": [checks[4 * s : 4 * s + 4] for s in range(count)],
        "thieves": [thieves[2 * s : 2 * s + 2] for s in range(count)],
        "hands": [dealt[4 * s : 4 * s + 4] for s in range(count)],
        "tops": [piles[0][0], piles[1][0]],
    }
    if variant is not None:
        values["variant"] = variant
    if not tracked:
        values["dealt"] = values.pop("hands")  # the players' own: not entered (take it out)
    return values, piles


def _fraction(rng: random.Random) -> list[int]:
    """A random [top, bottom] with top >= bottom."""
    bottom = rng.randint(0, 4)
    return [bottom + rng.randint(0, 4), bottom]


def random_exhibition(hand: list[dict], rng: random.Random) -> list[dict]:
    """A valid exhibition from `hand`: the best, or a random smaller one inside it."""
    best = cards.best_from_hand(hand)
    if rng.random() < 0.5:
        return best
    for _ in range(5):
        pick = rng.sample(best, rng.randint(cards.MIN_EXHIBITION, len(best)))
        if cards.is_exhibition(pick):
            return pick
    return best


def random_move(state: dict, rng: random.Random, hands: list | None = None) -> dict:
    """A legal move chosen the way a table might play it; `hands` is what each player really
    holds (default: the tracked hands of the state)."""
    options = adel.actions(state)
    phase = options["phase"]
    count = len(state["players"])
    hands = hands if hands is not None else [player["hand"] for player in state["players"]]
    if phase in ("action", "choose"):
        options["cards"] = _playable(options["cards"], hands)
    if phase == "location":
        return {"type": "locations", "places": [rng.choice(cards.PLACES) for _ in range(count)]}
    if phase == "action":
        return {"type": "actions", "actions": [rng.choice(found) for found in options["cards"]]}
    if phase == "choose":
        places = [rng.choice(cards.PLACES) for _ in range(count)]
        picks = [
            rng.choice(found[place]) for found, place in zip(options["cards"], places, strict=True)
        ]
        return {"type": "choices", "places": places, "actions": picks}
    if phase == "buy":
        return {"type": "buy", "pile": rng.choice(options["piles"])}
    if phase == "exhibit":
        shows = [
            random_exhibition(hands[s], rng) if s in options["exhibitors"] else None
            for s in range(count)
        ]
        move = {"type": "exhibitions", "shows": shows}
        if options["fraction"] is None:
            move["fraction"] = _fraction(rng)
        return move
    if phase == "steal":
        picks = [rng.choice(shown) if shown else None for shown in options["shows"]]
        return {"type": "steal", "thief": options["thief"], "cards": picks}
    if phase == "review":
        return {"type": "next"}
    if phase == "final":
        proposals = [cards.best_from_hand(hand) for hand in hands]
        shows = [shown if rng.random() < 0.9 else [] for shown in proposals]
        return {"type": "final", "shows": shows}
    raise AssertionError(f"no move in phase {phase}")


def _playable(found: list, hands: list) -> list:
    """The action cards each seat may play, less "exhibit" where the real hand holds no valid
    exhibition (the app cannot see it when the hands are the players')."""

    def keep(actions: list, hand: list) -> list:
        if cards.best_from_hand(hand):
            return actions
        return [action for action in actions if action["card"] != cards.EXHIBIT]

    return [
        {place: keep(by_place, hand) for place, by_place in seat.items()}
        if isinstance(seat, dict)
        else keep(seat, hand)
        for seat, hand in zip(found, hands, strict=True)
    ]


def random_junk_move(state: dict, rng: random.Random) -> dict:
    """A move built from random parts: usually illegal, sometimes not."""
    some_card = rng.choice([{"letter": "G", "year": 1}, {"letter": "A", "year": 1500}, "A", None])
    return {
        "type": rng.choice(list(adel.moves.MOVE_FIELDS) + ["nap", None]),
        "places": rng.choice([["castle"] * 5, ["auction", "x"], "castle", None, []]),
        "actions": rng.choice(
            [
                [{"card": "check", "value": 999}] * 5,
                [{"card": "thief", "value": True}] * 3,
                [{"card": "exhibit"}] * len(state["players"]),
                [{"card": "none"}] * len(state["players"]),
                [{"card": "detective", "x": 1}] * len(state["players"]),
                None,
            ]
        ),
        "pile": rng.choice([-1, 0, 1, 2, True, "0", None]),
        "shows": rng.choice([[[some_card] * 3] * len(state["players"]), [], None, [None] * 5]),
        "cards": rng.choice([[some_card] * len(state["players"]), None, [None] * 5]),
        "thief": rng.choice([0, 1, 99, True, None]),
        "fraction": rng.choice([[1, 2], [3, 1], None, "x"]),
        "next": rng.choice([some_card, None]),
    }


def play(
    count: int, rng: random.Random, variant: str | None = None, junk=None, tracked: bool = True
) -> Table:
    """A complete random game (`junk(state)` is called before every move when given)."""
    values, piles = random_setup(count, rng, variant, tracked)
    dealt = values.pop("dealt", None)
    table = Table(values, piles, dealt)
    while table.state["phase"] != "game_over":
        if junk is not None:
            junk(table)
        table.play(random_move(table.state, rng, table.hands()))
    return table


def real_hands(state: dict, dealt: list[list[dict]]) -> list[list[dict]]:
    """What each player holds: the cards the app has seen in the hand and, when the hands are
    the players', the dealt cards it has not seen yet (not in the hand, not on the table)."""
    if state.get("tracked", True):
        return [player["hand"] for player in state["players"]]
    seen = places.seen_places(state)
    return [
        player["hand"] + [card for card in hand if places.key(card) not in seen]
        for hand, player in zip(dealt, state["players"], strict=True)
    ]
