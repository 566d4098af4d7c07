"""The Cech zlodějů calculators on the tablet: one robbery, and the final ranking."""

from flask import render_template, request
from werkzeug.datastructures import MultiDict

from companion_app.games import sheet_paths
from companion_app.games.forms import score_posted, whole_number
from companion_app.i18n import translate_error, translate_refusal
from scoring.errors import InvalidSheet
from scoring.thieves_guild.seats import DIE, DIRECTIONS
from scoring.thieves_guild.table import GAME, MAX_PLAYERS

KINDS = ("robbery", "final")
ENDPOINT = "score_thieves_guild"
#: The player fields of each calculator's columns.
PLAYER_FIELDS = {"robbery": ("name", "gold"), "final": ("name", "gold", "cards")}


def _text(form: MultiDict, name: str) -> str:
    """A stripped form field."""
    return form.get(name, "").strip()


def build_sheet(form: MultiDict) -> tuple[dict, list[int]]:
    """The sheet of the submitted calculator and the form column of each sheet player."""
    kind = form.get("kind", "")
    sheet: dict = {"game": GAME, "kind": kind, "players": []}
    columns: list[int] = []
    for column in range(MAX_PLAYERS):
        typed = {key: _text(form, f"p{column}.{key}") for key in PLAYER_FIELDS.get(kind, ())}
        if not any(typed.values()):
            continue
        entry: dict = {key: whole_number(value) for key, value in typed.items()}
        entry["name"] = typed["name"]
        sheet["players"].append(entry)
        columns.append(column)
    if kind == "robbery":
        robber = whole_number(form.get("robber", ""))
        if isinstance(robber, int) and robber in columns:
            sheet["robber"] = sheet["players"][columns.index(robber)]["name"]
        for key in ("loot_roll", "target_roll"):
            sheet[key] = whole_number(form.get(key, ""))
        if form.get("direction"):
            sheet["direction"] = form["direction"]
    return sheet, columns


def _refusal(form: MultiDict, refused: InvalidSheet, columns: list[int]) -> dict:
    """Which field of the posted calculator the refusal belongs to, and its sentences."""
    message = translate_error(refused)
    found = sheet_paths.player_field(str(refused), columns)
    if found and found[1]:
        field = f"p{found[0]}.{found[1].split('.')[0]}"
    else:
        field = sheet_paths.top_key(str(refused)) or "sheet"
    names = [_text(form, f"p{column}.name") for column in columns]
    short = sheet_paths.without_path(message)
    return {"field": field, "short": short, "message": translate_refusal(refused, names)}


def score_form():
    """Show the robbery or the final calculator; on POST score it or say why not."""
    form, result, error = score_posted(build_sheet, _refusal)
    kind = form.get("kind") or request.args.get("kind", "robbery")
    page = render_template(
        "thieves_guild/score.html",
        form=form,
        kind=kind if kind in KINDS else "robbery",
        result=result,
        error=error,
        columns=range(MAX_PLAYERS),
        die=DIE,
        directions=DIRECTIONS,
    )
    return page, (400 if error else 200)


ROUTES = [("/score/thieves_guild", ENDPOINT, score_form, ["GET", "POST"])]
