"""Phase 2, selling houses for checks, and the end of the game (RULES.md §2 "Phase 2", "End")."""

from collections import Counter

from scoring.common import ranks_by
from scoring.errors import N_, IllegalMove, at_field, raise_all
from scoring.for_sale import cards
from scoring.for_sale.buying import validate_cards


def holders(state: dict) -> list[int]:
    """Seats still holding houses, in seat order."""
    return [seat for seat, player in enumerate(state["players"]) if player["houses"]]


def checks_left(state: dict) -> int:
    """Checks in play that have not been turned over yet."""
    return state["in_play"] - len(state["checks_seen"])


def checks_due(state: dict) -> int:
    """How many checks the next selling round turns over.

    One per player still holding houses; a lone holder in the variant takes the whole rest
    of the deck (RULES.md §2 variant).
    """
    sellers = len(holders(state))
    return checks_left(state) if sellers == 1 else min(sellers, checks_left(state))


def turn_over(state: dict, checks: object) -> None:
    """Start a selling round with the checks turned over; everyone holding houses chooses."""
    message = N_("Enter the {count} checks turned over.")
    values = validate_cards(checks, checks_due(state), message, field="checks")
    refusals = _unknown_checks(values) + _check_copies(Counter(state["checks_seen"]), values)
    raise_all([at_field(refused, "checks") for refused in refusals])
    state["checks_seen"] = [*state["checks_seen"], *values]
    state["selling_round"] += 1
    sellers = holders(state)
    if len(sellers) == 1:
        _take_rest(state, sellers[0], sorted(values, reverse=True))
    else:
        state["checks_up"] = sorted(values, reverse=True)
        state["phase"] = "reveal"


def _unknown_checks(values: list[int]) -> list[IllegalMove]:
    """A refusal for each value entered that no check has (each value named once)."""
    unknown = [value for value in dict.fromkeys(values) if value not in cards.CHECK_VALUES]
    return [
        IllegalMove(
            N_("There is no check of {check}; checks are 0 and 2,000 to 15,000."),
            check=f"{value:,}",
        )
        for value in unknown
    ]


def _check_copies(seen: Counter, values: list[int]) -> list[IllegalMove]:
    """Each check value exists twice: a refusal for each value entered too often, saying
    whether earlier rounds used them."""
    refusals = []
    entered = Counter(value for value in values if value in cards.CHECK_VALUES)
    for value, count in entered.items():
        if seen[value] + count > cards.COPIES_PER_CHECK:
            refusals.append(_too_many(value, seen[value]))
    return refusals


def _too_many(value: int, seen: int) -> IllegalMove:
    """The refusal of more checks of `value` than are left, after `seen` earlier ones."""
    check = f"{value:,}"
    if seen >= cards.COPIES_PER_CHECK:
        return IllegalMove(N_("Both checks of {check} have already been turned over."), check=check)
    if seen:
        return IllegalMove(
            N_("One check of {check} was turned over in an earlier round; only one is left."),
            check=check,
        )
    return IllegalMove(
        N_("The game has only two checks of {check}; enter each check once."), check=check
    )


def sell(state: dict, houses: object) -> None:
    """Everyone's revealed house: highest house takes the highest check, and so on."""
    chosen = _validate_sale(state, houses)
    order = sorted(
        (seat for seat, house in enumerate(chosen) if house is not None),
        key=lambda seat: chosen[seat],
        reverse=True,
    )
    got: list[list[int]] = [[] for _ in state["players"]]
    for seat, check in zip(order, state["checks_up"], strict=True):
        player = state["players"][seat]
        player["houses"] = [house for house in player["houses"] if house != chosen[seat]]
        player["checks"] = [*player["checks"], check]
        got[seat] = [check]
    state["houses_out"] = sorted([*state["houses_out"], *(h for h in chosen if h is not None)])
    _record(state, list(state["checks_up"]), chosen, got)
    state["checks_up"] = []
    state["phase"] = "selling"
    _maybe_end(state)


#: The sale form's field of one seat's revealed house (a refusal marks that seat's row).
HOUSE_FIELD = "house{seat}"


def _validate_sale(state: dict, houses: object) -> list[int | None]:
    """One house per seat from that player's hand (null for a seat without houses).

    Every seat's entry is checked, so one refusal names each player whose house is wrong.
    """
    players = state["players"]
    if not isinstance(houses, list) or len(houses) != len(players):
        raise IllegalMove(
            N_(
                "List one revealed house per seat ({count} entries, null for a player "
                "without houses)."
            ),
            count=len(players),
        )
    refusals = [
        at_field(refused, HOUSE_FIELD.format(seat=seat))
        for seat, (player, house) in enumerate(zip(players, houses, strict=True))
        if (refused := _sale_refusal(player, house)) is not None
    ]
    raise_all(refusals)
    return houses


def _sale_refusal(player: dict, house: object) -> IllegalMove | None:
    """Why `house` is not a house this player can reveal, or None when it is."""
    if not player["houses"]:
        if house is not None:
            return IllegalMove(N_("{name} has no houses left to sell."), name=player["name"])
    elif house is None:
        return IllegalMove(N_("Enter the house {name} revealed."), name=player["name"])
    elif type(house) is not int or house not in player["houses"]:
        return IllegalMove(
            N_("{name} does not hold house {house}; {name} holds {hand}."),
            name=player["name"],
            house=str(house)[:12],
            hand=", ".join(str(h) for h in player["houses"]),
        )
    return None


def _take_rest(state: dict, seat: int, checks: list[int]) -> None:
    """The lone holder takes every remaining check; their unsold houses stay in hand."""
    player = state["players"][seat]
    player["checks"] = [*player["checks"], *checks]
    got: list[list[int]] = [[] for _ in state["players"]]
    got[seat] = list(checks)
    _record(state, list(checks), [None] * len(state["players"]), got)
    _maybe_end(state)


def _record(state: dict, checks: list[int], houses: list, got: list[list[int]]) -> None:
    """Append this selling round to the record (for results and the history)."""
    entry = {"round": state["selling_round"], "checks": checks, "houses": list(houses), "got": got}
    state["sales"] = [*state["sales"], entry]


def _maybe_end(state: dict) -> None:
    """The game ends once every check is handed out (or nobody holds a house)."""
    if checks_left(state) == 0 or not holders(state):
        state["phase"] = "game_over"
        state["ranks"] = ranks(state["players"])


def money(player: dict) -> int:
    """Checks plus coins at $1,000 (RULES.md §2 "End")."""
    return sum(player["checks"]) + (player["coins"] + player["bid"]) * cards.COIN_VALUE


def ranks(players: list[dict]) -> list[int]:
    """1 + players strictly richer, where more coins break a tie of money (then shared)."""
    keys = [(money(player), player["coins"] + player["bid"]) for player in players]
    return ranks_by(keys)
