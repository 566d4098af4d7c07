"""Cech zlodějů moves: validate one move and produce the next state (RULES.md §3).

`complete_move` writes the first player drawn by lot and the move's `log` (what the rules
did: the robbery, a skipped turn, Černý Petr's fee, the sudden end) into the stored move, so
the history reads like the game and a replay is checked against it.
"""

import random

from scoring.common import handler_for
from scoring.errors import N_, IllegalMove
from scoring.thieves_guild import played, turn

LOG = "log"


def complete_move(state: dict, move: object, rng: random.Random) -> dict:
    """The move with the first player drawn by lot (if not given) and its log filled in."""
    if not isinstance(move, dict):
        return move
    completed = {key: value for key, value in move.items() if key != LOG}
    if completed.get("type") == "start" and "seat" not in completed:
        completed["seat"] = rng.randrange(len(state["players"]))
    try:
        _, completed[LOG] = play(state, completed)
    except IllegalMove:
        return completed  # `apply` refuses it with the same reason
    return completed


def apply(state: dict, move: object) -> dict:
    """The state after `move`; the input state is never modified."""
    new_state, log = play(state, move)
    if LOG in move and move[LOG] != log:
        raise IllegalMove(N_("The move's log does not match what the rules give for it."))
    return new_state


def play(state: dict, move: object) -> tuple[dict, list[dict]]:
    """(the next state, the events of the move) for a move as the rules judge it."""
    handler = handler_for(move, _HANDLERS, fields=MOVE_FIELDS)
    new_state = copy_state(state)
    log: list[dict] = []
    handler(new_state, move, log)
    return new_state, log


def copy_state(state: dict) -> dict:
    """A copy deep enough for a move to change freely (the players are the only nested dicts)."""
    return {
        **state,
        "players": [dict(player) for player in state["players"]],
        "card_costs": list(state["card_costs"]),
        "jailed": list(state["jailed"]),
        "ranks": None if state["ranks"] is None else list(state["ranks"]),
    }


#: Every field each move type takes (docs/games/thieves_guild.md); any other is refused.
MOVE_FIELDS = {
    "start": ("type", "seat", LOG),
    "buy": ("type", "seat", LOG),
    "loot": ("type", "seat", "roll", LOG),
    "card": ("type", "seat", "card", "transfers", "roll", "jail", "black_peter", "stop", LOG),
    "target": ("type", "seat", "roll", "direction", LOG),
    "aim": ("type", "seat", "direction", LOG),
    "rob": ("type", "seat", LOG),
    "end_turn": ("type", "seat", "no_card", LOG),
    "settle": ("type", LOG),
}
_HANDLERS = {
    "start": turn.start,
    "buy": turn.buy,
    "loot": turn.loot,
    "card": played.play_card,
    "target": turn.target,
    "aim": turn.aim,
    "rob": turn.rob,
    "end_turn": turn.end_turn,
    "settle": turn.settle,
}
