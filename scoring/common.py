"""What every game's rules share: the seated players, a move's handler, a sheet's names."""

from collections.abc import Callable

from scoring.errors import N_, IllegalMove, InvalidSetup, InvalidSheet

#: Longest player name; longer ones would break the table layouts and printouts.
MAX_NAME_LENGTH = 40


def player_names(names: object, low: int, high: int, wrong_count: str) -> list[str]:
    """Validated, stripped names in seat order; `wrong_count` is the game's {count} message."""
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise InvalidSetup(N_("players must be a list of names."))
    names = [name.strip() for name in names]
    if not low <= len(names) <= high:
        raise InvalidSetup(wrong_count, count=len(names))
    for name in names:
        if not name:
            raise InvalidSetup(N_("Every player needs a name."))
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidSetup(
                N_("The name {name} is longer than {limit} characters."),
                name=name[:MAX_NAME_LENGTH] + "...",
                limit=MAX_NAME_LENGTH,
            )
    if len({name.casefold() for name in names}) != len(names):
        raise InvalidSetup(N_("Two players have the same name; names must differ."))
    return names


def handler_for(
    move: object,
    handlers: dict[str, Callable],
    key: str = "type",
    unknown: str = N_("Unknown move type {type}; expected one of: {known}."),
) -> Callable:
    """The handler named by the move's `key`, or IllegalMove (`unknown`) naming the known ones."""
    if not isinstance(move, dict):
        raise IllegalMove(N_("A move must be an object with a type."))
    name = move.get(key)
    handler = handlers.get(name) if isinstance(name, str) else None
    if handler is None:
        raise IllegalMove(unknown, **{key: repr(name)[:40], "known": ", ".join(handlers)})
    return handler


def sheet_names(players: list[dict]) -> list[str]:
    """A score sheet's player names: non-empty texts, each used once (InvalidSheet if not)."""
    seen: dict[str, int] = {}
    for index, player in enumerate(players):
        name = player.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InvalidSheet(
                N_("players[{index}].name: must be a non-empty text, not {name}."),
                index=index,
                name=repr(name)[:40],
            )
        if name in seen:
            raise InvalidSheet(
                N_("players[{index}].name: {name} is already the name of players[{other}]."),
                index=index,
                name=repr(name),
                other=seen[name],
            )
        seen[name] = index
    return list(seen)


def ranks_by(keys: list, lowest_wins: bool = False) -> list[int]:
    """Rank = 1 + the number of players with a strictly better key, so ties share a rank."""
    if lowest_wins:
        return [1 + sum(other < key for other in keys) for key in keys]
    return [1 + sum(other > key for other in keys) for key in keys]
