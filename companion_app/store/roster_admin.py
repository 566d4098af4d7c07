"""The organiser's roster work: add people before the evening, remove or hide them, undo a merge.

A person with no seat at any table (abandoned ones too) and nothing merged into them can be
removed; one who has played is hidden instead: off the seating chips, history and spellings
kept, shown again with one tap. A merge's record (store/roster.py) says which seats, spellings
and entries moved, so undoing it gives them back to the entry that was merged; seats a later
table gave the kept person stay with them.
"""

import json
import sqlite3
from dataclasses import dataclass

from companion_app.store import finished, roster
from scoring.errors import N_
from scoring.league.roster import KNOWN, NEAR, RosterError, check_person_name

ALREADY = N_("{name} is already in the roster as {other}.")
NEAR_PERSON = N_(
    "{name} looks like {other}, who is in the roster; tick “new person” if {name} is someone else."
)
HAS_GAMES = N_("{name} has played, so they stay with their history; hide them instead.")
HAS_MERGED = N_("Other entries were merged into {name}; undo those merges first or hide {name}.")
NO_MERGE = N_("There is no such merge to undo.")
MERGE_UNDONE = N_("This merge was already undone.")
MERGED_ON = N_("{name} was merged again since; undo that merge first.")
NAME_CLASH = N_("{name} is now a spelling of {other}; rename {other} first, then undo the merge.")


@dataclass(frozen=True)
class Merge:
    """A recorded merge: who was kept, the entry merged into them, how many seats moved."""

    id: int
    keep: int
    gone: int
    gone_name: str
    seats: int
    merged_at: str
    undone: bool


def add(
    conn: sqlite3.Connection, text: object, now: str, *, new_person: bool = False
) -> tuple[int, bool]:
    """(person, True if shown again): a new person named `text`, or the hidden person it
    spells shown again; refused when the name is someone's, or looks like someone's and
    `new_person` (the organiser's tick) is not given."""
    name = check_person_name(text)
    met = roster.matcher(conn).match(name)
    if met.kind == KNOWN and _is_hidden(conn, met.person):
        conn.execute("UPDATE people SET hidden = 0 WHERE id = ?", (met.person,))
        return int(met.person), True
    if met.kind == KNOWN:
        raise RosterError(ALREADY, name=name, other=roster.get(conn, met.person)[0].name)
    if met.kind == NEAR and not new_person:
        raise RosterError(NEAR_PERSON, name=name, other=roster.get(conn, met.person)[0].name)
    cursor = conn.execute("INSERT INTO people (name, created_at) VALUES (?, ?)", (name, now))
    return int(cursor.lastrowid), False


def _is_hidden(conn: sqlite3.Connection, person_id: object) -> bool:
    """True for a person hidden from the seating chips."""
    row = conn.execute("SELECT hidden FROM people WHERE id = ?", (person_id,)).fetchone()
    return bool(row and row["hidden"])


def _current(conn: sqlite3.Connection, person_id: object) -> roster.Person:
    """A current (not merged) person by id, or RosterError."""
    person, merged_from = roster.get(conn, person_id)
    if merged_from is not None:
        raise RosterError(roster.NO_PERSON)
    return person


def remove(conn: sqlite3.Connection, person_id: object) -> str:
    """Remove a person who never sat at a table; their name."""
    person = _current(conn, person_id)
    seated = conn.execute("SELECT 1 FROM seats WHERE person_id = ? LIMIT 1", (person.id,))
    if seated.fetchone() is not None:
        raise RosterError(HAS_GAMES, name=person.name)
    joined = conn.execute("SELECT 1 FROM people WHERE merged_into = ? LIMIT 1", (person.id,))
    if joined.fetchone() is not None:
        raise RosterError(HAS_MERGED, name=person.name)
    conn.execute("DELETE FROM person_aliases WHERE person_id = ?", (person.id,))
    conn.execute("DELETE FROM merges WHERE keep_id = ? OR gone_id = ?", (person.id, person.id))
    conn.execute("DELETE FROM people WHERE id = ?", (person.id,))
    return person.name


def set_hidden(conn: sqlite3.Connection, person_id: object, hidden: bool) -> str:
    """Hide a person from the seating chips, or show them again; their name."""
    person = _current(conn, person_id)
    conn.execute("UPDATE people SET hidden = ? WHERE id = ?", (int(hidden), person.id))
    return person.name


def preview(conn: sqlite3.Connection, keep_id: object, gone_id: object) -> tuple:
    """(kept person, merged person, their seats that move, their spellings that move)."""
    keep, gone = roster.mergeable(conn, _current(conn, keep_id).id, _current(conn, gone_id).id)
    seats = conn.execute("SELECT COUNT(*) FROM seats WHERE person_id = ?", (gone.id,)).fetchone()[0]
    spellings = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM person_aliases WHERE person_id = ? ORDER BY rowid", (gone.id,)
        )
    ]
    return keep, gone, seats, spellings


def merges(conn: sqlite3.Connection, person_id: int) -> list[Merge]:
    """The merges into a person that can still be undone, latest first."""
    rows = conn.execute(
        "SELECT merges.id, keep_id, gone_id, people.name, moved_json, merged_at, undone_at"
        " FROM merges JOIN people ON people.id = merges.gone_id"
        " WHERE keep_id = ? AND undone_at IS NULL ORDER BY merges.id DESC",
        (person_id,),
    )
    return [
        Merge(
            row[0],
            row[1],
            row[2],
            row[3],
            len(json.loads(row[4])["seats"]),
            row[5],
            row[6] is not None,
        )
        for row in rows
    ]


def undo_merge(conn: sqlite3.Connection, merge_id: object, now: str) -> tuple[int, int]:
    """Give a merged entry back its seats, spellings and entries; (kept id, restored id)."""
    row = None
    if isinstance(merge_id, int):
        row = conn.execute(
            "SELECT keep_id, gone_id, moved_json, undone_at FROM merges WHERE id = ?", (merge_id,)
        ).fetchone()
    if row is None:
        raise RosterError(NO_MERGE)
    if row["undone_at"] is not None:
        raise RosterError(MERGE_UNDONE)
    keep_id, gone_id, moved = row["keep_id"], row["gone_id"], json.loads(row["moved_json"])
    keep = conn.execute("SELECT name, merged_into FROM people WHERE id = ?", (keep_id,)).fetchone()
    gone = conn.execute("SELECT name, merged_into FROM people WHERE id = ?", (gone_id,)).fetchone()
    if keep["merged_into"] is not None or gone["merged_into"] != keep_id:
        raise RosterError(MERGED_ON, name=keep["name"])
    conn.execute("DELETE FROM person_aliases WHERE rowid = ?", (moved["alias"],))
    other = roster.find(conn, gone["name"])
    if other is not None:
        raise RosterError(NAME_CLASH, name=gone["name"], other=roster.get(conn, other)[0].name)
    for table_id, seat in moved["seats"]:
        conn.execute(
            "UPDATE seats SET person_id = ? WHERE table_id = ? AND seat = ? AND person_id = ?",
            (gone_id, table_id, seat, keep_id),
        )
    for alias in moved["aliases"]:
        conn.execute(
            "UPDATE person_aliases SET person_id = ? WHERE rowid = ? AND person_id = ?",
            (gone_id, alias, keep_id),
        )
    for entry in moved["entries"]:
        conn.execute(
            "UPDATE people SET merged_into = ? WHERE id = ? AND merged_into = ?",
            (gone_id, entry, keep_id),
        )
    conn.execute("UPDATE people SET merged_into = NULL WHERE id = ?", (gone_id,))
    conn.execute("UPDATE merges SET undone_at = ? WHERE id = ?", (now, merge_id))
    finished.bump(conn)
    return keep_id, gone_id
