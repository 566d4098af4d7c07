"""The score-sheet calculator page: a form that builds a Razzia! sheet and shows its breakdown."""

import re

from flask import render_template
from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from companion_app.games import sheet_paths
from companion_app.games.forms import score_posted
from companion_app.i18n import labels, translate_error
from scoring.errors import InvalidSheet
from scoring.razzia import cards
from scoring.razzia.sheet import COUNT_FIELDS

#: Columns on the form; blank columns are left out of the sheet.
PLAYER_COLUMNS = cards.MAX_PLAYERS
ROUNDS = range(1, cards.ROUNDS + 1)
#: Every check that exists in the box; the calculator refuses the ones not in play.
CHECK_VALUES = tuple(sorted(cards.checks_in_play(cards.MAX_PLAYERS)))
#: A form input name "p2.jewelry.ring" -> column 2, path "jewelry.ring".
COLUMN_FIELD = re.compile(r"^p(\d+)\.(.+)$")


def field_name(column: int, path: str) -> str:
    """The form input name of a player field, e.g. `p1.jewelry.ring`."""
    return f"p{column}.{path}"


def _number(text: str) -> int | str:
    """A typed count as an int; anything else stays text for the calculator to refuse."""
    try:
        return int(text)
    except ValueError:
        return text


def _counts(form: MultiDict, column: int, prefix: str, kinds: tuple[str, ...]) -> dict:
    """The filled-in counts of one group of fields (e.g. jewelry kinds)."""
    typed = {kind: form.get(field_name(column, f"{prefix}{kind}"), "").strip() for kind in kinds}
    return {kind: _number(text) for kind, text in typed.items() if text}


def _player(form: MultiDict, column: int, round_no: object) -> dict | None:
    """One player's sheet entry, or None when the whole column is blank."""
    entry: dict = {"name": form.get(field_name(column, "name"), "").strip()}
    entry.update(_counts(form, column, "", tuple(COUNT_FIELDS)))
    for group, kinds in (("jewelry", cards.JEWELRY), ("businesses", cards.BUSINESSES)):
        found = _counts(form, column, f"{group}.", kinds)
        if found:
            entry[group] = found
    checks = [_number(value) for value in form.getlist(field_name(column, "checks"))]
    if len(entry) == 1 and not entry["name"] and not checks:
        return None
    if checks or round_no == cards.ROUNDS:
        entry["checks"] = checks
    return entry


def build_sheet(form: MultiDict) -> tuple[dict, list[int]]:
    """The sheet typed into the form, and the form column of each sheet player."""
    round_no = _number(form.get("round", "").strip())
    players, columns = [], []
    for column in range(PLAYER_COLUMNS):
        entry = _player(form, column, round_no)
        if entry is not None:
            players.append(entry)
            columns.append(column)
    return {"game": "razzia", "round": round_no, "players": players}, columns


def _field_label(form: MultiDict, field: str) -> str | None:
    """Who and what a player field is, for the summary ("Elke · gold coins")."""
    found = COLUMN_FIELD.match(field)
    if not found:
        return None
    column, path = int(found.group(1)), found.group(2)
    who = form.get(field_name(column, "name"), "").strip() or gettext(
        "Player %(number)s", number=column + 1
    )
    kind = COUNT_FIELDS.get(path) or path.rpartition(".")[2]
    what = labels.KINDS.get(kind) or labels.CATEGORIES.get(kind) or gettext("Name")
    return f"{who} · {what}"


def _refusal(form: MultiDict, refused: InvalidSheet, columns: list[int]) -> dict:
    """Where the refusal goes on the form and how it reads there and in the summary."""
    field = error_field(str(refused), columns)
    message = translate_error(refused)
    short = sheet_paths.without_path(message)
    where = _field_label(form, field)
    return {"field": field, "short": short, "message": f"{where}: {short}" if where else message}


def error_field(message: str, columns: list[int]) -> str:
    """The form input an InvalidSheet message names, or the top-level key it names."""
    found = sheet_paths.player_field(message, columns)
    if found:
        column, path = found
        return field_name(column, path or "name")
    return sheet_paths.top_key(message) or "sheet"


def score_form():
    """Show the calculator; on POST score the typed sheet or show why it is refused."""
    form, result, error = score_posted(build_sheet, _refusal)
    return render_template(
        "razzia/score.html",
        form=form,
        result=result,
        error=error,
        columns=range(PLAYER_COLUMNS),
        rounds=ROUNDS,
        count_fields=COUNT_FIELDS,
        check_values=CHECK_VALUES,
        jewelry=cards.JEWELRY,
        businesses=cards.BUSINESSES,
        field_name=field_name,
    ), (400 if error else 200)
