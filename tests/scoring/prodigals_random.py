"""A random but legal Klub ztroskotanců scorekeeper, for property tests."""

import random

from scoring import prodigals_club as club
from scoring.errors import IllegalMove
from scoring.prodigals_club import chart

#: A society chart some random tables enter (test values; tokens start on 2, 3, 4, 5).
CHART = [[-1, 0, 2, 4, 6], [1, 3, 3, 5], [0, 2, 4, 6, 8, 10], [-2, 3, 5, 7, 9]]
#: Chance that a society entry is one token stepped, when the chart is known.
STEP_CHANCE = 0.6

#: Chance per step that the actions of the round end.
END_ACTIONS_CHANCE = 0.12
MAX_DELTA = 9
MAX_TILE = 8


def random_move(state: dict, rng: random.Random) -> dict:
    """A legal entry for the current step, with random amounts."""
    options = club.actions(state)
    phase, count = state["phase"], len(state["players"])
    seat = rng.randrange(count)
    if phase == "order":
        return {"type": "order"}
    if phase == "hyde_park":
        return {"type": "hyde_park", "megaphones": [rng.randint(0, 6) for _ in range(count)]}
    if phase == "old_lady":
        if rng.random() < 0.5:
            return {"type": "old_lady", "exempt": rng.sample(range(count), rng.randint(0, 1))}
        return _society_move(state, seat, rng, sum_chance=0.5)
    if phase == "round_end":
        return {"type": "end_round"}
    if rng.random() < END_ACTIONS_CHANCE:
        return {"type": "end_actions"}
    kinds = [kind for kind in ("property", "legacy", "votes", "society") if options[kind]]
    if options["places"] and options["reserving"]:
        kinds.append("reserve")
    kind = rng.choice(kinds)
    if kind == "votes":
        return {
            "type": "votes",
            "seat": seat,
            "delta": rng.choice([-1, 1]) * rng.randint(1, MAX_DELTA),
        }
    if kind == "society":
        return _society_move(state, seat, rng, sum_chance=0.1)
    if kind == "reserve":
        return {
            "type": "reserve",
            "seat": rng.choice(options["reserving"]),
            "place": rng.choice(options["places"]),
        }
    if kind == "legacy":
        return _legacy_move(state, seat, rng)
    return _property_move(state, seat, rng)


def _society_move(state: dict, seat: int, rng: random.Random, sum_chance: float) -> dict:
    """A token step (chart known), new token values, or only their sum."""
    board = state["board"].get("society_chart")
    spaces = state["players"][seat].get("spaces")
    if board and spaces and rng.random() < STEP_CHANCE:
        steps = [
            {"type": "token", "seat": seat, "token": index, "direction": direction}
            for index in range(len(spaces))
            for direction in chart.DIRECTIONS
            if _fits(board, spaces, index, direction)
        ]
        if steps:
            return rng.choice(steps)
    if rng.random() < sum_chance:
        return {"type": "society", "seat": seat, "sum": rng.randint(-3, 30)}
    if board:
        # Four different spaces' values: each value has a free space for every token asking it.
        cells = [(column, row) for column, rows in enumerate(board) for row in range(len(rows))]
        picked = rng.sample(cells, len(board))
        return {"type": "society", "seat": seat, "tokens": [board[c][r] for c, r in picked]}
    return {"type": "society", "seat": seat, "tokens": [rng.randint(-2, 8) for _ in range(4)]}


def _fits(board: list, spaces: list, index: int, direction: str) -> bool:
    """Whether the step stays on the chart and lands on a free space."""
    try:
        chart.stepped(board, spaces, index, direction)
    except IllegalMove:
        return False
    return True


def _legacy_move(state: dict, seat: int, rng: random.Random) -> dict:
    """Spend, receive, correct cash; add, revalue or remove a property."""
    owned = state["players"][seat]["legacy"]["properties"]
    base = {"type": "legacy", "seat": seat}
    roll = rng.random()
    if owned and roll < 0.2:
        item = rng.choice(owned)
        return {**base, "action": "value", "property": item["id"], "value": rng.randint(0, 15)}
    if owned and roll < 0.3:
        return {**base, "action": "remove", "property": rng.choice(owned)["id"]}
    if roll < 0.45:
        label = rng.choice(["", "Statek", "Mlýn", "Dům v Chelsea"])
        return {**base, "action": "add", "label": label, "value": rng.randint(0, 15)}
    if roll < 0.85:
        return {**base, "action": "spend", "amount": rng.randint(1, 3 * MAX_DELTA)}
    if roll < 0.95:
        return {**base, "action": "receive", "amount": rng.randint(1, MAX_DELTA)}
    return {**base, "action": "set_cash", "cash": rng.randint(-5, 40)}


def _tile(state: dict, rng: random.Random) -> dict:
    """A random tile of this table's districts."""
    return {
        "value": rng.randint(0, MAX_TILE),
        "district": rng.randint(1, state["board"]["districts"]),
    }


def _property_move(state: dict, seat: int, rng: random.Random) -> dict:
    """Add, sell, exchange, spend or receive."""
    owned = state["players"][seat]["tiles"]
    base = {"type": "property", "seat": seat}
    roll = rng.random()
    if owned and roll < 0.3:
        return {
            **base,
            "action": "sell",
            "tile": dict(rng.choice(owned)),
            "discount": rng.randint(0, 2),
        }
    if owned and roll < 0.45:
        limit = rng.choice([None, -2, -3])
        return {
            **base,
            "action": "exchange",
            "give": dict(rng.choice(owned)),
            "take": _tile(state, rng),
            "limit": limit,
        }
    if roll < 0.6 and state["players"][seat]["cash"] >= 0:
        return {**base, "action": "add", "tiles": [_tile(state, rng)]}
    if roll < 0.9:
        return {**base, "action": "spend", "amount": rng.randint(1, MAX_DELTA)}
    return {**base, "action": "receive", "amount": rng.randint(1, MAX_DELTA)}


def random_junk_move(state: dict, rng: random.Random) -> dict:
    """A move that is always refused: bad numbers, a tile nobody owns, out-of-step entries."""
    count = len(state["players"])
    seat = rng.randrange(count)
    return rng.choice(
        [
            {"type": "votes", "seat": seat, "delta": "ten"},
            {"type": "votes", "seat": count, "delta": 1},
            {
                "type": "property",
                "seat": seat,
                "action": "sell",
                "tile": {"value": 99, "district": 1},
            },
            {"type": "property", "seat": seat, "action": "spend", "amount": -1},
            {"type": "society", "seat": seat, "tokens": [1, 2]},
            {"type": "token", "seat": seat, "token": 4, "direction": "up"},
            {"type": "legacy", "seat": seat, "action": "value", "property": 999, "value": 1},
            {"type": "legacy", "seat": seat, "action": "remove", "property": "first"},
            {"type": "legacy", "seat": seat, "action": "spend", "amount": "ten"},
            {"type": "legacy", "seat": seat, "action": "add", "value": -2},
            {"type": "hyde_park", "megaphones": [1] * (count - 1)},
            {"type": "reserve", "seat": seat, "place": 0},
            {"type": "nonsense"},
        ]
    )
