"""Which evening a table belongs to, and the organiser's move of it to another (docs/club.md).

A game entered the next morning, or a table started on the wrong day, lands in the wrong
evening; the organiser moves it with one tap on the evening's chip, or picks a day for a new
evening. The evening's and the seasons' standings, printouts and CSV follow at once.
"""

from datetime import date, datetime

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext

from companion_app.i18n import translate_error
from companion_app.store import db, get_store, roster
from companion_app.store import league as stored
from companion_app.web.league import evening_label
from companion_app.web.refusals import FORM_REFUSALS, refusal_status
from companion_app.web.results import title_of
from scoring.errors import N_, at_field
from scoring.league.evenings import chosen_day, evening_day
from scoring.league.roster import RosterError

#: Evenings offered as chips: those nearest the table's (a date picker reaches any other day).
CHIPS = 12
#: SQLite's integers end below this: a larger evening id is no evening.
MAX_ID = 2**63
#: The flash category of the sentence the evening page shows after a move.
MOVED = "moved"

NOTHING_CHOSEN = N_("Choose an evening, or a day for a new one.")
BOTH_CHOSEN = N_("Choose either an evening or a day, not both.")


def latest_day() -> date:
    """Today's evening in the club's time: no table can move to a later one."""
    return evening_day(datetime.now().astimezone())


def _nearest(evenings: list[stored.Evening], current: stored.Evening) -> list[stored.Evening]:
    """The other evenings nearest the table's, the latest first among equally near."""
    others = [each for each in evenings if each.id != current.id]
    others.sort(key=lambda each: (abs((each.day - current.day).days), -each.day.toordinal()))
    return others[:CHIPS]


def describe(table) -> str:
    """A table in words: its game and players (Razzia! (Ann, Bob, Cid))."""
    names = ", ".join(person.name for person in roster.seated(db.get_db(), table.id))
    return f"{title_of(table.game)} ({names})" if names else title_of(table.game)


def page(table_id: str, error: Exception | None = None):
    """The table's evening; for the organiser, the chips and the day picker that move it."""
    table = get_store().get(table_id)  # an unknown table: 404 with its sentence
    conn = db.get_db()
    current = stored.table_evening(conn, table_id)
    body = render_template(
        "club/table_evening.html",
        table=table,
        description=describe(table),
        current=current,
        chips=_nearest(stored.evenings(conn), current),
        evening_label=evening_label,
        latest=latest_day().isoformat(),
        error=error,
        message=None if error is None else translate_error(error),
    )
    return body, (200 if error is None else refusal_status(error))


def _target(form) -> int | date:
    """The evening (id) or the day (date) the posted form chose, or RosterError at its field."""
    chosen = form.get("evening", "").strip()
    typed = form.get("day", "").strip()
    if chosen and typed:
        raise at_field(RosterError(BOTH_CHOSEN), "evening")
    if chosen:
        digits = chosen.isascii() and chosen.isdigit() and len(chosen) <= len(str(MAX_ID))
        if not digits or int(chosen) >= MAX_ID:
            raise at_field(RosterError(stored.NO_EVENING), "evening")
        return int(chosen)
    if typed:
        try:
            return chosen_day(typed, latest_day())
        except RosterError as refused:
            raise at_field(refused, "day") from None
    raise at_field(RosterError(NOTHING_CHOSEN), "evening")


def move(table_id: str):
    """The organiser moves the table; the evening it joined shows it, saying where from."""
    table = get_store().get(table_id)  # an unknown table: 404 with its sentence
    conn = db.get_db()
    try:
        target = _target(request.form)
        with db.write_transaction(conn):
            left, joined = stored.move_table(conn, table_id, target)
    except FORM_REFUSALS as refused:
        if not hasattr(refused, "field"):
            at_field(refused, "evening")
        return page(table_id, refused)
    if joined != left.id:
        text = gettext(
            "%(table)s moved here from %(evening)s.",
            table=describe(table),
            evening=evening_label(left),
        )
        flash(text, MOVED)
    return redirect(url_for("club.evening", evening_id=joined), code=303)


def table_evening(table_id: str):
    """GET: the table's evening and the move controls; POST: the organiser's move."""
    if request.method == "POST":
        return move(table_id)
    return page(table_id)
