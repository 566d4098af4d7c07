"""Adel Verpflichtet moves: validate one move and produce the next state (RULES.md §4)."""

import copy
import random

from scoring.adel_verpflichtet import ending, places, resolve, turn
from scoring.common import handler_for, plain_copy
from scoring.errors import N_, IllegalMove


def complete_move(state: dict, move: object, _rng: random.Random) -> dict:
    """The move as entered (a copy; nothing is drawn by lot), a purchase with who bought what.

    The buyer, their check and the card bought follow from the state; written into the stored
    move, the move log can say "Ann bought A 1500 with check 21" without replaying the game.
    """
    if not isinstance(move, dict):
        return move
    completed = copy.deepcopy(move)
    pile = move.get("pile")
    if (
        move.get("type") == "buy"
        and state["phase"] == "buy"
        and type(pile) is int
        and pile in resolve.open_piles(state)
    ):
        completed = {**resolve.purchase(state, pile), **completed}
    return completed


def apply(state: dict, move: object) -> dict:
    """The state after `move`; the input state is never modified."""
    handler = handler_for(move, _HANDLERS, fields=MOVE_FIELDS)
    phase = PHASE_OF_MOVE[move["type"]]
    if state["phase"] != phase:
        raise IllegalMove(PHASE_MESSAGES[state["phase"]])
    new_state = plain_copy(state)  # states are plain JSON: no deepcopy memo needed
    handler(new_state, move)
    # Years shared by two different cards, entered by this move: the page warns (RULES.md §4).
    revealing = move["type"] in REVEALING
    new_state["clashes"] = places.new_clashes(state, new_state) if revealing else []
    return new_state


#: The moves that bring cards into view (a card that comes up, exhibitions).
REVEALING = ("buy", "exhibitions", "final")
#: What the table has to do in each phase (the refusal of a move that does not fit).
PHASE_MESSAGES = {
    "location": N_("Enter everyone's location first (auction house or castle)."),
    "action": N_("Enter everyone's action card first."),
    "choose": N_("Enter everyone's location and action card first."),
    "buy": N_("The buyer picks a card at the auction house first."),
    "exhibit": N_("Enter the exhibitions first."),
    "steal": N_("Enter the cards the thieves take first."),
    "review": N_("Look over the turn's resolution and go on to the next turn first."),
    "final": N_("Enter the final exhibitions first."),
    "game_over": N_("The game is over."),
}
#: Every field each move type takes (docs/games/adel_verpflichtet.md); others are refused.
MOVE_FIELDS = {
    "locations": ("type", "places"),
    "actions": ("type", "actions"),
    "choices": ("type", "places", "actions"),
    "buy": ("type", "pile", "next", "seat", "check", "card"),
    "exhibitions": ("type", "shows", "fraction"),
    "steal": ("type", "thief", "cards"),
    "next": ("type",),
    "final": ("type", "shows"),
}
_HANDLERS = {
    "locations": turn.locations,
    "actions": turn.actions,
    "choices": turn.choices,
    "buy": resolve.buy,
    "exhibitions": resolve.exhibitions,
    "steal": resolve.steal,
    "next": ending.next_turn,
    "final": ending.final,
}
#: The phase each move type belongs to (the table page shows its refusal in that panel).
PHASE_OF_MOVE = {
    "locations": "location",
    "actions": "action",
    "choices": "choose",
    "buy": "buy",
    "exhibitions": "exhibit",
    "steal": "steal",
    "next": "review",
    "final": "final",
}
