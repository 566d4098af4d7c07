"""A random but legal For Sale table, for property tests and the app's tests."""

import random

from scoring import for_sale
from scoring.for_sale import cards

#: Chance that a player who may bid does so rather than pass.
BID_CHANCE = 0.55


def random_move(state: dict, rng: random.Random) -> dict:
    """A legal move chosen the way a table might play it."""
    options = for_sale.actions(state)
    phase = options["phase"]
    if phase == "start":
        return {"type": "start"}
    if phase == "buying":
        return {"type": "houses", "houses": rng.sample(options["houses"], options["count"])}
    if phase == "auction":
        seat = options["actor"]
        if options["min_bid"] is not None and rng.random() < BID_CHANCE:
            top = min(options["max_bid"], options["min_bid"] + rng.choice([0, 0, 1, 2, 5]))
            return {"type": "bid", "seat": seat, "coins": rng.randint(options["min_bid"], top)}
        return {"type": "pass", "seat": seat}
    if phase == "selling":
        return {"type": "checks", "checks": rng.sample(checks_left(state), options["count"])}
    if phase == "reveal":
        hands = options["hands"]
        return {"type": "sell", "houses": [rng.choice(hand) if hand else None for hand in hands]}
    raise AssertionError(f"no move in phase {phase}")


def checks_left(state: dict) -> list[int]:
    """Every check copy not turned over yet (one entry per card)."""
    seen = state["checks_seen"]
    return [
        value
        for value in cards.CHECK_VALUES
        for _ in range(cards.COPIES_PER_CHECK - seen.count(value))
    ]


def random_junk_move(state: dict, rng: random.Random) -> dict:
    """A move built from random parts: usually illegal, sometimes not."""
    seen = state["houses_seen"]
    return {
        "type": rng.choice(["start", "houses", "bid", "pass", "checks", "sell", "nap", None]),
        "seat": rng.choice([-1, 0, 1, 2, 5, 6, True, "0", None]),
        "coins": rng.choice([-1, 0, 1, 3, 28, 29, 100, "3", 2.5, None]),
        "houses": rng.choice(
            [[], [0], [31], [1, 1, 2], seen[:3], [None] * 6, [5, "7"], "12", [2.5, 3, 4]]
        ),
        "checks": rng.choice([[], [1000], [16000], [0, 0, 0], [15000] * 3, [-2000], None]),
    }


def play(names: list[str], rng: random.Random, **setup: object) -> tuple[dict, list[dict]]:
    """A complete random game: the final state and the completed moves."""
    state = for_sale.new_table({"players": names, **setup})
    moves = []
    while state["phase"] != "game_over":
        move = for_sale.complete_move(state, random_move(state, rng), rng)
        state = for_sale.apply(state, move)
        moves.append(move)
    return state, moves
