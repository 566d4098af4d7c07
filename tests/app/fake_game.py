"""A tiny game module honouring the game contract, for store tests independent of Razzia.

Players take turns adding 1-3 to a shared total; a "roll" adds a die the store must record.
The game is finished when the total reaches TARGET.
"""

import random
from types import SimpleNamespace

from scoring.errors import IllegalMove, InvalidSetup

TARGET = 20
MAX_STEP = 3
DIE_SIDES = 6


def new_table(setup: object) -> dict:
    """Two or more named players, total 0."""
    players = setup.get("players") if isinstance(setup, dict) else None
    if not isinstance(players, list) or len(players) < 2:
        raise InvalidSetup("Counter needs at least 2 players.")
    return {"players": list(players), "turn": 0, "total": 0, "moves": 0}


def complete_move(state: dict, move: object, rng: random.Random) -> dict:
    """Roll the die for a roll move without a value."""
    if isinstance(move, dict) and move.get("type") == "roll" and "value" not in move:
        return {**move, "value": rng.randint(1, DIE_SIDES)}
    return dict(move) if isinstance(move, dict) else move


def apply(state: dict, move: object) -> dict:
    """Add the step (or the die) for the player whose turn it is."""
    if not isinstance(move, dict):
        raise IllegalMove("A move must be an object.")
    if state["total"] >= TARGET:
        raise IllegalMove("The game is over.")
    if move.get("seat") != state["turn"]:
        raise IllegalMove(f"It is seat {state['turn']}'s turn.")
    step = move.get("value") if move.get("type") == "roll" else move.get("n")
    if type(step) is not int or not 1 <= step <= max(MAX_STEP, DIE_SIDES):
        raise IllegalMove("Add 1 to 3.")
    return {
        **state,
        "total": state["total"] + step,
        "turn": (state["turn"] + 1) % len(state["players"]),
        "moves": state["moves"] + 1,
    }


def actions(state: dict) -> dict:
    """Whose turn it is."""
    return {"actor": state["turn"], "steps": [1, 2, 3]}


def legal_moves(state: dict) -> list[dict]:
    """Add 1, 2 or 3 for the player to act."""
    if state["total"] >= TARGET:
        return []
    return [{"type": "add", "seat": state["turn"], "n": n} for n in range(1, MAX_STEP + 1)]


def live_standings(state: dict) -> list[dict]:
    """Nobody scores in this game."""
    return [{"name": name, "total": 0} for name in state["players"]]


def summary(state: dict) -> dict:
    """Finished once the total reaches the target."""
    finished = state["total"] >= TARGET
    return {"players": state["players"], "round": 1, "finished": finished, "winners": []}


MODULE = SimpleNamespace(
    new_table=new_table,
    complete_move=complete_move,
    apply=apply,
    actions=actions,
    legal_moves=legal_moves,
    live_standings=live_standings,
    summary=summary,
)
