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
    scored = ", ".join(calculator_names())
    if not isinstance(sheet, dict):
        raise InvalidSheet(
            N_("sheet: must be a JSON object with a game key; this calculator scores: {games}."),
            games=scored,
        )
    if "game" not in sheet:
        raise InvalidSheet(N_("game: missing; this calculator scores: {games}."), games=scored)
    game = sheet["game"]
    known = calculators()
    if not isinstance(game, str) or game not in known:
        raise InvalidSheet(
            N_("Unknown game {game}; this calculator scores: {games}."),
            game=repr(game),
            games=scored,
        )
    return known[game](sheet)
