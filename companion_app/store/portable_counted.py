"""Which imported games the club stands behind (store/counted.py), and its club tablets.

A club tablet is already here when one has its name and creation moment; a new one keeps the
file's id when it is free and comes as it was (taken, revoked): its device's session belonged
to the other instance, so it lets nobody in here until the organiser makes a new link. A
table counts here exactly when it counted there, for the same reason and since the same
moment, so the standings and ratings read the same games.
"""

import sqlite3

from companion_app.store.portable_league import Mapped
from companion_app.store.portable_shape import KeptAside

_COLUMNS = ("name", "created_at", "taken_at", "revoked_at")


def import_tablets(conn: sqlite3.Connection, tablets: list[dict]) -> Mapped:
    """Match or add every club tablet of the file."""
    mapped = Mapped()
    for tablet in tablets:
        row = conn.execute(
            "SELECT id FROM club_tablets WHERE name = ? AND created_at = ?",
            (tablet["name"], tablet["created_at"]),
        ).fetchone()
        if row is not None:
            mapped.ids[tablet["id"]] = row["id"]
            mapped.found += 1
            continue
        taken = conn.execute("SELECT 1 FROM club_tablets WHERE id = ?", (tablet["id"],)).fetchone()
        cursor = conn.execute(
            "INSERT INTO club_tablets (id, name, created_at, taken_at, revoked_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (None if taken else tablet["id"], *(tablet.get(key) for key in _COLUMNS)),
        )
        mapped.ids[tablet["id"]] = int(cursor.lastrowid)
        mapped.added += 1
    return mapped


def tablet_of(entry: dict | None, tablets: Mapped) -> int | None:
    """The tablet here that stands behind a counted table (KeptAside for an unlisted one)."""
    if entry is None or entry["tablet"] is None:
        return None
    if entry["tablet"] not in tablets.ids:
        raise KeptAside(f"it counts through club tablet {entry['tablet']}, not listed in the file.")
    return tablets.ids[entry["tablet"]]


def write_counted(
    conn: sqlite3.Connection, table_id: str, entry: dict | None, tablet: int | None
) -> None:
    """Count the imported table as it counted in the file (nothing when it did not)."""
    if entry is not None:
        conn.execute(
            "INSERT INTO counted_tables (table_id, how, tablet_id, at) VALUES (?, ?, ?, ?)",
            (table_id, entry["how"], tablet, entry["at"]),
        )
