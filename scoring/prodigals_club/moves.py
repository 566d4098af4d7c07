"""Klub ztroskotanců moves: the scorekeeper's entries and the round's steps (RULES.md §5)."""

import copy
import random

from scoring.common import handler_for, is_int
from scoring.errors import N_, IllegalMove, collect, raise_all
from scoring.prodigals_club import rounds, table
from scoring.prodigals_club.board import (
    ELECTION,
    LEGACY,
    MAX_VOTES,
    PROPERTY,
    SOCIETY,
)
from scoring.prodigals_club.legacy import apply_legacy
from scoring.prodigals_club.property import apply_property
from scoring.prodigals_club.scores import competition_scores
from scoring.prodigals_club.society import apply_society, apply_token_step

#: How many recent changes the state keeps per player (the full history is the move log).
CHANGES_KEPT = 12
#: Phases in which the tracks may be changed, per competition.
NOT_IN_PLAY = {
    PROPERTY: N_("The property competition is not in play at this table."),
    LEGACY: N_("The Legacy combination is not in play at this table."),
    ELECTION: N_("The election competition is not in play at this table."),
    SOCIETY: N_("The society competition is not in play at this table."),
}
TRACK_PHASES = {
    PROPERTY: ("play",),
    LEGACY: ("play",),
    ELECTION: ("play",),
    SOCIETY: ("play", "old_lady"),
}


def complete_move(state: dict, move: object, rng: random.Random) -> dict:
    """The move with its random outcome filled in (turn order by lot), so replays never re-roll."""
    if isinstance(move, dict) and move.get("type") == "order" and move.get("order") is None:
        return {**move, "order": table.draw_order(len(state["players"]), rng)}
    return copy.deepcopy(move) if isinstance(move, dict) else move


def apply(state: dict, move: object) -> dict:
    """The state after `move`; the input state is never modified."""
    handler = handler_for(move, _HANDLERS, fields=MOVE_FIELDS)
    new_state = copy.deepcopy(state)
    new_state["notice"] = None
    handler(new_state, move)
    return new_state


def _require_phase(state: dict, *phases: str) -> None:
    """Refuse a move made outside its step of the round."""
    if state["phase"] == "game_over":
        raise IllegalMove(N_("The game is over; nothing more can be entered."))
    if state["phase"] not in phases:
        raise IllegalMove(N_("That entry is not possible at this step of the round."))


def _seat(state: dict, move: dict) -> int:
    """The validated seat a move names."""
    seat = move.get("seat")
    if not is_int(seat) or not 0 <= seat < len(state["players"]):
        raise IllegalMove(
            N_("seat: choose a player (0 to {last}), not {seat}."),
            last=len(state["players"]) - 1,
            seat=repr(seat),
        )
    return seat


def _require_track(state: dict, competition: str) -> None:
    """Refuse a track entry when the competition is not in play or not now."""
    if competition not in state["competitions"]:
        raise IllegalMove(NOT_IN_PLAY[competition])
    _require_phase(state, *TRACK_PHASES[competition])


def _track(state: dict, competition: str, move: dict) -> int:
    """The seat of a track entry, refused if the competition is not in play or not now."""
    _require_track(state, competition)
    return _seat(state, move)


def _record(state: dict, seat: int, before: dict, what: str) -> None:
    """Keep a short per-player list of score changes for the screen."""
    after = competition_scores(state, seat, game_end=False)
    for name, value in after.items():
        if before.get(name) != value:
            history = state["changes"][seat]
            history.append(
                {
                    "round": state["round"],
                    "competition": name,
                    "what": what,
                    "before": before[name],
                    "after": value,
                }
            )
            del history[:-CHANGES_KEPT]


def _order(state: dict, move: dict) -> None:
    """Round 1's turn order (drawn or entered); the handicaps follow from it."""
    _require_phase(state, "order")
    table.set_order(state, move.get("order"))


def _property(state: dict, move: dict) -> None:
    """A property entry: add tiles, sell, exchange, spend, receive, correct cash.

    The player and the entry's fields are checked together, so every refusal shows at once.
    """
    _require_track(state, PROPERTY)
    refusals: list = []
    seat = collect(refusals, _seat, state, move)
    before = None if seat is None else competition_scores(state, seat, game_end=False)
    notice = collect(refusals, apply_property, state, seat, move)
    raise_all(refusals)
    state["notice"] = notice
    _record(state, seat, before, "property:" + str(move.get("action")))


def _legacy(state: dict, move: dict) -> None:
    """A Legacy entry: spend, receive, correct cash; add, revalue or remove a property.

    The player and the entry's fields are checked together, so every refusal shows at once.
    """
    _require_track(state, LEGACY)
    refusals: list = []
    seat = collect(refusals, _seat, state, move)
    before = None if seat is None else competition_scores(state, seat, game_end=False)
    collect(refusals, apply_legacy, state, seat, move)
    raise_all(refusals)
    _record(state, seat, before, "legacy:" + str(move.get("action")))


def _votes(state: dict, move: dict) -> None:
    """Votes gained or lost; the track stops at 44 and may go below 0 (RULES.md §5)."""
    _require_track(state, ELECTION)
    refusals: list = []
    seat = collect(refusals, _seat, state, move)
    delta = collect(refusals, _delta, move.get("delta"))
    raise_all(refusals)
    before = competition_scores(state, seat, game_end=False)
    player = state["players"][seat]
    wanted = player["votes"] + delta
    player["votes"] = min(wanted, MAX_VOTES)
    if wanted > MAX_VOTES:
        state["notice"] = {"kind": "votes_capped", "seat": seat, "wanted": wanted}
    _record(state, seat, before, "votes")


def _delta(delta: object) -> int:
    """A change in votes: a whole number other than 0."""
    if not is_int(delta) or delta == 0:
        raise IllegalMove(
            N_("delta: enter the change in votes as a whole number other than 0, not {value}."),
            value=repr(delta),
        )
    return delta


def _society(state: dict, move: dict) -> None:
    """New society token values (or their sum)."""
    seat = _track(state, SOCIETY, move)
    before = competition_scores(state, seat, game_end=False)
    state["notice"] = apply_society(state, seat, move)
    _record(state, seat, before, "society")


def _token(state: dict, move: dict) -> None:
    """One society token one space up or down the chart (a board value entered at setup)."""
    seat = _track(state, SOCIETY, move)
    before = competition_scores(state, seat, game_end=False)
    state["notice"] = apply_token_step(state, seat, move)
    _record(state, seat, before, "society")


def _reserve(state: dict, move: dict) -> None:
    """A messenger on the turn-order space reserves a place for the next round."""
    _require_phase(state, "play")
    if LEGACY in state["competitions"]:
        # Seed: with Legacy the turn-order space is gone; Last Will's rules set the order.
        raise IllegalMove(
            N_("With Legacy the Last Will rules decide the turn order; no place can be reserved.")
        )
    refusals: list = []
    seat = collect(refusals, _seat, state, move)
    place = collect(refusals, _place, state, move.get("place"))
    raise_all(refusals)
    name = state["players"][seat]["name"]
    if seat in state["reserved"]:
        raise IllegalMove(
            N_("{name} has already reserved place {place}."),
            name=name,
            place=state["reserved"].index(seat) + 1,
        )
    holder = state["reserved"][place - 1]
    if holder is not None:
        raise IllegalMove(
            N_("Place {place} is already reserved by {name}."),
            place=place,
            name=state["players"][holder]["name"],
        )
    state["reserved"][place - 1] = seat


def _place(state: dict, place: object) -> int:
    """A place in next round's turn order, 1 to the number of players."""
    count = len(state["players"])
    if not is_int(place) or not 1 <= place <= count:
        raise IllegalMove(
            N_("place: choose a place from 1 to {count}, not {value}."),
            count=count,
            value=repr(place),
        )
    return place


def _end_actions(state: dict, move: dict) -> None:
    """The actions are over: Hyde Park, then the Old Lady, for the competitions in play."""
    _require_phase(state, "play")
    rounds.after_actions(state)


def _hyde_park(state: dict, move: dict) -> None:
    """Hyde Park with every player's megaphones of this round."""
    _require_phase(state, "hyde_park")
    rounds.hyde_park(state, move.get("megaphones"))


def _old_lady(state: dict, move: dict) -> None:
    """The Old Lady step is done; `exempt` marks the players whose messenger took her space."""
    _require_phase(state, "old_lady")
    rounds.old_lady(state, move.get("exempt", []))


def _end_round(state: dict, move: dict) -> None:
    """Start the next round: reserved turn order, district marker one step on."""
    _require_phase(state, "round_end")
    rounds.next_round(state)


#: Every field each move type takes (docs/games/prodigals_club.md); any other is refused by
#: name. Property and Legacy entries are checked per action (property.py, legacy.py).
MOVE_FIELDS = {
    "order": ("type", "order"),
    "property": None,
    "legacy": None,
    "votes": ("type", "seat", "delta"),
    "society": ("type", "seat", "tokens", "sum"),
    "token": ("type", "seat", "token", "direction"),
    "reserve": ("type", "seat", "place"),
    "end_actions": ("type",),
    "hyde_park": ("type", "megaphones"),
    "old_lady": ("type", "exempt"),
    "end_round": ("type",),
}
_HANDLERS = {
    "order": _order,
    "property": _property,
    "legacy": _legacy,
    "votes": _votes,
    "society": _society,
    "token": _token,
    "reserve": _reserve,
    "end_actions": _end_actions,
    "hyde_park": _hyde_park,
    "old_lady": _old_lady,
    "end_round": _end_round,
}
