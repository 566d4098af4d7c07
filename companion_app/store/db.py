"""SQLite plumbing: one durable connection per thread, the schema, write transactions.

Each worker thread keeps its connection between requests: opening one costs the PRAGMAs, and
closing the last connection to a WAL database checkpoints it, which made every request pay
for a checkpoint. A request gets its thread's connection through `g`; teardown only makes
sure no transaction is left open.
"""

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, current_app, g, has_app_context

from companion_app.store import faults

#: Seconds a writer waits for another writer's BEGIN IMMEDIATE before giving up.
BUSY_TIMEOUT_S = 10.0
#: Bumped whenever SCHEMA changes shape; stored in PRAGMA user_version.
SCHEMA_VERSION = 1
_G_KEY = "companion_db"
#: Set on `g` when this request's connection met a read-only or failing disk: closed at teardown.
_DISCARDED_KEY = "companion_db_discarded"
_THREADS_KEY = "companion_db_threads"

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    setup_json TEXT NOT NULL,
    state_json TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('move', 'undo')),
    move_json TEXT,
    state_json TEXT NOT NULL,
    undoes INTEGER,
    top INTEGER,
    created_at TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX IF NOT EXISTS tables_by_activity ON tables (updated_at);
-- Reveals (companion_app/reveal.py): one row per armed reveal, ids 1, 2, ... per table; the
-- latest row is the current reveal unless disarmed. Added without a version bump: older code
-- never reads these tables, so a database that has them still opens there.
CREATE TABLE IF NOT EXISTS reveals (
    table_id TEXT NOT NULL REFERENCES tables(id),
    id INTEGER NOT NULL,
    seats_json TEXT NOT NULL,
    locked_json TEXT NOT NULL,
    disarmed INTEGER NOT NULL DEFAULT 0,
    revealed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (table_id, id)
);
-- Tables the host abandoned unfinished: kept (their log is history) but out of the lists,
-- results and statistics, and closed to moves. Added without a version bump, like reveals.
CREATE TABLE IF NOT EXISTS abandoned_tables (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    abandoned_at TEXT NOT NULL
);
-- The club (docs/club.md), added without a version bump like reveals: older code never reads
-- these tables, and store/club_sync.py links whatever it finds missing every time it opens.
-- People of the roster; a merged entry keeps its row, pointing at the person it joined.
CREATE TABLE IF NOT EXISTS people (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    merged_into INTEGER REFERENCES people(id)
);
-- Other spellings of a person (the names of entries merged into it): typed again, they find it.
CREATE TABLE IF NOT EXISTS person_aliases (
    person_id INTEGER NOT NULL REFERENCES people(id),
    name TEXT NOT NULL
);
-- Who sat at each seat of each table.
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    person_id INTEGER NOT NULL REFERENCES people(id),
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_by_person ON seats (person_id);
-- Club evenings (one per day; a night past midnight is still its evening) and their tables.
CREATE TABLE IF NOT EXISTS evenings (
    id INTEGER PRIMARY KEY,
    day TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS table_evenings (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    evening_id INTEGER NOT NULL REFERENCES evenings(id)
);
CREATE INDEX IF NOT EXISTS tables_by_evening ON table_evenings (evening_id);
-- A finished table's final placings, written by the move that ended it, removed by its undo.
CREATE TABLE IF NOT EXISTS finished_games (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    game TEXT NOT NULL,
    ended_at TEXT NOT NULL,
    highest_wins INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS finished_by_end ON finished_games (ended_at, table_id);
CREATE TABLE IF NOT EXISTS placings (
    table_id TEXT NOT NULL REFERENCES finished_games(table_id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    rank INTEGER NOT NULL,
    score NUMERIC NOT NULL,
    winner INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
-- Seasons: a name, the organiser's points rule and the evenings they count.
CREATE TABLE IF NOT EXISTS seasons (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    rule_json TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS season_evenings (
    season_id INTEGER NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
    evening_id INTEGER NOT NULL REFERENCES evenings(id),
    PRIMARY KEY (season_id, evening_id)
);
-- Who started each table (the client's address, or its IPv6 /64), for the per-device limit
-- on new tables (issue 24). Added without a version bump, like reveals.
CREATE TABLE IF NOT EXISTS table_origins (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    origin TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS table_origins_by_origin ON table_origins (origin, created_at);
-- App-wide choices, JSON values by key (e.g. "device_table": the table the box follows).
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value_json TEXT NOT NULL
);
"""


def database_path(app: Flask) -> str:
    """The SQLite file for `app`: DATABASE, relative paths resolved in the instance folder."""
    return os.path.join(app.instance_path, app.config["DATABASE"])


def connect(path: str) -> sqlite3.Connection:
    """Open `path` in autocommit mode with WAL and fsync-on-commit (durable acknowledgements)."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def init_schema(path: str) -> None:
    """Create the tables if missing and record the schema version."""
    conn = connect(path)
    try:
        found = conn.execute("PRAGMA user_version").fetchone()[0]
        if found > SCHEMA_VERSION:
            raise RuntimeError(
                f"{path} has schema version {found}; this companion knows up to {SCHEMA_VERSION}."
            )
        conn.executescript(SCHEMA)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    finally:
        conn.close()


def get_db() -> sqlite3.Connection:
    """This thread's connection to the app's database, opened on first use.

    One opened while the database could not be written (SQLite then opens it read-only, and
    it stays so) is replaced once the database can be written again.
    """
    conn = g.get(_G_KEY)
    if conn is None:
        per_thread = current_app.extensions[_THREADS_KEY]
        conn = getattr(per_thread, "conn", None)
        path = database_path(current_app)
        if conn is not None and per_thread.read_only and os.access(path, os.W_OK):
            conn.close()
            conn = None
        if conn is None:
            conn = per_thread.conn = connect(path)
            per_thread.read_only = not os.access(path, os.W_OK)
        setattr(g, _G_KEY, conn)
    return conn


def release_db(_exc: BaseException | None = None) -> None:
    """End of an app context: roll back anything left open; the thread keeps the connection
    unless it met a read-only or failing disk (then it is closed here)."""
    conn = g.pop(_G_KEY, None)
    if conn is None:
        return
    if g.pop(_DISCARDED_KEY, False):
        conn.close()
    elif conn.in_transaction:
        conn.execute("ROLLBACK")


def close_connection() -> None:
    """Stop using this thread's connection: the next get_db opens a fresh one.

    A connection SQLite opened while the disk was read-only stays read-only after the disk
    comes back; one that met a failing disk may hold a broken file. The request still using
    it keeps it until its teardown closes it.
    """
    per_thread = current_app.extensions[_THREADS_KEY]
    conn = getattr(per_thread, "conn", None)
    per_thread.conn = None
    if conn is None:
        return
    if g.get(_G_KEY) is conn:
        setattr(g, _DISCARDED_KEY, True)
    else:
        conn.close()


def _roll_back(conn: sqlite3.Connection) -> None:
    """ROLLBACK if a transaction is still open (SQLite ends it on its own after some faults)."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE ... COMMIT, so writers serialize; roll back on any exception.

    A full, read-only or failing disk comes out as faults.StorageFault, logged (a line per
    kind per faults.LOG_EVERY_S), after the rollback: nothing of the transaction was kept.
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            _roll_back(conn)
            raise
        conn.execute("COMMIT")
    except (sqlite3.Error, OSError) as error:
        folder = current_app.instance_path if has_app_context() else None
        kind = faults.classify(error, folder)
        if kind is None:
            raise
        _after_fault(conn, kind, error)
        raise faults.StorageFault(kind) from error


def _after_fault(conn: sqlite3.Connection, kind: str, error: BaseException) -> None:
    """Roll back what is left, log the fault, and give up a connection the disk may have broken.

    After a full disk the connection is sound (the next move after space frees goes through on
    it); after a read-only or failing one, or a rollback the disk refused, it is replaced.
    """
    try:
        _roll_back(conn)
        sound = kind == faults.FULL
    except sqlite3.Error:
        sound = False
    faults.report(kind, error)
    if not sound and has_app_context() and _THREADS_KEY in current_app.extensions:
        if getattr(current_app.extensions[_THREADS_KEY], "conn", None) is conn:
            close_connection()


def init_app(app: Flask) -> None:
    """Create the schema; connections are kept per thread and released after each context."""
    init_schema(database_path(app))
    app.extensions[_THREADS_KEY] = threading.local()
    app.teardown_appcontext(release_db)
