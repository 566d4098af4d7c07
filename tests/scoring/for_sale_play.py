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
