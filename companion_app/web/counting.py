"""The organiser's one tap that counts a table for the club, or takes it out (docs/club.md).

A game started on a device the club does not know (not this computer, the organiser's or a
club tablet) stays in the archive but moves no ratings, statistics or standings until the
organiser counts it; any counted table can be un-counted the same way. Both bump the store's
club generation, so ratings and standings kept in memory follow at once.
"""

from datetime import UTC, datetime

from flask import redirect, request, url_for

from companion_app.store import counted, db, get_store
from companion_app.store import league as stored

#: The form field naming the page to go back to: the results page, else the table's evening.
BACK = "back"


def _now() -> str:
    """The current UTC time as sortable ISO text."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _back(table_id: str):
    """Back to the page the tap came from: the results page, or the table's evening."""
    if request.form.get(BACK) == "results" and get_store().get(table_id).finished:
        return redirect(url_for("web.results", table_id=table_id), code=303)
    evening = stored.table_evening(db.get_db(), table_id)
    return redirect(url_for("club.evening", evening_id=evening.id) + f"#t-{table_id}", code=303)


def count_table(table_id: str):
    """The organiser counts the table (an unknown one: 404; an abandoned one: 400)."""
    conn = db.get_db()
    with db.write_transaction(conn):
        counted.count(conn, table_id, _now())
    return _back(table_id)


def uncount_table(table_id: str):
    """The organiser takes the table out of the ratings, statistics and standings."""
    conn = db.get_db()
    with db.write_transaction(conn):
        counted.uncount(conn, table_id)
    return _back(table_id)


def table_counted(table_id: str) -> bool:
    """True if the table counts for the club (for the results page)."""
    return counted.how_counted(db.get_db(), table_id) is not None
