"""Klub ztroskotanců table helpers for tests: board values, setups, short scripted games."""

from scoring import prodigals_club as club

ALL = ["property", "election", "society"]
#: Hyde Park losses per round used in tests; round 4 is the seed's (1st −4, 3rd −1).
HYDE_PARK = [[3, 2, 1], [3, 2, 1], [4, 2, 1], [4, 2, 1], [5, 3, 1]]


def board(**changes) -> dict:
    """Board values a table might enter (test numbers, not the real setup table)."""
    values = {
        "messengers": 4,
        "money": 10,
        "districts": 4,
        "district": 1,
        "votes": 30,
        "hyde_park": [list(column) for column in HYDE_PARK],
        "society_tokens": [2, 3, 4, 5],
        "society_range": [-10, 40],
    }
    values.update(changes)
    return values


def setup(players=("Ann", "Bob", "Cid"), competitions=ALL, order=None, **changes) -> dict:
    """A new-table setup; `order` (seats, first player first) skips the draw."""
    result = {
        "players": list(players),
        "competitions": list(competitions),
        "board": board(**changes),
    }
    if order is not None:
        result["order"] = list(order)
    return result


def started(players=("Ann", "Bob", "Cid"), competitions=ALL, **changes) -> dict:
    """A table in round 1's actions, seat order = turn order."""
    return club.new_table(setup(players, competitions, order=range(len(players)), **changes))


def play(state: dict, *moves: dict) -> dict:
    """Apply the moves in order."""
    for move in moves:
        state = club.apply(state, move)
    return state


def finish_round(state: dict, megaphones=None, exempt=()) -> dict:
    """End the actions, then Hyde Park and the Old Lady as far as they are in play."""
    state = club.apply(state, {"type": "end_actions"})
    if state["phase"] == "hyde_park":
        counts = megaphones or [0] * len(state["players"])
        state = club.apply(state, {"type": "hyde_park", "megaphones": list(counts)})
    if state["phase"] == "old_lady":
        state = club.apply(state, {"type": "old_lady", "exempt": list(exempt)})
    return state
