"""Adel Verpflichtet's setup form: board values and a card catalogue remembered per profile.

A board profile is the name a table gives its board values (track fractions, banquet, checks
and thieves per seat). Nothing new is stored: the profile, its last players and the catalogue
of collection cards are read back from earlier Adel tables' setups and states. The form asks
only what the table turns face up (the two pile tops); the dealt hands are typed only when the
table chooses to track every hand.
"""

from flask import request
from werkzeug.datastructures import MultiDict

from companion_app.games.forms import whole_number
from companion_app.store import get_store
from scoring import names
from scoring.adel_verpflichtet import cards
from scoring.adel_verpflichtet import table as rules_table
from scoring.adel_verpflichtet.table import (
    DEFAULT_PROFILE,
    MAX_BANQUET,
    MIN_BANQUET,
    PLAYER_COUNT,
)

#: Track rows on the setup form (spaces 0..39); spaces past them are asked when needed.
TRACK_ROWS = 40
#: A card entry's fields: letter chip, year chip ("B:1720") or a new year typed.
LETTER, YEAR, NEW_YEAR = "{prefix}.letter", "{prefix}.year", "{prefix}.new"
#: `?profile=` value of a new board: an empty form, nothing taken from another profile.
NEW_BOARD = ""
#: The form field that asks the app to track every hand (then the dealt cards are typed).
TRACK = "track"


def previous_tables() -> list:
    """Earlier Adel tables, most recent activity first."""
    return [table for table in get_store().list_tables() if table.game == cards.GAME]


def profiles() -> dict[str, object]:
    """Profile name -> the most recent table that used it."""
    found: dict[str, object] = {}
    for table in previous_tables():
        found.setdefault(table.state.get("profile", DEFAULT_PROFILE), table)
    return found


def catalogue(profile: str | None = None, extra: list[dict] = ()) -> dict[str, list[int]]:
    """Letter -> known years: every card entered at the profile's tables (and `extra`)."""
    seen = {(card["letter"], card["year"]) for card in extra}
    for table in previous_tables():
        if profile is None or table.state.get("profile") == profile:
            seen.update((card["letter"], card["year"]) for card in cards_of(table))
    return {letter: sorted(y for ltr, y in seen if ltr == letter) for letter in cards.LETTERS}


def cards_of(table) -> list[dict]:
    """Every card a table has seen: no card leaves the game, so its state holds them all."""
    state = table.state
    found = [card for player in state.get("players", []) for card in player.get("hand", [])]
    found += [pile["top"] for pile in state.get("piles", []) if pile.get("top")]
    found += [card for shown in state.get("shows") or [] for card in shown or []]
    return [card for card in found if isinstance(card, dict) and "letter" in card]


def profile_tables(profile: str | None) -> list:
    """The tables of a board profile, most recent first."""
    return [t for t in previous_tables() if t.state.get("profile", DEFAULT_PROFILE) == profile]


def remembered(tables: list) -> dict:
    """Form field -> value from a profile's tables (most recent first): the last table's banquet,
    every fraction play filled in, and each seat's checks and thieves from the last table that
    had that seat, so a 3-player table after a 2-player one finds its third seat's values."""
    if not tables:
        return {}
    state = tables[0].state
    fields = {"profile": state.get("profile", ""), "banquet": str(state.get("banquet", ""))}
    for table in reversed(tables):  # the most recent table's values win
        for space, fraction in enumerate(table.state.get("fractions") or []):
            if fraction:
                fields[f"top{space}"], fields[f"bottom{space}"] = (str(n) for n in fraction)
    taken: set = set()
    for seat in range(cards.MAX_PLAYERS):
        for table in tables:
            values = _seat_values(table.setup, seat)
            # An older table's seat is taken only if none of its values is in a seat already.
            kinds = {("check" in name, value) for name, value in values.items()}
            if values and not taken & kinds:
                fields.update(values)
                taken |= kinds
                break
    return fields  # tracking every hand is never carried over: by default the hands are kept


def _seat_values(setup: dict, seat: int) -> dict:
    """A seat's check and thief fields from one table's setup; empty if it had no such seat."""
    checks, thieves = setup.get("checks") or [], setup.get("thieves") or []
    if seat >= len(checks) or seat >= len(thieves):
        return {}
    fields = {f"p{seat}.check{i}": str(value) for i, value in enumerate(checks[seat])}
    fields.update({f"p{seat}.thief{i}": str(value) for i, value in enumerate(thieves[seat])})
    return fields


def chosen_profile() -> str | None:
    """The profile the form fills in: `?profile=` (empty: a new board), else the latest one.

    A new board starts empty, so no value of another profile is carried over unseen.
    """
    known = profiles()
    asked = request.args.get("profile")
    if asked is not None:
        return asked if asked in known else None
    return next(iter(known), None)


def setup_names() -> list[str]:
    """The players of the chosen profile's last table, in seat order (the same group again)."""
    table = profiles().get(chosen_profile())
    return [player["name"] for player in table.state["players"]] if table else []


def setup_context() -> dict:
    """The remembered profile and its catalogue for the form."""
    known = profiles()
    chosen = chosen_profile()
    return {
        "adel_profiles": list(known),
        "adel_profile": chosen,
        "adel_remembered": remembered(profile_tables(chosen) if chosen in known else []),
        "adel_catalogue": catalogue(chosen),
        "adel_track_rows": range(TRACK_ROWS),
        "adel_seats": range(cards.MAX_PLAYERS),
        "adel_letters": cards.LETTERS,
    }


def read_card(form: MultiDict, prefix: str) -> dict | None | str:
    """A card entry: letter chip plus a year chip of that letter or a new year; None if blank."""
    letter = form.get(LETTER.format(prefix=prefix), "")
    new = form.get(NEW_YEAR.format(prefix=prefix), "").strip()
    chip = form.get(YEAR.format(prefix=prefix), "")
    year = whole_number(new) if new else None
    if year is None and letter and chip.startswith(f"{letter}:"):
        year = whole_number(chip.split(":", 1)[1])
    if not letter and year is None:
        return None
    return {"letter": letter, "year": year}


def _numbers(form: MultiDict, names: list[str]) -> list:
    """Typed whole numbers (text kept for the rules to refuse)."""
    return [whole_number(form.get(name, "").strip()) for name in names]


def parse_setup(form: MultiDict) -> dict:
    """Players, variant, profile, board values, pile tops and (tracked) hands from the form."""
    typed = form.getlist("player")
    seats = [seat for seat, name in enumerate(typed) if name.strip()]
    banquet = whole_number(form.get("banquet", "").strip())
    valid = isinstance(banquet, int) and MIN_BANQUET <= banquet <= MAX_BANQUET
    rows = banquet if valid else _typed_rows(form)
    setup: dict = {
        "players": [typed[seat] for seat in seats],
        "profile": form.get("profile", "").strip() or DEFAULT_PROFILE,
        "banquet": banquet,
        "fractions": [_fraction(form, space) for space in range(rows)],
        "checks": [_numbers(form, [f"p{s}.check{i}" for i in range(4)]) for s in seats],
        "thieves": [_numbers(form, [f"p{s}.thief{i}" for i in range(2)]) for s in seats],
        "tops": [read_card(form, f"top{pile}") for pile in range(2)],
    }
    if form.get(TRACK):
        setup["hands"] = [[read_card(form, f"p{s}.card{i}") for i in range(4)] for s in seats]
    if len(seats) == 2:
        setup["variant"] = form.get("variant") or None
    return setup


def _typed_rows(form: MultiDict) -> int:
    """Without a banquet space, the track rows up to the last one typed in (each is checked)."""
    typed = [
        space
        for space in range(TRACK_ROWS)
        if form.get(f"top{space}", "").strip() or form.get(f"bottom{space}", "").strip()
    ]
    return typed[-1] + 1 if typed else 0


def _fraction(form: MultiDict, space: int) -> list | None:
    """A space's fraction from its two fields; None when both are blank (asked in play)."""
    top, bottom = _numbers(form, [f"top{space}", f"bottom{space}"])
    if top is None or bottom is None or (top == "" and bottom == ""):
        return None
    return [top, bottom]


#: Refusals shown by the player names (the rest go under the board values).
NAME_REFUSALS = {
    *names.SEAT_MESSAGES.values(),
    names.SEAT_SAME,
    names.SEAT_EMPTY,
    names.SEAT_TOO_LONG,
    names.SEAT_STACKED,
    names.NOT_A_LIST,
    PLAYER_COUNT,
}


#: Refusals shown by their own field of the board form, by template.
FIELD_REFUSALS = {
    rules_table.TWO_PLAYERS_VARIANT: "variant",
    rules_table.VARIANT_FOR_TWO: "variant",
    rules_table.BANQUET: "banquet",
    rules_table.FRACTIONS: "track",
    rules_table.FRACTION: "track",
    rules_table.PROFILE_NAME: "profile",
    rules_table.PROFILE_CHAR: "profile",
    rules_table.TOPS: "tops",
    rules_table.TOP_CARD: "tops",
    rules_table.TOP_DEALT: "tops",
    rules_table.TOPS_SAME: "tops",
}
#: Refusals of a tracked hand's cards: shown by that seat's hand, not by its board values.
HAND_REFUSALS = {rules_table.DEALT_CARD, rules_table.DEALT_TWICE, rules_table.HAND_COUNT}
#: The areas inside the folded board values (opened when one of them holds a refusal).
BOARD_AREAS = ("board", "banquet", "track")


def setup_error_area(refused) -> str:
    """The field a refusal shows next to: the names, a board value, a seat, a hand, the tops.

    A seat's refusal (its checks, thieves or cards) counts seats among the names entered,
    so it goes to the fieldset of that seat on the form; a value entered twice goes to the
    second seat that has it.
    """
    template = getattr(refused, "template", "")
    if template in NAME_REFUSALS:
        return "players"
    if template in FIELD_REFUSALS:
        return FIELD_REFUSALS[template]
    params = getattr(refused, "params", {})
    seat = params.get("second", params.get("seat"))
    if isinstance(seat, int):
        kind = "hand" if template in HAND_REFUSALS else "seat"
        return f"{kind}{_form_seat(seat - 1)}"
    if template.startswith("hands:"):
        return "hands"
    return "board"


def _form_seat(seat: int) -> int:
    """The form's seat of the `seat`-th player entered (blank name fields are skipped)."""
    typed = request.form.getlist("player")
    filled = [index for index, name in enumerate(typed) if name.strip()]
    return filled[seat] if seat < len(filled) else seat
