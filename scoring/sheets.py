"""The score-sheet calculator: one JSON sheet in, one JSON result out (SCORESHEETS.md)."""

from collections.abc import Callable

from scoring.errors import N_, InvalidSheet
from scoring.razzia.sheet import score_razzia_sheet

#: The calculator of each game that has one; more games arrive later.
CALCULATORS: dict[str, Callable[[dict], dict]] = {"razzia": score_razzia_sheet}


def calculator_names() -> list[str]:
    """Names of the games this calculator scores."""
    return sorted(CALCULATORS)


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
    if not isinstance(game, str) or game not in CALCULATORS:
        raise InvalidSheet(
            N_("Unknown game {game}; this calculator scores: {games}."),
            game=repr(game),
            games=scored,
        )
    return CALCULATORS[game](sheet)
