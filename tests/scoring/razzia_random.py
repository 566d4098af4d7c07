"""A random but legal Razzia! player, for property tests and benchmarks."""

import random

from scoring import razzia
from scoring.razzia import cards

#: Chances of the turn actions when more than drawing is possible.
THIEF_CHANCE = 0.15
FORCED_AUCTION_CHANCE = 0.1
BID_CHANCE = 0.4


def random_move(state: dict, rng: random.Random) -> dict:
    """A legal move chosen the way a table might: draws follow the deck's make-up."""
    options = razzia.actions(state)
    phase, seat = options["phase"], options["actor"]
    if phase == "deal":
        return {"type": "deal", "sets": rng.sample(options["sets"], len(options["sets"]))}
    if phase == "round_end":
        return {"type": "next_round"}
    if phase == "auction":
        if options["bids"] and (not options["can_pass"] or rng.random() < BID_CHANCE):
            return {"type": "bid", "seat": seat, "check": rng.choice(options["bids"])}
        return {"type": "pass", "seat": seat}
    roll = rng.random()
    if options["thieves"] and roll < THIEF_CHANCE:
        take = rng.sample(options["row"], rng.randint(1, options["thieves"]))
        return {"type": "thief", "seat": seat, "take": take}
    if roll > 1 - FORCED_AUCTION_CHANCE:
        return {"type": "forced_auction", "seat": seat}
    deck = state["deck"]
    card = rng.choices(options["draw"], weights=[deck[kind] for kind in options["draw"]])[0]
    return {"type": "draw", "seat": seat, "card": card}


def random_junk_move(state: dict, rng: random.Random) -> dict:
    """A move built from random parts: usually illegal, sometimes not."""
    kinds = ["deal", "draw", "thief", "forced_auction", "bid", "pass", "next_round", "nap"]
    return {
        "type": rng.choice(kinds),
        "seat": rng.choice([-1, 0, 1, 2, 3, 4, 5, True, "0", None]),
        "card": rng.choice([*cards.CARD_COUNTS, "unicorn", 7]),
        "check": rng.choice([0, 1000, 2000, 9000, 13000, 16000, 17000, -3000, "9000", 2.5]),
        "take": rng.choice([[], ["ring"], ["car", "car"], "ring", [None]]),
        "sets": rng.choice([["A", "B"], list("ABCDE"), None]),
    }


def play_random_game(names: list[str], rng: random.Random, max_moves: int = 5000) -> list[dict]:
    """The moves of one complete random game."""
    state = razzia.new_table({"players": names})
    moves = []
    while state["phase"] != "game_over" and len(moves) < max_moves:
        move = random_move(state, rng)
        state = razzia.apply(state, move)
        moves.append(move)
    return moves
