"""Helpers that drive a For Sale table through its moves, for the worked-example tests."""

from scoring import for_sale

FILIP, VALERIE, JIRI = 0, 1, 2
NAMES = ["Filip", "Valerie", "Jiří"]


def play(state: dict, *moves: dict) -> dict:
    """The state after applying `moves` in order."""
    for move in moves:
        state = for_sale.apply(state, move)
    return state


def started(names: list[str] = NAMES, start: int = 0, **setup: object) -> dict:
    """A fresh table whose start player (by lot) is `start`."""
    state = for_sale.new_table({"players": names, **setup})
    return play(state, {"type": "start", "seat": start})


def everyone_passes(state: dict, houses: list[int]) -> dict:
    """A buying round where the houses are turned over and everyone passes in turn."""
    state = play(state, {"type": "houses", "houses": houses})
    while state["phase"] == "auction":
        state = play(state, {"type": "pass", "seat": state["auction"]["turn"]})
    return state


def buy_all(state: dict, rounds: list[list[int]]) -> dict:
    """The whole buying phase with everyone passing, one list of houses per round."""
    for houses in rounds:
        state = everyone_passes(state, houses)
    return state


def lowest_each(state: dict) -> list[int | None]:
    """A sale where every player holding houses reveals their lowest."""
    return [p["houses"][0] if p["houses"] else None for p in state["players"]]


def buying_moves(names: list[str], start: int, rounds: list[list[int]]) -> list[dict]:
    """The moves of a whole buying phase where everyone passes (for driving the app)."""
    state = for_sale.new_table({"players": names})
    moves = [{"type": "start", "seat": start}]
    state = play(state, moves[0])
    for houses in rounds:
        moves.append({"type": "houses", "houses": houses})
        state = play(state, moves[-1])
        while state["phase"] == "auction":
            moves.append({"type": "pass", "seat": state["auction"]["turn"]})
            state = play(state, moves[-1])
    return moves


#: Ten rounds of three houses, 1-30 in order: with start seat 0 everyone passing gives
#: seat 0 the lowest house of round 1.
IN_ORDER = [[3 * r + 1, 3 * r + 2, 3 * r + 3] for r in range(10)]
