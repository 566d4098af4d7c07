"""For Sale's score-sheet calculator page (SCORESHEETS.md "For Sale"): checks and coins -> money."""

import re

from flask import render_template
from werkzeug.datastructures import MultiDict

from companion_app.games import sheet_paths
from companion_app.games.forms import score_posted, whole_number
from companion_app.i18n import translate_error, translate_refusal
from scoring.errors import InvalidSheet
from scoring.for_sale import cards

GAME = "for_sale"
ENDPOINT = "score_for_sale"

CHECK_SEPARATORS = re.compile(r"[\s,;]+")


def _checks_typed(text: str) -> list:
    """Checks typed as '15000 0 7000' (commas or spaces); non-numbers stay for the refusal."""
    return [whole_number(part) for part in CHECK_SEPARATORS.split(text.strip()) if part]


def build_sheet(form: MultiDict) -> tuple[dict, list[int]]:
    """The sheet typed into the form, and the form column of each sheet player."""
    players, columns = [], []
    for column in range(cards.MAX_PLAYERS):
        name = form.get(f"p{column}.name", "").strip()
        coins = form.get(f"p{column}.coins", "").strip()
        checks = form.get(f"p{column}.checks", "")
        if not (name or coins or checks.strip()):
            continue
        entry: dict = {"name": name, "checks": _checks_typed(checks)}
        if coins:
            entry["coins"] = whole_number(coins)
        players.append(entry)
        columns.append(column)
    return {"game": GAME, "players": players}, columns


def _refusal(_form: MultiDict, refused: InvalidSheet, columns: list[int]) -> dict:
    """Which form field the refusal belongs to and its sentence without the JSON path."""
    message = translate_error(refused)
    found = sheet_paths.player_field(str(refused), columns)
    # "players[2].checks[1]: ..." belongs to column 2's checks; anything else to the sheet.
    field = f"p{found[0]}.{found[1].split('.')[0]}" if found and found[1] else "sheet"
    names = [_form.get(f"p{column}.name", "").strip() for column in columns]
    short = sheet_paths.without_path(message)
    return {"field": field, "short": short, "message": translate_refusal(refused, names)}


def score_form():
    """The For Sale calculator: type checks and coins, get money, ranks and winners."""
    form, result, error = score_posted(build_sheet, _refusal)
    page = render_template(
        "for_sale/score.html",
        form=form,
        result=result,
        error=error,
        columns=range(cards.MAX_PLAYERS),
    )
    return page, (400 if error else 200)


ROUTES = [("/score/for_sale", ENDPOINT, score_form, ["GET", "POST"])]
