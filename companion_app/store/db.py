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

from flask import Flask, current_app, g, has_app_context

try:
    import fcntl
except ImportError:  # Windows: writers wait in SQLite's busy handler
    fcntl = None

from companion_app.store import faults, migrations
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
#: Set on `g` when this request's connection met a read-only or failing disk: closed at teardown.
_DISCARDED_KEY = "companion_db_discarded"
_THREADS_KEY = "companion_db_threads"


def database_path(app: Flask) -> str:
    """The SQLite file for `app`: DATABASE, relative paths resolved in the instance folder."""
    return os.path.join(app.instance_path, app.config["DATABASE"])


def connect(path: str) -> sqlite3.Connection:
    """Open `path` in autocommit mode with WAL and fsync-on-commit (durable acknowledgements)."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, factory=_Connection)
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


def forget_inherited(app: Flask) -> list:
    """In a process forked from one that used `app`: drop the parent's connections unclosed.

    A SQLite connection must not be used on both sides of a fork, and closing it here could
    checkpoint the parent's database; the caller keeps what is returned referenced.
    """
    inherited = app.extensions.get(_THREADS_KEY)
    app.extensions[_THREADS_KEY] = threading.local()
    return [getattr(inherited, "conn", None)]


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
        with _writers_turn(conn):
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


_UNOPENED = -1


class _Connection(sqlite3.Connection):
    """A connection that keeps its descriptor of the writers' lock file (`<database>-writer`)."""

    turn_fd: int | None = _UNOPENED

    def close(self) -> None:
        """Close the lock file too."""
        self._close_turn()
        super().close()

    def __del__(self) -> None:
        """A connection dropped unclosed lets its lock file go as well."""
        self._close_turn()

    def _close_turn(self) -> None:
        fd, self.turn_fd = self.turn_fd, None
        if fd is not None and fd != _UNOPENED:
            os.close(fd)


@contextmanager
def _writers_turn(conn: sqlite3.Connection) -> Iterator[None]:
    """Wait for the writers' turn on the database's lock file before BEGIN IMMEDIATE.

    SQLite's busy handler makes a waiting writer sleep and retry (1 to 100 ms at a time), so
    a burst of writers from several threads or worker processes waited seconds at the tail
    (16 threads x 2 processes: p99 4.8 s) while the lock sat free; the kernel's lock wakes the
    next writer as soon as it is released (p99 0.8 s, docs/scale.md). Where there is no such
    lock (Windows, a folder that cannot take the file), SQLite's own waiting remains.
    """
    fd = _turn_file(conn)
    if fd is None:
        yield
        return
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


def _turn_file(conn: sqlite3.Connection) -> int | None:
    """This connection's descriptor of the database's lock file, opened on first use."""
    if fcntl is None or not isinstance(conn, _Connection):
        return None
    if conn.turn_fd != _UNOPENED:
        return conn.turn_fd
    fd = None
    try:
        path = next(row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main")
        if path:
            fd = os.open(path + "-writer", os.O_RDWR | os.O_CREAT, 0o600)
    except (OSError, sqlite3.Error, StopIteration):
        fd = None  # a read-only or failing folder: SQLite's own waiting
    conn.turn_fd = fd
    return fd


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
    """Migrate the schema; connections are kept per thread and released after each context."""
    kept = init_schema(database_path(app))
    if kept is not None:
        app.logger.info("Kept a copy of the database before migrating it: %s", kept)
    app.extensions[_THREADS_KEY] = threading.local()
    app.teardown_appcontext(release_db)
