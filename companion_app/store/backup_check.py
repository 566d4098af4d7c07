"""Is a database file a whole companion season? The checks a restore makes before anything moves.

In order, each refusal a sentence naming what is wrong: SQLite opens it, `PRAGMA
integrity_check` finds nothing, its schema version (PRAGMA user_version) is one this code
knows, it has the event log's tables, and every table replays: its setup and active moves,
applied by the rules again without any snapshot (what Store.replay does, here on any
connection), give the state stored at its latest version.
"""

import json
import sqlite3
from dataclasses import dataclass

from companion_app.store import db, stored_json
from scoring.errors import RuleError
from scoring.games import get_game

#: The event log's tables, without which a file is no companion database.
REQUIRED_TABLES = ("tables", "log")


class BadBackup(Exception):
    """A file that must not be restored; the message says what is wrong with it."""


@dataclass(frozen=True)
class Checked:
    """A file that passed: its schema version and how many tables replayed."""

    schema_version: int
    tables: int


def check(conn: sqlite3.Connection, name: str) -> Checked:
    """Run every check on the open database `conn` (called `name` in the sentences)."""
    try:
        return _checked(conn, name)
    except sqlite3.DatabaseError as exc:
        raise BadBackup(f"{name} is not a readable companion database ({exc}).") from None


def _checked(conn: sqlite3.Connection, name: str) -> Checked:
    """The checks of `check`, in order; SQLite's own errors propagate."""
    _integrity(conn, name)
    version = _schema_version(conn, name)
    _required_tables(conn, name)
    rows = conn.execute("SELECT id, game, setup_json, state_json, version FROM tables").fetchall()
    for row in rows:
        _replays(conn, name, row)
    return Checked(version, len(rows))


def _integrity(conn: sqlite3.Connection, name: str) -> None:
    """Refuse a file SQLite finds damaged."""
    try:
        found = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        raise BadBackup(f"{name} is not a readable SQLite database ({exc}).") from None
    if found != ["ok"]:
        raise BadBackup(f"{name} is damaged: SQLite's integrity check says {found[0]!r}.")


def _schema_version(conn: sqlite3.Connection, name: str) -> int:
    """The file's schema version; refuse one newer than this companion knows."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > db.SCHEMA_VERSION:
        raise BadBackup(
            f"{name} has schema version {version}, newer than this companion knows"
            f" ({db.SCHEMA_VERSION}): restore it with the companion that wrote it."
        )
    return version


def _required_tables(conn: sqlite3.Connection, name: str) -> None:
    """Refuse an SQLite file that holds no companion tables."""
    present = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    missing = [table for table in REQUIRED_TABLES if table not in present]
    if missing:
        raise BadBackup(
            f"{name} is an SQLite database but not the companion's: it has no table"
            f" {', '.join(missing)}."
        )


def _replays(conn: sqlite3.Connection, name: str, head: sqlite3.Row) -> None:
    """Refuse the file unless the table's moves, replayed, give its stored latest state."""
    table_id = head["id"]
    try:
        rules = get_game(head["game"])
        replayed = _replay(conn, rules, head)
    except RuleError as exc:
        raise BadBackup(f"{name}: table {table_id} does not replay: {exc}") from None
    except Exception as exc:  # a log the rules cannot read at all: refuse, never a traceback
        raise BadBackup(
            f"{name}: table {table_id} does not replay ({type(exc).__name__}: {exc})."
        ) from None
    if _normal(replayed) != _stored_state(conn, head):
        raise BadBackup(
            f"{name}: table {table_id} does not replay to its stored state at move"
            f" {head['version']}."
        )


def _replay(conn: sqlite3.Connection, rules, head: sqlite3.Row) -> dict:
    """The state from the setup and the active moves (undone ones left out), no snapshot read."""
    active: list[dict] = []
    rows = conn.execute(
        "SELECT kind, move_json FROM log WHERE table_id = ? AND seq <= ? ORDER BY seq",
        (head["id"], head["version"]),
    )
    for row in rows:
        if row["kind"] == "move":
            active.append(stored_json.loads(row["move_json"]))
        else:
            active.pop()
    state = rules.new_table(stored_json.loads(head["setup_json"]))
    for move in active:
        state = rules.apply(state, move)
    return state


def _stored_state(conn: sqlite3.Connection, head: sqlite3.Row) -> object:
    """The snapshot stored at the table's latest version (its initial state at version 0)."""
    if head["version"] == 0:
        return stored_json.loads(head["state_json"])
    row = conn.execute(
        "SELECT state_json FROM log WHERE table_id = ? AND seq = ?", (head["id"], head["version"])
    ).fetchone()
    if row is None:
        return None
    return stored_json.loads(row["state_json"])


def _normal(state: object) -> object:
    """A state as the store keeps it: through compact JSON and back (tuples become lists)."""
    return stored_json.loads(json.dumps(state, separators=(",", ":")))
