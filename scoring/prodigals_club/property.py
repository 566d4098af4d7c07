"""Property bookkeeping: cash, tiles, selling, exchanging, spending (RULES.md §5 "Property")."""

from scoring.common import handler_for, is_int
from scoring.errors import N_, IllegalMove, at_field, collect, raise_all
from scoring.prodigals_club.board import DISTRICT_DISCOUNT


def _amount(value: object, field: str) -> int:
    """A whole number of pounds of at least 1."""
    if not is_int(value) or value < 1:
        refused = IllegalMove(
            N_("{field}: enter a whole number of pounds of at least 1, not {value}."),
            field=field,
            value=repr(value),
        )
        raise at_field(refused, field)
    return value


def tile(value: object, state: dict, field: str = "tile") -> dict:
    """A validated property tile {"value", "district"}."""
    districts = state["board"]["districts"]
    if (
        not isinstance(value, dict)
        or set(value) != {"value", "district"}
        or not is_int(value["value"])
        or value["value"] < 0
        or not is_int(value["district"])
        or not 1 <= value["district"] <= districts
    ):
        refused = IllegalMove(
            N_(
                "{field}: a tile is a face value of 0 or more and a district from 1 to"
                " {districts}, not {value}."
            ),
            field=field,
            districts=districts,
            value=repr(value),
        )
        raise at_field(refused, field)
    return {"value": value["value"], "district": value["district"]}


def _owned(state: dict, seat: int, wanted: dict, field: str) -> int:
    """Index of the player's tile equal to `wanted`, or IllegalMove (at `field`) if not owned."""
    player = state["players"][seat]
    for index, owned in enumerate(player["tiles"]):
        if owned == wanted:
            return index
    refused = IllegalMove(
        N_("{name} owns no £{value} tile of district {district}."),
        name=player["name"],
        value=wanted["value"],
        district=wanted["district"],
    )
    raise at_field(refused, field)


def _discount(value: object) -> int:
    """Extra card discounts on a sale (0 when none)."""
    if value is None:
        return 0
    if not is_int(value) or value < 0:
        raise IllegalMove(
            N_("discount: enter a whole number of pounds of 0 or more, not {value}."),
            value=repr(value),
        )
    return value


def sale_price(state: dict, sold: dict, discount: int) -> int:
    """Face value minus the district marker's £1 and card discounts, never below 0."""
    marker = DISTRICT_DISCOUNT if sold["district"] == state["district"] else 0
    return max(0, sold["value"] - marker - discount)


def exchange_excess(given: dict, taken: dict, limit: int | None) -> int:
    """Pounds the bank pays when an exchange goes past its limit (seed: limit −3, 6 for 1 → £2)."""
    if limit is None:
        return 0
    return max(0, given["value"] - taken["value"] - limit)


def _limit(value: object) -> int | None:
    """The exchange limit as pounds (the board's −3 is 3), or None when the space has none.

    The board prints the limit as a drop in face value (seed: −3, −2), so a positive number
    is refused rather than read as its negative.
    """
    if value is None:
        return None
    if not is_int(value) or value >= 0:
        raise IllegalMove(
            N_("limit: enter the exchange limit printed on the space (e.g. −3), not {value}."),
            value=repr(value),
        )
    return abs(value)


def apply_property(state: dict, seat: int | None, move: dict) -> dict | None:
    """Carry out one property entry; the notice to show, if any.

    `seat` None: the player was refused, so the entry's own fields are only checked (every
    refusal is raised at once) and nothing is carried out.
    """
    unknown = N_("action: unknown property entry {action}; expected one of: {known}.")
    handler = handler_for(move, _ACTIONS, key="action", unknown=unknown, fields=ACTION_FIELDS)
    return handler(state, seat, move)


def _nobody(refusals: list, seat: int | None) -> bool:
    """Raise every refusal of the entry; True when there is no player to carry it out for."""
    raise_all(refusals)
    return seat is None


def _add(state: dict, seat: int | None, move: dict) -> None:
    """Tiles the player receives (the starting set, or a correction)."""
    tiles = move.get("tiles")
    if not isinstance(tiles, list) or not tiles:
        refused = IllegalMove(N_("tiles: enter at least one tile as value/district, e.g. 4/2."))
        raise at_field(refused, "tiles")
    refusals: list = []
    if seat is not None and state["players"][seat]["cash"] < 0:
        # Owning property with cash below 0 is a position the rules never allow.
        refusals.append(
            IllegalMove(
                N_("{name} is in debt; a player who owns property cannot have cash below £0."),
                name=state["players"][seat]["name"],
            )
        )
    received = [collect(refusals, tile, item, state, "tiles") for item in tiles]
    if _nobody(refusals, seat):
        return
    state["players"][seat]["tiles"] += received


def _sell(state: dict, seat: int | None, move: dict) -> None:
    """Sell a tile to the bank."""
    refusals: list = []
    sold = collect(refusals, tile, move.get("tile"), state)
    discount = collect(refusals, _discount, move.get("discount"))
    if seat is not None and sold is not None:
        index = collect(refusals, _owned, state, seat, sold, "tile")
    if _nobody(refusals, seat):
        return
    player = state["players"][seat]
    player["tiles"].pop(index)
    player["cash"] += sale_price(state, sold, discount)


def _exchange(state: dict, seat: int | None, move: dict) -> dict | None:
    """Swap one owned tile for one on the board; the bank pays what exceeds the limit."""
    refusals: list = []
    given = collect(refusals, tile, move.get("give"), state, "give")
    taken = collect(refusals, tile, move.get("take"), state, "take")
    limit = collect(refusals, _limit, move.get("limit"))
    if seat is not None and given is not None:
        index = collect(refusals, _owned, state, seat, given, "give")
    if _nobody(refusals, seat):
        return None
    player = state["players"][seat]
    player["tiles"][index] = taken
    excess = exchange_excess(given, taken, limit)
    player["cash"] += excess
    return {"kind": "exchange_excess", "seat": seat, "paid": excess} if excess else None


def _spend(state: dict, seat: int | None, move: dict) -> dict | None:
    """Return money to the bank; while owning property, at most the cash in hand."""
    amount = _amount(move.get("amount"), "amount")
    if seat is None:
        return None
    player = state["players"][seat]
    if player["tiles"] and amount > player["cash"]:
        spent = max(player["cash"], 0)
        player["cash"] -= spent
        return {"kind": "spent_all", "seat": seat, "spent": spent, "asked": amount}
    player["cash"] -= amount
    return None


def _receive(state: dict, seat: int | None, move: dict) -> None:
    """Money from the bank (a card or space that pays)."""
    amount = _amount(move.get("amount"), "amount")
    if seat is not None:
        state["players"][seat]["cash"] += amount


def _set_cash(state: dict, seat: int | None, move: dict) -> None:
    """Correct the cash to what the player holds; never below 0 while owning property."""
    value = move.get("cash")
    if not is_int(value):
        raise IllegalMove(
            N_("cash: enter a whole number of pounds, not {value}."), value=repr(value)
        )
    if seat is None:
        return
    player = state["players"][seat]
    if value < 0 and player["tiles"]:
        raise IllegalMove(
            N_("{name} still owns property, so their cash cannot go below £0."),
            name=player["name"],
        )
    player["cash"] = value


_ACTIONS = {
    "add": _add,
    "sell": _sell,
    "exchange": _exchange,
    "spend": _spend,
    "receive": _receive,
    "set_cash": _set_cash,
}
#: Every field each property entry takes; any other is refused by name.
ACTION_FIELDS = {
    action: ("type", "seat", "action", *extra)
    for action, extra in {
        "add": ("tiles",),
        "sell": ("tile", "discount"),
        "exchange": ("give", "take", "limit"),
        "spend": ("amount",),
        "receive": ("amount",),
        "set_cash": ("cash",),
    }.items()
}
