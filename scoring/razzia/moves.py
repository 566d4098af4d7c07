"""Razzia! moves: validate one move and produce the next state (RULES.md §1 "Turn")."""

import copy
import random
from collections import Counter

from scoring.common import handler_for
from scoring.errors import N_, IllegalMove
from scoring.razzia import auction, cards, rounds, table
from scoring.razzia.text import card_name


def complete_move(state: dict, move: object, rng: random.Random) -> dict:
    """The move with its random outcome filled in (check sets by lot), so replays never re-roll."""
    if isinstance(move, dict) and move.get("type") == "deal" and "sets" not in move:
        return {**move, "sets": table.draw_sets(len(state["players"]), rng)}
    return copy.deepcopy(move) if isinstance(move, dict) else move


def apply(state: dict, move: object) -> dict:
    """The state after `move`; the input state is never modified."""
    handler = handler_for(move, _HANDLERS, fields=MOVE_FIELDS)
    new_state = copy_state(state)
    handler(new_state, move)
    return new_state


def copy_state(state: dict) -> dict:
    """A copy of the state that moves can change freely (much cheaper than deepcopy)."""
    new_state = dict(state)
    new_state["players"] = [
        {
            **player,
            "up": list(player["up"]),
            "down": list(player["down"]),
            "family": dict(player["family"]),
        }
        for player in state["players"]
    ]
    for key in ("row", "totals", "rounds"):  # recorded rounds are never changed, only appended
        new_state[key] = list(state[key])
    for key in ("deck", "box"):
        new_state[key] = dict(state[key])
    if state["auction"]:
        new_state["auction"] = copy.deepcopy(state["auction"])
    return new_state


def _deal(state: dict, move: dict) -> None:
    """Record the check sets drawn by lot."""
    _require_phase(state, "deal", N_("The check sets have already been dealt."))
    table.deal(state, table.validate_sets(move.get("sets"), [p["name"] for p in state["players"]]))


def _draw(state: dict, move: dict) -> None:
    """Action A: turn up a loot card into the row or a police card into the police row."""
    seat = _require_turn(state, move)
    card = move.get("card")
    if not isinstance(card, str) or card not in cards.CARD_COUNTS:
        raise IllegalMove(
            N_("Unknown card {card}; expected police or a loot kind."), card=repr(card)
        )
    if state["deck"][card] == 0:
        raise IllegalMove(
            N_("All {count} cards of {card} are already out of the deck; there is no other."),
            count=cards.CARD_COUNTS[card],
            card=card_name(card),
        )
    state["deck"][card] -= 1
    if card == cards.POLICE:
        state["police"] += 1
        if state["police"] >= state["police_limit"]:
            rounds.end_round(state, "police")
        else:
            auction.start(state, seat, "police")
        return
    state["row"].append(card)
    if len(state["row"]) == cards.ROW_LIMIT:
        auction.start(state, seat, "seventh_loot")
    else:
        state["turn"] = rounds.next_active_seat(state, seat)


def _thief(state: dict, move: dict) -> None:
    """Action B: discard one thief per loot card taken from the row."""
    seat = _require_turn(state, move)
    take = move.get("take")
    if not isinstance(take, list) or not take or not all(isinstance(k, str) for k in take):
        raise IllegalMove(N_("Say which loot cards the thieves take from the row."))
    player = state["players"][seat]
    owned = player["family"].get("thief", 0)
    if not owned:
        raise IllegalMove(N_("{name} has no thief to use."), name=player["name"])
    if len(take) > owned:
        raise IllegalMove(
            N_("{name} has only {owned} thieves and cannot take {wanted} cards."),
            name=player["name"],
            owned=owned,
            wanted=len(take),
        )
    missing = Counter(take) - Counter(state["row"])
    if missing:
        raise IllegalMove(
            N_("The row holds no {card} to take."), card=card_name(next(iter(missing)))
        )
    for card in take:
        state["row"].remove(card)
        rounds.add_to_family(player, card)
    rounds.add_to_family(player, "thief", -len(take))
    state["box"]["thief"] += len(take)
    state["turn"] = rounds.next_active_seat(state, seat)


def _forced_auction(state: dict, move: dict) -> None:
    """Action C: call a forced auction."""
    auction.start(state, _require_turn(state, move), "forced")


def _bid(state: dict, move: dict) -> None:
    """Offer a face-up check in the running auction."""
    auction.bid(state, _require_bidder(state, move), move.get("check"))


def _pass(state: dict, move: dict) -> None:
    """Pass in the running auction."""
    auction.pass_(state, _require_bidder(state, move))


def _next_round(state: dict, move: dict) -> None:
    """Leave the round-end screen and set up the next round."""
    _require_phase(state, "round_end", N_("The round is still being played."))
    rounds.start_next_round(state)


def _require_phase(state: dict, phase: str, message: str) -> None:
    """Refuse the move unless the table is in `phase`."""
    if state["phase"] != phase:
        if state["phase"] == "game_over":
            raise IllegalMove(N_("The game is over."))
        raise IllegalMove(message)


def _seat_of(state: dict, move: dict) -> int:
    """The acting seat named by the move, validated."""
    seat = move.get("seat")
    count = len(state["players"])
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
        raise IllegalMove(N_("seat must be a seat number from 0 to {last}."), last=count - 1)
    return seat


def _require_turn(state: dict, move: dict) -> int:
    """The seat of the player taking a turn action, who must be the one to play."""
    _require_phase(state, "turn", _phase_message(state))
    seat = _seat_of(state, move)
    if seat != state["turn"]:
        raise IllegalMove(
            N_("It is {expected}'s turn, not {got}'s."),
            expected=state["players"][state["turn"]]["name"],
            got=state["players"][seat]["name"],
        )
    return seat


def _require_bidder(state: dict, move: dict) -> int:
    """The seat of the bidder, who must be next in the running auction."""
    _require_phase(state, "auction", N_("There is no auction running."))
    seat = _seat_of(state, move)
    expected = auction.next_bidder(state)
    if seat != expected:
        raise IllegalMove(
            N_("It is {expected}'s turn to bid or pass, not {got}'s."),
            expected=state["players"][expected]["name"],
            got=state["players"][seat]["name"],
        )
    return seat


def _phase_message(state: dict) -> str:
    """Why a turn action is refused in the current phase."""
    return {
        "deal": N_("Deal the check sets first."),
        "auction": N_("Finish the auction first: bid or pass."),
        "round_end": N_("The round is over; start the next round first."),
    }.get(state["phase"], N_("The game is over."))


#: Every field each move type takes (docs/game-contract.md); any other is refused by name.
MOVE_FIELDS = {
    "deal": ("type", "sets"),
    "draw": ("type", "seat", "card"),
    "thief": ("type", "seat", "take"),
    "forced_auction": ("type", "seat"),
    "bid": ("type", "seat", "check"),
    "pass": ("type", "seat"),
    "next_round": ("type",),
}
_HANDLERS = {
    "deal": _deal,
    "draw": _draw,
    "thief": _thief,
    "forced_auction": _forced_auction,
    "bid": _bid,
    "pass": _pass,
    "next_round": _next_round,
}
