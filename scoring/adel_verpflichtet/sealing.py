"""Adel Verpflichtet on the players' phones: what each seat seals or enters itself (issue 31).

RULES.md §4 "Each turn": everyone secretly and at once chooses a location, then an action card
(both at once in the surprise variant); each is revealed together. Those choices are sealed on
the phones behind the box's reveal (`reveal_seats`) and make one move once every seat sealed.

RULES.md §4 "Castle" and "End": an exhibitor's cards and everyone's final exhibition are each
one player's own (the hand is secret until it is laid out); a phone enters them with no lock-in
(`sealed_seats`), and the move is made once every entering seat has entered. The fraction on
the leader's castle space is a board value the whole table sees: while the board has none for
that space the entries only prefill the scorer's form, who types the fraction and submits.
"""

from scoring.adel_verpflichtet import cards, places, turn
from scoring.adel_verpflichtet.queries import CHOOSING, places_now
from scoring.adel_verpflichtet.resolve import leader_space, played_at
from scoring.common import plain_copy
from scoring.errors import N_, IllegalMove

#: The refusal of a location that is not one of the two location cards.
NOT_A_PLACE = N_("{name}: choose the auction house or the castle.")
#: The refusal of a surprise choice that is not a location and an action card played there.
NOT_A_PAIR = N_("{name}: choose a location and an action card you may play there.")


def exhibitors(state: dict) -> list[int]:
    """The seats that played "exhibit" at the castle this turn."""
    return [seat for seat, _ in played_at(state, cards.CASTLE, cards.EXHIBIT)]


def sealed_seats(state: dict) -> list[int]:
    """Who enters on their phone now: everyone while a choice is secret, the exhibitors at the
    castle, everyone at the final exhibition."""
    phase = state["phase"]
    if phase in CHOOSING or phase == "final":
        return list(range(len(state["players"])))
    if phase == "exhibit":
        return exhibitors(state)
    return []


def sealed_options(state: dict, seat: int) -> list:
    """The choices `seat` may seal now, as chips: a location, an action card, both, or (castle,
    final exhibition) the best exhibition of a tracked hand; other exhibitions are entered card by
    card and checked by `check_sealed`."""
    phase = state["phase"]
    if seat not in sealed_seats(state):
        return []
    if phase == "location":
        return list(cards.PLACES)
    if phase == "action":
        return turn.allowed_cards(state, seat, places_now(state)[seat])
    if phase == "choose":
        return [
            {"place": place, "action": action}
            for place in cards.PLACES
            for action in turn.allowed_cards(state, seat, place)
        ]
    tracked = state.get("tracked", True)
    best = cards.best_from_hand(state["players"][seat]["hand"]) if tracked else []
    if phase == "exhibit":
        return [best] if best else []
    return [best, []] if best else [[]]  # the final exhibition: showing none is a choice


def check_sealed(state: dict, seat: int, choice: object) -> object:
    """`choice` as the rules read it if `seat` may seal it now, else IllegalMove saying why."""
    phase = state["phase"]
    player = state["players"][seat]
    name = player["name"]
    if phase in ("exhibit", "final"):
        return _own_exhibition(state, seat, choice, empty_ok=phase == "final")
    if choice in sealed_options(state, seat):
        return choice
    if phase == "location":
        raise IllegalMove(NOT_A_PLACE, name=name)
    if phase == "action":
        place = places_now(state)[seat]
        # the refusal the scorer's entry of the same card gets (turn.read_actions)
        raise IllegalMove(
            turn.card_refusal(state, seat, place, choice), **turn.refusal_params(state, seat)
        )
    raise IllegalMove(NOT_A_PAIR, name=name)


def _own_exhibition(state: dict, seat: int, shown: object, empty_ok: bool) -> list[dict]:
    """The cards `seat` lays out, each one they hold (RULES.md §4 "Castle", "End"), sorted."""
    name = state["players"][seat]["name"]
    chosen = cards.read_exhibition(name, seat, shown, empty_ok)
    trial = plain_copy(state)
    trial["shows"] = [None] * len(state["players"])
    places.take_shown(trial, seat, chosen)  # refuses a card not theirs, or entered twice
    return sorted(chosen, key=lambda card: (card["letter"], card["year"]))


def sealed_move(state: dict, choices: dict[int, object]) -> dict | None:
    """The move every seat's sealed choice makes; None while the table still has to enter a
    board value (the fraction of the leader's space): then the entries prefill its form."""
    phase = state["phase"]
    seats = range(len(state["players"]))
    if phase == "location":
        return {"type": "locations", "places": [choices[seat] for seat in seats]}
    if phase == "action":
        return {"type": "actions", "actions": [choices[seat] for seat in seats]}
    if phase == "choose":
        return {
            "type": "choices",
            "places": [choices[seat]["place"] for seat in seats],
            "actions": [choices[seat]["action"] for seat in seats],
        }
    if phase == "exhibit":
        if state["fractions"][leader_space(state)] is None:
            return None
        return {"type": "exhibitions", "shows": [choices.get(seat) for seat in seats]}
    if phase == "final":
        return {"type": "final", "shows": [choices[seat] for seat in seats]}
    return None
