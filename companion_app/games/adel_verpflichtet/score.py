"""The Adel Verpflichtet calculator form: auction, castle or final (SCORESHEETS.md)."""

import re

from flask import render_template, request
from werkzeug.datastructures import MultiDict

from companion_app.games import sheet_paths
from companion_app.games.adel_verpflichtet.text import clash_text
from companion_app.games.forms import score_posted, whole_number
from companion_app.i18n import translate_error
from scoring.adel_verpflichtet import cards
from scoring.errors import InvalidSheet

ENDPOINT = "score_adel_verpflichtet"
KINDS = ("auction", "castle", "final")
#: A card typed on the calculator: "B1720" or "B 1720".
CARD_TEXT = re.compile(r"([A-Za-z])\s*(\d+)")
#: A prisoner typed as "name:number" ("Bob:3"), cells in order, separated by commas.
PRISONER = re.compile(r"^\s*(.+?)\s*:\s*(\S+)\s*$")
#: The role chips of a player at the castle and at the auction house.
ROLES = {"castle": ("exhibit", "thief", "detective"), "auction": ("check", "thief")}


def typed_cards(text: str) -> list:
    """Cards typed as "A1700 B1710 C 1720"; anything unreadable stays for the refusal."""
    found = [
        {"letter": letter.upper(), "year": int(year)} for letter, year in CARD_TEXT.findall(text)
    ]
    return found if found or not text.strip() else [text.strip()]


def _jail(text: str) -> list:
    """Prisoners "Bob:3, Ann:8", cell 1 first."""
    jail = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        found = PRISONER.match(part)
        jail.append(
            {"owner": found.group(1), "number": whole_number(found.group(2))} if found else part
        )
    return jail


def _kind() -> str:
    """The calculator asked for (`?kind=` or the posted field); castle by default."""
    kind = request.values.get("kind", "castle")
    return kind if kind in KINDS else "castle"


def build_sheet(form: MultiDict) -> tuple[dict, list[int]]:
    """The sheet typed into the form, and the form column of each sheet player."""
    kind = form.get("kind", "castle")
    rows = []
    for column in range(cards.MAX_PLAYERS):
        name = form.get(f"p{column}.name", "").strip()
        if name:
            rows.append((column, name))
    columns = [column for column, _ in rows]
    names = [name for _, name in rows]

    def field(column: int, key: str) -> str:
        return form.get(f"p{column}.{key}", "").strip()

    sheet: dict = {"game": cards.GAME, "kind": kind}
    if kind == "auction":
        sheet["checks"] = {
            name: whole_number(field(c, "value")) for c, name in rows if field(c, "role") == "check"
        }
        sheet["thieves"] = [name for c, name in rows if field(c, "role") == "thief"]
    elif kind == "castle":
        sheet.update(
            players=names,
            positions={name: whole_number(field(c, "position")) for c, name in rows},
            exhibitions={
                name: typed_cards(field(c, "cards"))
                for c, name in rows
                if field(c, "role") == "exhibit"
            },
            thieves={
                name: whole_number(field(c, "value"))
                for c, name in rows
                if field(c, "role") == "thief"
            },
            detectives=[name for c, name in rows if field(c, "role") == "detective"],
            jail=_jail(form.get("jail", "")),
        )
        top, bottom = form.get("top", "").strip(), form.get("bottom", "").strip()
        if top or bottom:
            sheet["fraction"] = [whole_number(top), whole_number(bottom)]
    else:
        sheet["positions"] = {name: whole_number(field(c, "position")) for c, name in rows}
        sheet["hands"] = {name: typed_cards(field(c, "cards")) for c, name in rows}
    return sheet, columns


def _refusal(_form: MultiDict, refused: InvalidSheet, _columns: list[int]) -> dict:
    """The refusal shown above the form, without its JSON path at the field."""
    message = translate_error(refused)
    return {"field": "sheet", "short": sheet_paths.without_path(message), "message": message}


def score_form():
    """The calculator: one castle phase, an auction, or the final exhibition and ranking."""
    form, result, error = score_posted(build_sheet, _refusal)
    page = render_template(
        "adel_verpflichtet/score.html",
        form=form,
        result=result,
        error=error,
        kind=_kind(),
        kinds=KINDS,
        roles=ROLES,
        columns=range(cards.MAX_PLAYERS),
        clash_text=clash_text,
    )
    return page, (400 if error else 200)


ROUTES = [("/score/adel_verpflichtet", ENDPOINT, score_form, ["GET", "POST"])]
