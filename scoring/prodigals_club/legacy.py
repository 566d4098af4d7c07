"""Legacy (Dědictví) bookkeeping: cash and properties at their market value (RULES.md §5)."""

from scoring.common import handler_for, is_int
from scoring.errors import N_, IllegalMove, at_field, collect, raise_all
from scoring.names import check_text
from scoring.prodigals_club.board import LEGACY_START

#: A property's label is a short note for the screen ("Statek", "Mlýn u řeky").
MAX_LABEL = 40
HIDDEN_IN_LABEL = N_(
    "label: the label {text} contains {char}, a control, invisible or private-use character;"
    " remove it."
)


def new_track() -> dict:
    """A player's Legacy track at the start: £70 and no properties (seed)."""
    return {"cash": LEGACY_START, "properties": [], "next": 1}


def legacy_score(track: dict) -> int:
    """Cash + the current market value of the properties still owned (seed; no tile penalty)."""
    return track["cash"] + sum(item["value"] for item in track["properties"])


def _amount(value: object) -> int:
    """A whole number of pounds of at least 1."""
    if not is_int(value) or value < 1:
        refused = IllegalMove(
            N_("{field}: enter a whole number of pounds of at least 1, not {value}."),
            field="amount",
            value=repr(value),
        )
        raise at_field(refused, "amount")  # the template's "{field}:" hides it from the page
    return value


def _market_value(value: object) -> int:
    """A property's market value: a whole number of pounds of 0 or more."""
    if not is_int(value) or value < 0:
        raise IllegalMove(
            N_(
                "value: enter the property's market value as a whole number of 0 or more,"
                " not {value}."
            ),
            value=repr(value),
        )
    return value


def _label(value: object) -> str:
    """The optional label, trimmed and in NFC, without hidden characters (scoring.names)."""
    if value is None:
        return ""
    label = value if isinstance(value, str) else None
    if label is not None:
        label = check_text(label, IllegalMove, HIDDEN_IN_LABEL)
    if label is None or len(label) > MAX_LABEL:
        raise IllegalMove(
            N_("label: a property's label is text of at most {limit} characters."),
            limit=MAX_LABEL,
        )
    return label


def _owned(state: dict, seat: int, wanted: object) -> int:
    """Index of the player's property with id `wanted`, or IllegalMove if they don't own it."""
    player = state["players"][seat]
    if is_int(wanted):
        for index, item in enumerate(player["legacy"]["properties"]):
            if item["id"] == wanted:
                return index
    raise IllegalMove(
        N_("property: {name} owns no Legacy property {property}."),
        name=player["name"],
        property=repr(wanted),
    )


def apply_legacy(state: dict, seat: int | None, move: dict) -> None:
    """Carry out one Legacy entry on the player's track.

    `seat` None: the player was refused, so the entry's own fields are only checked (every
    refusal is raised at once) and nothing is carried out.
    """
    unknown = N_("action: unknown Legacy entry {action}; expected one of: {known}.")
    handler = handler_for(move, _ACTIONS, key="action", unknown=unknown, fields=ACTION_FIELDS)
    track = None if seat is None else state["players"][seat]["legacy"]
    handler(track, state, seat, move)


def _spend(track: dict | None, state: dict, seat: int | None, move: dict) -> None:
    """Money paid; the sources give no floor, so cash goes as low as the table enters."""
    amount = _amount(move.get("amount"))
    if track is not None:
        track["cash"] -= amount


def _receive(track: dict | None, state: dict, seat: int | None, move: dict) -> None:
    """Money received (a sale, a card that pays)."""
    amount = _amount(move.get("amount"))
    if track is not None:
        track["cash"] += amount


def _set_cash(track: dict | None, state: dict, seat: int | None, move: dict) -> None:
    """A correction to what the player holds."""
    value = move.get("cash")
    if not is_int(value):
        raise IllegalMove(
            N_("cash: enter a whole number of pounds, not {value}."), value=repr(value)
        )
    if track is not None:
        track["cash"] = value


def _add(track: dict | None, state: dict, seat: int | None, move: dict) -> None:
    """A property the player now owns, at its current market value (value and label checked
    together)."""
    refusals: list = []
    value = collect(refusals, _market_value, move.get("value"))
    label = collect(refusals, _label, move.get("label"))
    raise_all(refusals)
    if track is not None:
        track["properties"].append({"id": track["next"], "label": label, "value": value})
        track["next"] += 1


def _value(track: dict | None, state: dict, seat: int | None, move: dict) -> None:
    """The property's market value changed on the board (property and value checked together)."""
    refusals: list = []
    if seat is not None:
        index = collect(refusals, _owned, state, seat, move.get("property"))
    value = collect(refusals, _market_value, move.get("value"))
    raise_all(refusals)
    if track is not None:
        track["properties"][index]["value"] = value


def _remove(track: dict | None, state: dict, seat: int | None, move: dict) -> None:
    """The property was sold or discarded (money from a sale is a separate entry)."""
    if track is not None:
        track["properties"].pop(_owned(state, seat, move.get("property")))


_ACTIONS = {
    "spend": _spend,
    "receive": _receive,
    "set_cash": _set_cash,
    "add": _add,
    "value": _value,
    "remove": _remove,
}
#: Every field each Legacy entry takes; any other is refused by name.
ACTION_FIELDS = {
    action: ("type", "seat", "action", *extra)
    for action, extra in {
        "spend": ("amount",),
        "receive": ("amount",),
        "set_cash": ("cash",),
        "add": ("label", "value"),
        "value": ("property", "value"),
        "remove": ("property",),
    }.items()
}
