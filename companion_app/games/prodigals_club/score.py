"""The Klub ztroskotanců calculators on the tablet: final standings, Hyde Park, handicaps."""

import re

from flask import render_template
from werkzeug.datastructures import MultiDict

from companion_app.games import sheet_paths
from companion_app.games.forms import score_posted, whole_number
from companion_app.i18n import translate_error, translate_refusal
from scoring.errors import InvalidSheet
from scoring.prodigals_club.board import (
    COMPETITIONS,
    GAME,
    HYDE_PARK_PLACES,
    MAX_PLAYERS,
    PLAYABLE,
)

KINDS = ("final", "hyde_park", "handicaps")


def _text(form: MultiDict, name: str) -> str:
    """A stripped form field."""
    return form.get(name, "").strip()


def _number_list(text: str) -> list:
    """Face values typed as "4 2 5" (or with commas)."""
    return [whole_number(part) for part in re.split(r"[\s,;]+", text) if part]


def _final_player(form: MultiDict, column: int, playing: list[str]) -> dict | None:
    """One player's entry of the final sheet, or None for a blank column."""
    prefix = f"f{column}."
    keys = ("name", "cash", "tiles", "properties", *COMPETITIONS)
    typed = {key: _text(form, prefix + key) for key in keys}
    if not any(typed.values()):
        return None
    entry: dict = {"name": typed["name"]}
    for name in playing:
        if name == "property":
            entry[name] = {
                "cash": whole_number(typed["cash"]),
                "tiles": _number_list(typed["tiles"]),
            }
        elif name == "legacy":
            # One cash field serves property or Legacy: a sheet never has both.
            entry[name] = {
                "cash": whole_number(typed["cash"]),
                "properties": _number_list(typed["properties"]),
            }
        else:
            entry[name] = whole_number(typed[name])
    return entry


def build_sheet(form: MultiDict) -> tuple[dict, list[int]]:
    """The sheet of the submitted calculator and the form column of each sheet player."""
    kind = form.get("kind", "")
    sheet: dict = {"game": GAME, "kind": kind}
    columns: list[int] = []
    if kind == "final":
        playing = [name for name in PLAYABLE if name in form.getlist("competition")]
        sheet["competitions"] = form.getlist("competition")
        sheet["players"] = []
        for column in range(MAX_PLAYERS):
            entry = _final_player(form, column, playing)
            if entry is not None:
                sheet["players"].append(entry)
                columns.append(column)
    elif kind == "hyde_park":
        sheet["losses"] = [whole_number(_text(form, f"loss{p}")) for p in range(HYDE_PARK_PLACES)]
        rows = [
            (_text(form, f"h{i}.name"), _text(form, f"h{i}.megaphones")) for i in range(MAX_PLAYERS)
        ]
        sheet["megaphones"] = {name: whole_number(count) for name, count in rows if name or count}
    elif kind == "handicaps":
        sheet["competitions"] = form.getlist("hcompetition")
        sheet["order"] = [name for i in range(MAX_PLAYERS) if (name := _text(form, f"order{i}"))]
    return sheet, columns


def error_field(message: str, kind: str, columns: list[int]) -> str:
    """The form input a calculator message names (e.g. "f1.cash"), else its top-level key."""
    found = sheet_paths.player_field(message, columns)
    if kind == "final" and found:
        column, path = found[0], found[1] or "name"
        # "property.cash", "legacy.properties" are inputs; "election", "society" one input each.
        nested = path.startswith(("property.", "legacy."))
        leaf = path.split(".")[-1] if nested else path.split(".")[0]
        return f"f{column}.{leaf}"
    return f"{kind}.{sheet_paths.top_key(message) or 'sheet'}"


def _refusal(form: MultiDict, refused: InvalidSheet, columns: list[int]) -> dict:
    """Which field of the posted calculator the refusal belongs to, and its sentences."""
    message = translate_error(refused)
    names = [_text(form, f"f{column}.name") for column in columns]
    return {
        "field": error_field(str(refused), form.get("kind", "final"), columns),
        "message": translate_refusal(refused, names),
        "short": sheet_paths.without_path(message),
    }


def score_form():
    """Show the three calculators; on POST score the submitted one or say why not."""
    form, result, error = score_posted(build_sheet, _refusal)
    kind = form.get("kind", "final")
    page = render_template(
        "prodigals_club/score.html",
        form=form,
        kind=kind,
        result=result,
        error=error,
        columns=range(MAX_PLAYERS),
        competitions=COMPETITIONS,
        final_competitions=PLAYABLE,
        places=range(HYDE_PARK_PLACES),
    )
    return page, (400 if error else 200)
