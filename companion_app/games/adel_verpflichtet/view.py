"""Adel Verpflichtet on the tablet: setup with board values, one panel per step of a turn.

Nothing here decides what is legal; `scoring/adel_verpflichtet` does. These helpers read
form fields into moves and arrange the state for `templates/adel_verpflichtet/`.
"""

import re

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion_app.games.adel_verpflichtet import score as calculator
from companion_app.games.adel_verpflichtet import setup as setup_form
from companion_app.games.adel_verpflichtet import text as words
from companion_app.games.adel_verpflichtet.seat import (
    SHOW_PREFIX,
    seat_form,
    seat_hand,
    seat_label,
    seat_prefill,
    seat_secrets,
    seat_ticked,
    show_entry,
)
from companion_app.games.adel_verpflichtet.setup import catalogue, read_card
from companion_app.games.adel_verpflichtet.text import action_text, card_text, place_text, step_text
from companion_app.games.forms import GENERAL_AREA, whole_number
from scoring.adel_verpflichtet import cards, ending, moves, places, queries, resolve
from scoring.adel_verpflichtet.results import results

GAME = cards.GAME
TITLE = _l("Adel Verpflichtet")
MIN_PLAYERS, MAX_PLAYERS = cards.MIN_PLAYERS, cards.MAX_PLAYERS
CATEGORY_LABELS = {
    "exhibitions": _l("Exhibitions"),
    "detectives": _l("Detectives"),
    "final": _l("Final exhibition"),
}
#: What breaks a tie on the track (scoring.adel_verpflichtet.results TIEBREAKS).
TIEBREAK_LABELS = {
    "final_cards": _l("Cards in the final exhibition"),
    "oldest_object": _l("Its oldest object"),
}
#: The score is the pawn's space on the track, not points; the breakdown counts spaces.
SCORE_LABEL = _l("Space on the track")
BREAKDOWN_TITLE = _l("Spaces moved, by source")
#: The box's pixel groups in Adel Verpflichtet (docs/games/adel_verpflichtet.md).
LED_LABELS = {
    "police": _l("Leader's way to the banquet table"),
    "round": _l("Step: location, action, resolution, final"),
}
#: While everyone chooses in secret the box's seat buttons are part of the decision.
BOX_BESIDE_CHOICE = True
#: A seat's phone: its chips, its exhibition form and secrets, the panels' prefill (seat.py).
__all__ = [
    "seat_form",
    "seat_hand",
    "seat_label",
    "seat_prefill",
    "seat_secrets",
    "seat_ticked",
    "show_entry",
]
SCORE_ENDPOINT = calculator.ENDPOINT
ROUTES = calculator.ROUTES
PHASES = {
    "location": _l("Location"),
    "action": _l("Action card"),
    "choose": _l("Location and action card"),
    "buy": _l("Auction house"),
    "exhibit": _l("Exhibitions"),
    "steal": _l("Thieves at the castle"),
    "review": _l("Resolution"),
    "final": _l("Final exhibition"),
    "game_over": _l("Game over"),
}
#: Which panel shows the refusal of each kind of move: the panel of its phase.
AREAS = moves.PHASE_OF_MOVE
describe = words.describe
setup_context = setup_form.setup_context
setup_names = setup_form.setup_names
parse_setup = setup_form.parse_setup
setup_error_area = setup_form.setup_error_area


def phase_label(phase: str) -> str:
    """The phase as the home list and the table head name it."""
    return str(PHASES.get(phase, phase))


def area_of(move: dict) -> str:
    """The panel that shows this move's errors."""
    return AREAS.get(move.get("type"), GENERAL_AREA)


def areas_shown(state: dict) -> tuple[str, ...]:
    """The panel of the current phase shows its own errors."""
    shown = {value: value for value in AREAS.values()}
    phase = {"location": "location", "action": "action", "choose": "choose"}.get(state["phase"])
    return (phase or shown.get(state["phase"], state["phase"]),)


def encode(action: dict) -> str:
    """An action card as a chip's value: "check:12", "thief:3", "detective"."""
    return f"{action['card']}:{action['value']}" if "value" in action else action["card"]


def decode(text: str) -> dict:
    """A chip's value back to an action card (the rules refuse what does not fit)."""
    kind, _, value = text.partition(":")
    return {"card": kind, "value": whole_number(value)} if value else {"card": kind}


def table_cards(state: dict) -> list[dict]:
    """Every card this table has seen: known hands, exhibitions, pile tops."""
    return places.all_seen(state)


def offered(state: dict, seat: int | None = None) -> dict[str, list[int]]:
    """Letter -> years to offer as chips: the profile's catalogue less every card the table has
    seen somewhere else (a card is in one place), so a card in a hand is never offered for a
    pile; `seat`'s own seen cards stay offered for their exhibition."""
    elsewhere = {key for key, place in places.seen_places(state).items() if place != {"hand": seat}}
    known = catalogue(state["profile"], table_cards(state))
    return {
        letter: [year for year in years if (letter, year) not in elsewhere]
        for letter, years in known.items()
    }


#: The phases that enter cards by letter and year chips.
CARD_PHASES = ("buy", "exhibit", "final")


def context(state: dict) -> dict:
    """Names the Adel templates read besides the shell's."""
    names = [player["name"] for player in state["players"]]
    options = queries.actions(state)
    steps = [step_text(step, names) for step in state["report"]]
    final = results(state) if state["phase"] == "game_over" else None
    entering = state["phase"] in CARD_PHASES  # the catalogue reads the store: only then
    return {
        "phase_label": phase_label(state["phase"]),
        "av": options,
        "av_steps": steps,
        "av_coming": words.coming_up(state, names),
        "av_clashes": [words.clash_text(clash) for clash in state.get("clashes", [])],
        "av_final": final,
        "av_ranking": sorted(final["players"], key=lambda r: (r["rank"], r["seat"]))
        if final
        else [],
        "av_catalogue": offered(state) if state["phase"] == "buy" else {},
        "av_offered": [offered(state, seat) for seat in range(len(names))] if entering else [],
        "av_letters": cards.LETTERS,
        "av_places": cards.PLACES,
        "av_choose_cards": _choose_cards(options) if state["phase"] == "choose" else [],
        "av_buyer": resolve.buyer(state) if state["phase"] == "buy" else None,
        "av_ranks": [row["rank"] for row in queries.live_standings(state)],
        "av_held": [places.held(player) for player in state["players"]],
        "av_last_places": [],  # log_context fills it in on the location panel
        "encode": encode,
        "card_text": card_text,
        "cards_text": words.cards_text,
        "action_text": action_text,
        "place_text": place_text,
        "proposals": _proposals(state),
        "chip_value": chip_value,
    }


#: The panels that ask every seat's location (a choice the table often repeats from last turn).
LOCATION_PHASES = ("location", "choose")


def log_context(state: dict, load_moves) -> dict:
    """Names read from the table's log (`load_moves()`: the moves in force, oldest first):
    on the location panel, each seat's location of last turn, pre-selected and marked."""
    if state["phase"] not in LOCATION_PHASES:
        return {}
    return {"av_last_places": last_places(load_moves(), len(state["players"]))}


def last_places(moves: list[dict], count: int) -> list[str]:
    """Every seat's location in the latest turn that revealed them ([] before any turn did).

    Revealed locations are public (the cards lie face up): pre-selecting them tells no secret.
    """
    for move in reversed(moves):
        if move.get("type") in ("locations", "choices"):
            found = move.get("places")
            if isinstance(found, list) and len(found) == count:
                return [place if place in cards.PLACES else "" for place in found]
            return []
    return []


def _choose_cards(options: dict) -> list[list[dict]]:
    """Surprise variant: every card a seat may play at either location, once each."""
    found = []
    for by_place in options["cards"]:
        seat_cards: list[dict] = []
        for place in cards.PLACES:
            for action in by_place[place]:
                if action not in seat_cards:
                    seat_cards.append(action)
        found.append(seat_cards)
    return found


def _proposals(state: dict) -> list[list[str]]:
    """Per seat, the chips pre-ticked on the form: only the final exhibition of tracked hands.

    At the castle nothing is pre-ticked: the shared screen would tell what a hand holds before
    the exhibitions are turned over (RULES.md §4 "Hidden information").
    """
    if state["phase"] == "final":
        return [[chip_value(card) for card in shown] for shown in ending.proposals(state)]
    return [[] for _ in state["players"]]


def chip_value(card: dict) -> str:
    """A card as a chip's value: "B:1720"."""
    return f"{card['letter']}:{card['year']}"


def card_from_chip(text: str) -> dict | str:
    """A chip's value back to a card (anything else is left for the rules to refuse)."""
    letter, _, year = text.partition(":")
    return {"letter": letter, "year": whole_number(year)} if year else text


def _seat_fields(form: MultiDict, name: str) -> list[str]:
    """The per-seat fields `name0`, `name1`, ... the form posted, in seat order."""
    found = []
    for seat in range(cards.MAX_PLAYERS):
        field = f"{name}{seat}"
        if field not in form:
            break
        # A hidden empty field comes first, a tapped chip after it: the last value counts.
        found.append(form.getlist(field)[-1])
    return found


#: A card typed beside the chips: "B 1720", "b1720", or a bare year for the letter tapped.
TYPED_CARD = re.compile(r"([A-Za-z]?)\s*(\d+)")


def _shown(form: MultiDict, prefix: str) -> list:
    """One player's exhibition: the year chips ticked, then the cards typed beside them."""
    shown = [card_from_chip(value) for value in form.getlist(prefix)]
    letter = form.get(f"{prefix}.letter", "")
    typed = form.get(f"{prefix}.new", "").strip()
    for found in TYPED_CARD.finditer(typed):
        shown.append(
            {"letter": found.group(1).upper() or letter, "year": whole_number(found.group(2))}
        )
    if typed and not TYPED_CARD.search(typed):
        shown.append(typed)  # left for the rules to refuse as not a card
    return shown


def parse_move(form: MultiDict) -> dict:
    """The move a table-page form describes (fields as the rules name them)."""
    kind = form.get("type", "")
    move: dict = {"type": kind}
    if kind in ("locations", "choices"):
        move["places"] = [value or None for value in _seat_fields(form, "place")]
    if kind in ("actions", "choices"):
        move["actions"] = [decode(value) if value else None for value in _seat_fields(form, "act")]
    elif kind == "buy":
        move["pile"] = whole_number(form.get("pile", ""))
        move["next"] = read_card(form, "next")
    elif kind in ("exhibitions", "final"):
        move["shows"] = [
            _shown(form, f"show{seat}") if shows == "1" else None
            for seat, shows in enumerate(_seat_fields(form, "shows"))
        ]
        if kind == "final":
            move["shows"] = [shown or [] for shown in move["shows"]]
        top, bottom = form.get("top", "").strip(), form.get("bottom", "").strip()
        if top or bottom:
            move["fraction"] = [whole_number(top), whole_number(bottom)]
    elif kind == "steal":
        move["thief"] = whole_number(form.get("thief", ""))
        move["cards"] = [
            card_from_chip(value) if value else None for value in _seat_fields(form, "steal")
        ]
    return move


def seat_choice(form: MultiDict) -> list:
    """The exhibition a seat's phone posted (adel_verpflichtet/_seat.html), read as the panel's."""
    return _shown(form, SHOW_PREFIX)
