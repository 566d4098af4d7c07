"""Which finished games the club stands behind, and the club tablets the organiser let in.

A table is counted (its game moves ratings, statistics and standings) when this computer, the
organiser or a club tablet created it, decided in the transaction that creates it, or when
the organiser counts it later with one tap; the organiser may un-count any table. Every table
that existed when this module first ran counts (how 'upgrade'): the club saw those games
before the rule. Docs: docs/club.md "Which games count".
"""

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from flask import current_app, has_request_context

from companion_app.store import finished
from companion_app.store.model import TableNotFound, moment
from scoring.errors import N_
from scoring.league.roster import RosterError
from scoring.names import check_text

HOST, TABLET, ORGANISER, UPGRADE = "host", "tablet", "organiser", "upgrade"
#: Who may create a counted table, as the request's rights see it: (how, tablet id) or None.
CREATOR_HOOK = "companion_counted_creator"
MAX_TABLET_NAME = 40

ABANDONED = N_("This table was abandoned; it counts for nothing.")
NO_TABLET = N_("There is no such club tablet.")
TABLET_TAKEN = N_("This club tablet link was already used; the organiser can make a new one.")
TABLET_REVOKED = N_("The organiser revoked this club tablet; ask for a new link.")
TABLET_NAME = N_("The tablet's name {text} contains {char}; remove it.")
TABLET_NAME_LONG = N_("A tablet's name can be at most {limit} characters long.")


class CountError(RosterError):
    """A counting or club tablet change refused, with the reason."""


@dataclass(frozen=True)
class Tablet:
    """A club tablet: its name, when it was let in, taken by its device and revoked."""

    id: int
    name: str
    created_at: datetime
    taken_at: datetime | None
    revoked_at: datetime | None

    @property
    def active(self) -> bool:
        """True while its device's new tables count."""
        return self.taken_at is not None and self.revoked_at is None


def follow_create(conn: sqlite3.Connection, table_id: str, now: str) -> None:
    """Count a new table when whoever creates it is trusted (this computer, the organiser, a
    club tablet); code running without a request is this computer's (CLI, scripts)."""
    creator = _creator(conn)
    if creator is not None:
        how, tablet = creator
        _mark(conn, table_id, how, now, tablet)


def _creator(conn: sqlite3.Connection) -> tuple[str, int | None] | None:
    """(how, tablet id) of the request creating a table, or None when nobody trusted does."""
    if not has_request_context():
        return HOST, None
    hook: Callable | None = current_app.extensions.get(CREATOR_HOOK)
    return None if hook is None else hook(conn)


def _mark(conn: sqlite3.Connection, table_id: str, how: str, now: str, tablet=None) -> None:
    """Count a table (keeping the first reason it counted for)."""
    conn.execute(
        "INSERT OR IGNORE INTO counted_tables (table_id, how, tablet_id, at) VALUES (?, ?, ?, ?)",
        (table_id, how, tablet, now),
    )


def _open_table(conn: sqlite3.Connection, table_id: str) -> None:
    """Refuse an unknown table (TableNotFound) or an abandoned one (CountError)."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM abandoned_tables WHERE table_id = tables.id) AS abandoned"
        " FROM tables WHERE id = ?",
        (table_id,),
    ).fetchone()
    if row is None:
        raise TableNotFound(table_id)
    if row["abandoned"]:
        raise CountError(ABANDONED)


def count(conn: sqlite3.Connection, table_id: str, now: str) -> bool:
    """The organiser counts a table; True if it was not counted before."""
    _open_table(conn, table_id)
    if how_counted(conn, table_id) is not None:
        return False
    _mark(conn, table_id, ORGANISER, now)
    finished.bump(conn)
    return True


def uncount(conn: sqlite3.Connection, table_id: str) -> bool:
    """The organiser takes a table out of what counts; True if it was counted."""
    _open_table(conn, table_id)
    gone = conn.execute("DELETE FROM counted_tables WHERE table_id = ?", (table_id,)).rowcount
    if gone:
        finished.bump(conn)
    return bool(gone)


def how_counted(conn: sqlite3.Connection, table_id: str) -> str | None:
    """Why a table counts ('host', 'tablet', 'organiser', 'upgrade'), or None."""
    row = conn.execute("SELECT how FROM counted_tables WHERE table_id = ?", (table_id,)).fetchone()
    return None if row is None else row["how"]


def counted_among(conn: sqlite3.Connection, table_ids: Iterable[str]) -> set[str]:
    """Those of `table_ids` that count."""
    wanted = list(table_ids)
    if not wanted:
        return set()
    marks = ",".join("?" * len(wanted))
    rows = conn.execute(
        f"SELECT table_id FROM counted_tables WHERE table_id IN ({marks})", wanted
    ).fetchall()
    return {row["table_id"] for row in rows}


def new_tablet(conn: sqlite3.Connection, text: object, now: str) -> int:
    """A club tablet waiting for its device to take the link; its id."""
    name = check_text(text if isinstance(text, str) else "", CountError, TABLET_NAME)
    if len(name) > MAX_TABLET_NAME:
        raise CountError(TABLET_NAME_LONG, limit=MAX_TABLET_NAME)
    cursor = conn.execute("INSERT INTO club_tablets (name, created_at) VALUES (?, ?)", (name, now))
    return int(cursor.lastrowid)


def tablet(conn: sqlite3.Connection, tablet_id: object) -> Tablet:
    """One club tablet, or CountError."""
    row = None
    if isinstance(tablet_id, int):
        row = conn.execute("SELECT * FROM club_tablets WHERE id = ?", (tablet_id,)).fetchone()
    if row is None:
        raise CountError(NO_TABLET)
    return _tablet(row)


def _tablet(row: sqlite3.Row) -> Tablet:
    """A Tablet from its row."""
    return Tablet(
        row["id"],
        row["name"],
        datetime.fromisoformat(row["created_at"]),
        moment(row["taken_at"]),
        moment(row["revoked_at"]),
    )


def tablets(conn: sqlite3.Connection) -> list[Tablet]:
    """Every club tablet, the newest first (revoked ones too: the club page lists them)."""
    rows = conn.execute("SELECT * FROM club_tablets ORDER BY created_at DESC, id DESC")
    return [_tablet(row) for row in rows]


def take_tablet(conn: sqlite3.Connection, tablet_id: int, now: str) -> Tablet:
    """The device that opened a tablet's link takes it (once); refused when used or revoked."""
    found = tablet(conn, tablet_id)
    if found.revoked_at is not None:
        raise CountError(TABLET_REVOKED)
    if found.taken_at is not None:
        raise CountError(TABLET_TAKEN)
    conn.execute("UPDATE club_tablets SET taken_at = ? WHERE id = ?", (now, tablet_id))
    return tablet(conn, tablet_id)


def revoke_tablet(conn: sqlite3.Connection, tablet_id: int, now: str) -> Tablet:
    """The organiser revokes a tablet: its new tables no longer count (counted ones stay)."""
    found = tablet(conn, tablet_id)
    if found.revoked_at is None:
        conn.execute("UPDATE club_tablets SET revoked_at = ? WHERE id = ?", (now, tablet_id))
    return tablet(conn, tablet_id)


def tablet_active(conn: sqlite3.Connection, tablet_id: object) -> bool:
    """True for a tablet taken by its device and not revoked."""
    try:
        return tablet(conn, tablet_id).active
    except CountError:
        return False
