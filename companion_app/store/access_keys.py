"""The organiser and device keys issued, each revocable on its own (issue 33 item 10).

A key carries the id of its row (server/rights.py makes and checks the secret part), so
checking a key is one lookup here. Rows 1 and 2 stand for the keys derived before keys had
rows (the box's and the organiser's, and every browser that took the old organiser link):
they work until the organiser revokes them, as a group. Docs: docs/security.md "Rights".
"""

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from companion_app.store.model import moment
from scoring.errors import N_
from scoring.league.roster import RosterError
from scoring.names import check_text

DEVICE, ORGANISER = "device", "organiser"
KINDS = (DEVICE, ORGANISER)
#: The rows of the keys made before version 11 (store/migrations.py).
LEGACY_DEVICE, LEGACY_ORGANISER = 1, 2
MAX_NAME = 40

NO_KEY = N_("There is no such key.")
KEY_NAME = N_("The key's name {text} contains {char}; remove it.")
KEY_NAME_LONG = N_("A key's name can be at most {limit} characters long.")


class AccessKeyError(RosterError):
    """A key change refused, with the reason."""


@dataclass(frozen=True)
class AccessKey:
    """One issued key: what it lets in, who it was issued to, when, last seen, revoked."""

    id: int
    kind: str
    name: str
    legacy: bool
    issued_at: datetime
    seen_at: datetime | None
    revoked_at: datetime | None

    @property
    def active(self) -> bool:
        """True until revoked."""
        return self.revoked_at is None


def _key(row: sqlite3.Row) -> AccessKey:
    """An AccessKey from its row."""
    return AccessKey(
        row["id"],
        row["kind"],
        row["name"],
        bool(row["legacy"]),
        datetime.fromisoformat(row["issued_at"]),
        moment(row["seen_at"]),
        moment(row["revoked_at"]),
    )


def issue(conn: sqlite3.Connection, kind: str, text: object, now: str) -> int:
    """A new key's row (its name checked like a tablet's); its id."""
    if kind not in KINDS:
        raise ValueError(kind)
    name = check_text(text if isinstance(text, str) else "", AccessKeyError, KEY_NAME)
    if len(name) > MAX_NAME:
        raise AccessKeyError(KEY_NAME_LONG, limit=MAX_NAME)
    cursor = conn.execute(
        "INSERT INTO access_keys (kind, name, issued_at) VALUES (?, ?, ?)", (kind, name, now)
    )
    return int(cursor.lastrowid)


def find(conn: sqlite3.Connection, key_id: object) -> AccessKey | None:
    """One key's row, or None."""
    if type(key_id) is not int:
        return None
    row = conn.execute("SELECT * FROM access_keys WHERE id = ?", (key_id,)).fetchone()
    return None if row is None else _key(row)


def get(conn: sqlite3.Connection, key_id: object) -> AccessKey:
    """One key's row, or AccessKeyError (NO_KEY)."""
    found = find(conn, key_id)
    if found is None:
        raise AccessKeyError(NO_KEY)
    return found


def listed(conn: sqlite3.Connection) -> list[AccessKey]:
    """Every key, the newest first, the old keys' group rows last."""
    rows = conn.execute("SELECT * FROM access_keys ORDER BY legacy, issued_at DESC, id DESC")
    return [_key(row) for row in rows]


def newest_active(conn: sqlite3.Connection, kind: str) -> AccessKey | None:
    """The newest key of `kind` issued with a row of its own and not revoked, if any."""
    row = conn.execute(
        "SELECT * FROM access_keys WHERE kind = ? AND legacy = 0 AND revoked_at IS NULL"
        " ORDER BY id DESC LIMIT 1",
        (kind,),
    ).fetchone()
    return None if row is None else _key(row)


def revoke(conn: sqlite3.Connection, key_id: object, now: str) -> AccessKey:
    """Revoke a key (again: nothing changes); AccessKeyError for an unknown one."""
    found = get(conn, key_id)
    if found.revoked_at is None:
        conn.execute("UPDATE access_keys SET revoked_at = ? WHERE id = ?", (now, found.id))
    return get(conn, found.id)


def seen(conn: sqlite3.Connection, key_id: int, now: str) -> None:
    """Note that a key was used now."""
    conn.execute("UPDATE access_keys SET seen_at = ? WHERE id = ?", (now, key_id))
