"""Helpers that set up Razzia! tables and play scripted moves in rule tests."""

from scoring import razzia


def dealt_table(names: list[str], sets: str) -> dict:
    """A table whose seats drew the check sets named by the letters of `sets`."""
    state = razzia.new_table({"players": names})
    return razzia.apply(state, {"type": "deal", "sets": list(sets)})


def seat(state: dict, name: str) -> int:
    """The seat of the player called `name`."""
    return [player["name"] for player in state["players"]].index(name)


def play(state: dict, *steps: tuple) -> dict:
    """Apply moves written as (name, type, argument) tuples, e.g. ("Ann", "draw", "ring")."""
    for step in steps:
        name, kind, *argument = step
        move: dict = {"type": kind, "seat": seat(state, name)}
        if kind == "draw":
            move["card"] = argument[0]
        elif kind == "bid":
            move["check"] = argument[0]
        elif kind == "thief":
            move["take"] = list(argument[0])
        state = razzia.apply(state, move)
    return state


def family(state: dict, name: str) -> dict:
    """The loot a player's family holds."""
    return state["players"][seat(state, name)]["family"]


def player(state: dict, name: str) -> dict:
    """A player's part of the state."""
    return state["players"][seat(state, name)]
