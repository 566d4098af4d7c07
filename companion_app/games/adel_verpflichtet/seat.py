"""Adel Verpflichtet on a player's phone: the chips of their choice, their exhibition entered card
by card, what only they may see, and the scorer's panels filled in from the phones (issue 31).

The rules of what a seat may seal are `scoring/adel_verpflichtet/sealing.py`; these helpers only
name the choices in the players' words and read the phone's exhibition form.
"""

from flask_babel import gettext

from companion_app.games.adel_verpflichtet.text import action_text, cards_text, place_text
from scoring.adel_verpflichtet import cards, sealing

#: The phone's exhibition form: its card fields (view.py's `_shown` reads them as the panel's).
SHOW_PREFIX = "show"
#: The partial the seat page shows for an exhibition (a choice too many to list as chips).
SEAT_FORM = "adel_verpflichtet/_seat.html"


def seat_label(choice: object) -> str:
    """A sealed choice as the seat's chip names it: a location, an action card, both, or the
    cards of an exhibition ("A 1500, B 1507, C 1514")."""
    if isinstance(choice, str):
        return place_text(choice)
    if isinstance(choice, dict) and "place" in choice:
        return gettext(
            "%(place)s: %(action)s",
            place=place_text(choice["place"]),
            action=action_text(choice.get("action")),
        )
    if isinstance(choice, dict):
        return action_text(choice)
    if isinstance(choice, list):
        return cards_text(choice) if choice else gettext("No exhibition")
    return str(choice)


def seat_secrets(state: dict, seat: int) -> list[tuple[str, str]]:
    """This seat's hand, which RULES.md §4 "Hidden information" keeps secret ("Hands are
    secret"); checks and thieves are public. Hands left to the players: the cards the table has
    seen in this hand, and how many more the player holds."""
    player = state["players"][seat]
    in_hand = cards_text(sorted(player["hand"], key=_card_order)) or "–"
    if state.get("tracked", True):
        return [(gettext("My hand"), in_hand)]
    return [
        (gettext("My cards the table has seen"), in_hand),
        (gettext("My other cards"), str(player.get("unseen", 0))),
    ]


def seat_form(state: dict, seat: int) -> str | None:
    """The seat page's partial for an exhibition entered card by card (None: chips only)."""
    if state["phase"] in ("exhibit", "final") and seat in sealing.sealed_seats(state):
        return SEAT_FORM
    return None


def seat_ticked(state: dict, seat: int, own: list[dict] | None) -> list[dict]:
    """The cards the phone's exhibition form comes ticked with: what the seat entered, else the
    best exhibition its tracked hand holds (the seat's own phone: no secret to anyone else)."""
    if own is not None:
        return own
    options = sealing.sealed_options(state, seat)
    return options[0] if options else []


def seat_hand(state: dict, seat: int) -> list[dict]:
    """The seat's own known cards in order, for its phone's exhibition form."""
    return sorted(state["players"][seat]["hand"], key=_card_order)


def seat_prefill(
    state: dict, sealed_choices: dict, offered: list[dict] | None = None
) -> list[dict]:
    """Per seat, what the scorer's panel shows filled in from that seat's phone: "place" and
    "act" (chip values) while everyone chooses; at the castle and the final exhibition "show"
    (the exhibition's chip values) and "typed" (its cards `offered`, the seat's year chips, has no
    chip for, as the typed field takes them: "B 1720 C 1650"). Empty for a seat whose phone
    entered nothing."""
    phase = state["phase"]
    filled: list[dict] = []
    for seat in range(len(state["players"])):
        choice = sealed_choices.get(seat)
        entry: dict = {}
        if choice is None:
            pass
        elif phase == "location" and isinstance(choice, str):
            entry["place"] = choice
        elif phase == "action" and isinstance(choice, dict):
            entry["act"] = _action_chip(choice)
        elif phase == "choose" and isinstance(choice, dict):
            entry.update(place=choice["place"], act=_action_chip(choice["action"]))
        elif phase in ("exhibit", "final") and isinstance(choice, list):
            chips = None if offered is None else offered[seat]
            entry.update(show_entry(choice, chips), entered=True)
        filled.append(entry)
    return filled


def show_entry(shown: list[dict], offered: dict[str, list[int]] | None) -> dict:
    """An exhibition as a cards entry shows it: "show", the chip values of the cards `offered`
    has a year chip for (every card if None), and "typed", the others as typed ("B 1720")."""
    has_chip = [
        offered is None or card["year"] in offered.get(card["letter"], []) for card in shown
    ]
    return {
        "show": [_card_chip(card) for card, chip in zip(shown, has_chip, strict=True) if chip],
        "typed": " ".join(
            cards.label(card) for card, chip in zip(shown, has_chip, strict=True) if not chip
        ),
    }


def _action_chip(action: dict) -> str:
    """An action card as the panel's chip value ("check:12"; view.encode)."""
    return f"{action['card']}:{action['value']}" if "value" in action else action["card"]


def _card_chip(card: dict) -> str:
    """A collection card as the panel's chip value ("B:1720"; view.chip_value)."""
    return f"{card['letter']}:{card['year']}"


def _card_order(card: dict) -> tuple[int, int]:
    """Cards by letter, then year."""
    return (cards.LETTERS.index(card["letter"]), card["year"])
