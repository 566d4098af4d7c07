"""The score-sheet calculator: one JSON sheet in, one JSON result out (SCORESHEETS.md)."""

from collections.abc import Callable, Iterator

from scoring.errors import N_, InvalidSheet
from scoring.games import game_names, get_game

#: Deepest a value may sit in a sheet (Klub's final sheet goes 5 deep: players, a player,
#: property, tiles, a face value); deeper input is refused before any calculator reads it.
MAX_DEPTH = 6
#: Largest number a sheet may hold; no count, check or score comes near it, and results stay
#: short enough to print (Python refuses to print integers of more than 4,300 digits).
MAX_NUMBER = 10**9
#: Digits of a refused number shown in the message.
SHOWN_DIGITS = 12


def calculators() -> dict[str, Callable[[dict], dict]]:
    """The calculator of each game whose rules package exports `score_sheet`."""
    found = {name: getattr(get_game(name), "score_sheet", None) for name in game_names()}
    return {name: calculator for name, calculator in found.items() if calculator is not None}


def calculator_names() -> list[str]:
    """Names of the games this calculator scores."""
    return sorted(calculators())


def score_sheet(sheet: object) -> dict:
    """Score a sheet with its game's calculator, or raise InvalidSheet naming the problem."""
    if not isinstance(sheet, dict):
        raise InvalidSheet(
            N_("sheet: must be a JSON object with a game key; this calculator scores: {games}."),
            games=", ".join(calculator_names()),
        )
    if "game" not in sheet:
        raise InvalidSheet(
            N_("game: missing; this calculator scores: {games}."),
            games=", ".join(calculator_names()),
        )
    _check_shape(sheet)
    game = sheet["game"]
    # Only the named game's rules are imported, so one game's sheet never depends on another's.
    calculator = getattr(get_game(game), "score_sheet", None) if game in game_names() else None
    if calculator is None:
        raise InvalidSheet(
            N_("Unknown game {game}; this calculator scores: {games}."),
            game=repr(game),
            games=", ".join(calculator_names()),
        )
    return calculator(sheet)


def _walk(sheet: dict) -> Iterator[tuple[str, int, object]]:
    """(path, depth, value) of every value below the sheet, without recursion."""
    pending: list[tuple[str, int, object]] = [("", 0, sheet)]
    while pending:
        path, depth, value = pending.pop()
        yield path, depth, value
        if isinstance(value, dict):
            for key, item in value.items():
                pending.append((_key_path(path, key), depth + 1, item))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                pending.append((f"{path}[{index}]", depth + 1, item))


def _key_path(path: str, key: str) -> str:
    """The path of an object's member ("players[0].cars"); odd keys shown as [?]."""
    plain = key if isinstance(key, str) and key.isascii() and key.isidentifier() else "[?]"
    return f"{path}.{plain}" if path else plain


def _check_shape(sheet: dict) -> None:
    """Refuse nesting deeper than MAX_DEPTH and numbers beyond MAX_NUMBER, naming the field."""
    for path, depth, value in _walk(sheet):
        if depth > MAX_DEPTH:
            raise InvalidSheet(
                N_("{field}: nested too deeply; a sheet holds values at most {limit} levels deep."),
                field=path,
                limit=MAX_DEPTH,
            )
        if isinstance(value, int | float) and not isinstance(value, bool):
            if abs(value) > MAX_NUMBER:
                raise InvalidSheet(
                    N_("{field}: {value} is too large; numbers on a sheet lie within ±{limit}."),
                    field=path,
                    value=_shown_number(value),
                    limit=MAX_NUMBER,
                )


def _shown_number(value: int | float) -> str:
    """A number as a message shows it: whole if short, else its first digits and length."""
    try:
        text = repr(value)
    except ValueError:  # more digits than Python prints (sys.get_int_max_str_digits)
        return "a number of thousands of digits"
    digits = len(text.lstrip("-"))
    return text if digits <= SHOWN_DIGITS else f"{text[:SHOWN_DIGITS]}... ({digits} digits)"
