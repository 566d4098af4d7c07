"""The score-sheet calculator: one JSON sheet in, one JSON result out (SCORESHEETS.md)."""

from collections.abc import Callable

from scoring.errors import N_, InvalidSheet
from scoring.games import game_names, get_game


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
