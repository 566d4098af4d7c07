"""Is a database file a whole companion season? The checks a restore makes before anything moves.

In order, each refusal a sentence naming what is wrong: SQLite opens it, `PRAGMA
integrity_check` finds nothing, its schema version (PRAGMA user_version) is one this code
knows, it has the event log's tables, and every table replays: its setup and active moves,
applied by the rules again without any snapshot (what Store.replay does, here on any
connection), give the state stored at its latest version. What the rules changing between
releases explains passes (see `_replays`): a database an older release wrote, migrated or
not, is restored, not refused.
"""

import json
import sqlite3
from dataclasses import dataclass

from companion_app.store import db, stored_json
from companion_app.store.tables import replay_log
from scoring.errors import RuleError
from scoring.games import get_game

#: The event log's tables, without which a file is no companion database.
REQUIRED_TABLES = ("tables", "log")


class BadBackup(Exception):
    """A file that must not be restored; the message says what is wrong with it."""


@dataclass(frozen=True)
class Checked:
    """A file that passed: its schema version, its tables, and those today's rules no
    longer replay (a sentence each; their stored states stand)."""

    schema_version: int
    tables: int
    unreplayable: tuple[str, ...] = ()


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
    notes = tuple(note for row in rows if (note := _replays(conn, name, row)) is not None)
    return Checked(version, len(rows), notes)


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


def _replays(conn: sqlite3.Connection, name: str, head: sqlite3.Row) -> str | None:
    """Refuse the file unless the table's moves, replayed, give its stored latest state.

    Two differences come from the rules changing between releases, not from damage, and
    pass: a replay that is the stored state with keys a later release added, or the same
    game (equal results and summary, for a game with results); and a log whose old moves
    today's rules refuse (a RuleError): the app moves on from its snapshots, so the table is
    only named (the returned sentence), not refused.
    """
    table_id = head["id"]
    _complete_log(conn, name, head)
    try:
        rules = get_game(head["game"])
        replayed = _normal(_replay(conn, rules, head))
    except RuleError as exc:
        return f"table {table_id} ({head['game']}): {exc}"
    except Exception as exc:  # a log the rules cannot read at all: refuse, never a traceback
        raise BadBackup(
            f"{name}: table {table_id} does not replay ({type(exc).__name__}: {exc})."
        ) from None
    stored = _stored_state(conn, head)
    if not (
        replayed == stored or grown_from(replayed, stored) or same_game(rules, replayed, stored)
    ):
        raise BadBackup(
            f"{name}: table {table_id} does not replay to its stored state at move"
            f" {head['version']}."
        )
    return None


def _complete_log(conn: sqlite3.Connection, name: str, head: sqlite3.Row) -> None:
    """Refuse a table whose log rows are not exactly 1..version (rows lost or added)."""
    count, last = conn.execute(
        "SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM log WHERE table_id = ?", (head["id"],)
    ).fetchone()
    if count != head["version"] or last != head["version"]:
        raise BadBackup(
            f"{name}: table {head['id']} is at move {head['version']} but its log has"
            f" {count} row(s), the last {last}."
        )


def grown_from(today: object, old: object) -> bool:
    """True if `today` holds everything `old` does, equal, and at most keys besides."""
    if isinstance(old, dict):
        return isinstance(today, dict) and all(
            key in today and grown_from(today[key], value) for key, value in old.items()
        )
    if isinstance(old, list):
        return (
            isinstance(today, list)
            and len(today) == len(old)
            and all(grown_from(new, was) for new, was in zip(today, old, strict=True))
        )
    return today == old


def same_game(rules, replayed: object, stored: object) -> bool:
    """True if the two states give the same results and summary (games with results only)."""
    if not hasattr(rules, "results"):
        return False
    try:
        return _normal(rules.results(replayed)) == _normal(rules.results(stored)) and _normal(
            rules.summary(replayed)
        ) == _normal(rules.summary(stored))
    except Exception:  # a stored state today's rules cannot read: not the same game
        return False


def _replay(conn: sqlite3.Connection, rules, head: sqlite3.Row) -> dict:
    """The state from the setup and the active moves (undone ones left out), no snapshot read."""
    rows = conn.execute(
        "SELECT kind, move_json FROM log WHERE table_id = ? AND seq <= ? ORDER BY seq",
        (head["id"], head["version"]),
    )
    entries = (
        (row["kind"], row["move_json"] and stored_json.loads(row["move_json"])) for row in rows
    )
    return replay_log(rules, stored_json.loads(head["setup_json"]), entries)


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
