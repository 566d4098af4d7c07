"""SQLite plumbing: one durable connection per thread, the schema, write transactions.

Each worker thread keeps its connection between requests: opening one costs the PRAGMAs, and
closing the last connection to a WAL database checkpoints it, which made every request pay
for a checkpoint. A request gets its thread's connection through `g`; teardown only makes
sure no transaction is left open. The schema is built by the numbered migrations of
store/migrations.py; a database newer than this code raises SchemaTooNew.
"""

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, current_app, g

from companion_app.store import migrations
from companion_app.store.migrations import SchemaTooNew

__all__ = [
    "SCHEMA_VERSION",
    "SchemaTooNew",
    "connect",
    "database_path",
    "get_db",
    "init_app",
    "init_schema",
    "release_db",
    "write_transaction",
]

#: Seconds a writer waits for another writer's BEGIN IMMEDIATE before giving up.
BUSY_TIMEOUT_S = 10.0
#: The schema version this code writes: the last numbered migration (store/migrations.py).
SCHEMA_VERSION = migrations.latest_version()
_G_KEY = "companion_db"
_THREADS_KEY = "companion_db_threads"


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


def init_schema(path: str) -> str | None:
    """Migrate the file at `path` to SCHEMA_VERSION (SchemaTooNew if it is newer).

    Returns the copy kept of an existing file before it was migrated, if one was made.
    """
    conn = connect(path)
    try:
        return migrations.migrate(conn, path)
    finally:
        conn.close()


def get_db() -> sqlite3.Connection:
    """This thread's connection to the app's database, opened on first use."""
    conn = g.get(_G_KEY)
    if conn is None:
        per_thread = current_app.extensions[_THREADS_KEY]
        conn = getattr(per_thread, "conn", None)
        if conn is None:
            conn = per_thread.conn = connect(database_path(current_app))
        setattr(g, _G_KEY, conn)
    return conn


def release_db(_exc: BaseException | None = None) -> None:
    """End of an app context: roll back anything left open; the thread keeps the connection."""
    conn = g.pop(_G_KEY, None)
    if conn is not None and conn.in_transaction:
        conn.execute("ROLLBACK")


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE ... COMMIT, so writers serialize; roll back on any exception."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def init_app(app: Flask) -> None:
    """Migrate the schema; connections are kept per thread and released after each context."""
    kept = init_schema(database_path(app))
    if kept is not None:
        app.logger.info("Kept a copy of the database before migrating it: %s", kept)
    app.extensions[_THREADS_KEY] = threading.local()
    app.teardown_appcontext(release_db)
