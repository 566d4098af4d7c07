"""What every game's forms share: numbers, the version field, the general area, scoring a sheet."""

import re
from collections.abc import Callable

from flask import request, session
from werkzeug.datastructures import MultiDict

from companion_app.games.sheet_errors import every_refusal
from scoring.errors import InvalidSheet
from scoring.sheets import score_sheet

#: A calculator's reader: the posted form -> (the sheet, the form column of each sheet player).
SheetBuilder = Callable[[MultiDict], tuple[dict, list[int]]]
#: A calculator's refusal: (form, refusal, columns) -> {"field", "short", "message"}.
Refusal = Callable[[MultiDict, InvalidSheet, list[int]], dict]

#: Refusals of moves no panel claims go to the top of the page.
GENERAL_AREA = "general"
#: A version no table has: a form without a readable version is refused as stale.
UNREADABLE_VERSION = -1


def whole_number(text: str | None) -> int | str | None:
    """An int if the text is one; otherwise the text itself, for the rules to refuse by name."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def parse_version(form: MultiDict) -> int:
    """The table version the form was rendered at."""
    version = whole_number(form.get("version"))
    return version if isinstance(version, int) else UNREADABLE_VERSION


def score_posted(
    build_sheet: SheetBuilder, refusal: Refusal
) -> tuple[MultiDict, dict | None, dict | None]:
    """(form, result, error) of a calculator: empty on GET; on POST the sheet scored or refused."""
    if request.method != "POST":
        return MultiDict(), None, None
    form = request.form
    sheet, columns = build_sheet(form)
    try:
        return form, score_sheet(sheet), None
    except InvalidSheet as refused:
        return form, None, every_error(form, sheet, refused, columns, refusal)


def every_error(
    form: MultiDict, sheet: dict, refused: InvalidSheet, columns: list[int], refusal: Refusal
) -> dict:
    """The first refusal as the form shows it, with `all` of them and their `fields`.

    A form shows all its errors at once; one per field (a field's follow-ups are dropped).
    """
    shown: list[dict] = []
    for each in every_refusal(sheet, refused):
        entry = refusal(form, each, columns)
        if all(entry["field"] != other["field"] for other in shown):
            shown.append(entry)
    return {**shown[0], "all": shown, "fields": [entry["field"] for entry in shown]}


# -- a refused move's entry, kept for the page that shows the refusal ------------------------

#: The session key of the last refused move form (one at a time: the page shows it once).
KEPT_KEY = "kept_entry"
#: Hidden fields every move form posts; the page draws them afresh, so they are not kept.
NOT_KEPT = ("version", "type")
#: Longest value kept, and most characters kept in all: the session cookie (about 4 kB) holds
#: the entry, and no real move form comes near either.
KEPT_CHARS = 200
KEPT_TOTAL = 1500
#: A refusal that starts with a field name ("delta: ...", "players[0].checks: ...").
FIELD_PREFIX = re.compile(r"^\s*([a-z_]+)(?:\[\d+\])?[.:\[]")


class KeptEntry:
    """What a refused move form held, so its panel shows it again with the bad field marked."""

    def __init__(self, area: str = "", fields: dict | None = None, named: list | None = None):
        self.area = area
        self.fields = MultiDict(
            [(name, value) for name, values in (fields or {}).items() for value in values]
        )
        self.named = list(named or [])

    def of(self, area: str) -> MultiDict:
        """The kept fields when `area` is the panel of the refused form, else nothing."""
        return self.fields if area == self.area else MultiDict()

    def invalid(self, area: str, name: str) -> bool:
        """Whether a refusal names this field of this panel's form."""
        return area == self.area and name in self.named


def refused_field(refused: Exception) -> str | None:
    """The form field a refusal names, from its English template ("delta: enter ...")."""
    named = getattr(refused, "field", None)
    if named:
        return str(named)
    found = FIELD_PREFIX.match(getattr(refused, "template", "") or str(refused))
    return found.group(1) if found else None


def keep_refused(table_id: str, area: str, form: MultiDict, refused: Exception) -> None:
    """Remember the refused form and the fields its refusals name, for the table's next page."""
    fields: dict[str, list[str]] = {}
    room = KEPT_TOTAL
    for name in form:
        values = (
            [value[:KEPT_CHARS] for value in form.getlist(name)] if name not in NOT_KEPT else []
        )
        room -= len(name) + sum(len(value) for value in values)
        if values and room >= 0:
            fields[name] = values
    session[KEPT_KEY] = {
        "table": table_id,
        "area": area,
        "fields": fields,
        "named": [refused_field(each) for each in (refused, *getattr(refused, "others", []))],
    }


def kept_entry(table_id: str) -> KeptEntry:
    """The refused entry of this table, once (the next page starts empty again)."""
    kept = session.get(KEPT_KEY)
    if not kept or kept.get("table") != table_id:
        return KeptEntry()
    session.pop(KEPT_KEY)
    return KeptEntry(kept.get("area", ""), kept.get("fields"), kept.get("named"))
