"""What every game's rules share: the seated players, a move's handler, a sheet's names."""

from collections.abc import Callable, Iterable, Mapping

from scoring import names as names_rule
from scoring.errors import N_, IllegalMove, InvalidSetup, RuleError

#: Refusal of a move field its type does not take ({what}: the move type, or type and action).
UNKNOWN_MOVE_FIELD = N_("Unknown field {field} in a move of type {what}; it takes: {known}.")
#: Refusal of a setup field the game does not take.
UNKNOWN_SETUP_FIELD = N_("Unknown setup field {field}; this game takes: {known}.")


def is_int(value: object) -> bool:
    """A whole number; booleans are not numbers here."""
    return isinstance(value, int) and not isinstance(value, bool)


def player_names(names: object, low: int, high: int, wrong_count: str) -> list[str]:
    """Validated, clean names in seat order (scoring.names); `wrong_count`: the {count} message."""
    return names_rule.seat_names(names, low, high, wrong_count)


def handler_for(
    move: object,
    handlers: dict[str, Callable],
    key: str = "type",
    unknown: str = N_("Unknown move type {type}; expected one of: {known}."),
    fields: Mapping[str, tuple[str, ...] | None] | None = None,
) -> Callable:
    """The handler named by the move's `key`, or IllegalMove (`unknown`) naming the known ones.

    With `fields` (handler name -> every field such a move takes, None: checked further on),
    a move carrying any other field is refused by name, so nothing unknown is ever stored.
    """
    if not isinstance(move, dict):
        raise IllegalMove(N_("A move must be an object with a type."))
    name = move.get(key)
    handler = handlers.get(name) if isinstance(name, str) else None
    if handler is None:
        raise IllegalMove(unknown, **{key: repr(name)[:40], "known": ", ".join(handlers)})
    if fields is not None and fields[name] is not None:
        what = name if key == "type" else f"{move.get('type')} {name}"
        only_known_fields(move, fields[name], IllegalMove, UNKNOWN_MOVE_FIELD, what=what)
    return handler


def only_known_fields(
    given: Mapping,
    known: Iterable[str],
    error: type[RuleError] = InvalidSetup,
    template: str = UNKNOWN_SETUP_FIELD,
    **params: object,
) -> None:
    """Refuse (`error`, `template` with {field} and {known}) the first key not in `known`."""
    known = tuple(known)
    for field in given:
        if field not in known:
            shown = names_rule.shown(field) if isinstance(field, str) else repr(field)[:40]
            raise error(template, field=shown, known=", ".join(known), **params)


def sheet_names(players: list[dict]) -> list[str]:
    """A score sheet's player names, clean and each used once (scoring.names; InvalidSheet)."""
    fields = [f"players[{index}].name" for index in range(len(players))]
    return names_rule.sheet_names([player.get("name") for player in players], fields)


def ranks_by(keys: list, lowest_wins: bool = False) -> list[int]:
    """Rank = 1 + the number of players with a strictly better key, so ties share a rank."""
    if lowest_wins:
        return [1 + sum(other < key for other in keys) for key in keys]
    return [1 + sum(other > key for other in keys) for key in keys]


def plain_copy(value: object) -> object:
    """A deep copy of plain JSON data (dicts, lists, scalars), far cheaper than deepcopy."""
    if type(value) is dict:
        return {key: plain_copy(item) for key, item in value.items()}
    if type(value) is list:
        return [plain_copy(item) for item in value]
    return value
