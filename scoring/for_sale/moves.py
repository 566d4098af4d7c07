"""For Sale moves: validate one move and produce the next state (RULES.md §2)."""

import copy
import random

from scoring.common import handler_for
from scoring.errors import N_, IllegalMove
from scoring.for_sale import buying, selling


def complete_move(state: dict, move: object, rng: random.Random) -> dict:
    """The move with its random outcome filled in (the start player by lot)."""
    if isinstance(move, dict) and move.get("type") == "start" and "seat" not in move:
        return {**move, "seat": rng.randrange(len(state["players"]))}
    return copy.deepcopy(move) if isinstance(move, dict) else move


def apply(state: dict, move: object) -> dict:
    """The state after `move`; the input state is never modified."""
    handler = handler_for(move, _HANDLERS, fields=MOVE_FIELDS)
    new_state = copy.deepcopy(state)
    handler(new_state, move)
    return new_state


def _start(state: dict, move: dict) -> None:
    """Record the start player drawn by lot; they lead the first buying round."""
    _require_phase(state, "start")
    seat = _seat_of(state, move)
    state["start_player"] = seat
    state["leader"] = seat
    state["phase"] = "buying"


def _houses(state: dict, move: dict) -> None:
    """The houses turned over for a buying round."""
    _require_phase(state, "buying")
    buying.turn_over(state, move.get("houses"))


def _bid(state: dict, move: dict) -> None:
    """A bid: the bidder's whole stack after raising, in coins."""
    buying.bid(state, _require_bidder(state, move), move.get("coins"))


def _pass(state: dict, move: dict) -> None:
    """A pass in the buying round."""
    buying.pass_(state, _require_bidder(state, move))


def _checks(state: dict, move: dict) -> None:
    """The checks turned over for a selling round."""
    _require_phase(state, "selling")
    selling.turn_over(state, move.get("checks"))


def _sell(state: dict, move: dict) -> None:
    """The houses revealed at once, one per seat that still holds houses."""
    _require_phase(state, "reveal")
    selling.sell(state, move.get("houses"))


#: Why a move is refused in each phase: what the table has to do first.
_PHASE_MESSAGES = {
    "start": N_("Draw the start player first."),
    "buying": N_("Enter the houses turned over for the next buying round first."),
    "auction": N_("Finish the bidding first: bid or pass."),
    "selling": N_("Enter the checks turned over for the next selling round first."),
    "reveal": N_("Enter the houses everyone revealed first."),
    "game_over": N_("The game is over."),
}


def _require_phase(state: dict, phase: str) -> None:
    """Refuse the move unless the table is in `phase`, saying what comes first."""
    if state["phase"] != phase:
        raise IllegalMove(_PHASE_MESSAGES[state["phase"]])


def _seat_of(state: dict, move: dict) -> int:
    """The seat named by the move, validated."""
    seat = move.get("seat")
    count = len(state["players"])
    if type(seat) is not int or not 0 <= seat < count:
        raise IllegalMove(N_("seat must be a seat number from 0 to {last}."), last=count - 1)
    return seat


def _require_bidder(state: dict, move: dict) -> int:
    """The seat of the bidder, who must be next in the running auction."""
    _require_phase(state, "auction")
    seat = _seat_of(state, move)
    expected = state["auction"]["turn"]
    if seat != expected:
        raise IllegalMove(
            N_("It is {expected}'s turn to bid or pass, not {got}'s."),
            expected=state["players"][expected]["name"],
            got=state["players"][seat]["name"],
        )
    return seat


#: Every field each move type takes (docs/games/for_sale.md); any other is refused by name.
MOVE_FIELDS = {
    "start": ("type", "seat"),
    "houses": ("type", "houses"),
    "bid": ("type", "seat", "coins"),
    "pass": ("type", "seat"),
    "checks": ("type", "checks"),
    "sell": ("type", "houses"),
}
_HANDLERS = {
    "start": _start,
    "houses": _houses,
    "bid": _bid,
    "pass": _pass,
    "checks": _checks,
    "sell": _sell,
}
