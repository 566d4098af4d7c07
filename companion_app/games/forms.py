"""What every game's forms share: numbers, the version field, the general area, scoring a sheet."""

from collections.abc import Callable

from flask import request
from werkzeug.datastructures import MultiDict

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
        return form, None, refusal(form, refused, columns)
