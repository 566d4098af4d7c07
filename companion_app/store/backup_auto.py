"""Automatic backups while `companion serve` runs: at its start, hourly while moves arrive, and
when an evening's last running table ends (docs/backups.md).

One background thread takes them, so a backup never slows or fails a move: the change feed
(store/changes.py), which every successful write notifies, only flags the thread and returns.
Awake, the thread reads two things with its own connection: the log's newest row (a move or
an undo since the last backup?) and the evenings that still have a table in play (did one
just lose its last?). "Hourly" is thus at most one backup an hour, taken after a move once the
last is older than BACKUP_EVERY_S; nothing runs while nothing changes. The clock is injectable
(`start(app, clock=...)`), so tests move time instead of sleeping. A failed backup is one
line in the log; the next try comes with the next rule that fires.
"""

import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from flask import Flask

from companion_app.config import (
    DEFAULT_BACKUP_EVERY_S,
    DEFAULT_BACKUP_KEEP,
    DEFAULT_BACKUP_MAX_BYTES,
)
from companion_app.store import backup, db
from companion_app.store.changes import get_feed

_EXTENSION = "companion_auto_backup"
Clock = Callable[[], datetime]

#: Evenings with a table still in play (not finished, not abandoned).
RUNNING_EVENINGS = (
    "SELECT DISTINCT table_evenings.evening_id FROM table_evenings"
    " JOIN tables ON tables.id = table_evenings.table_id"
    " WHERE tables.finished = 0 AND tables.id NOT IN (SELECT table_id FROM abandoned_tables)"
)


def _utc_now() -> datetime:
    """The real clock."""
    return datetime.now(UTC)


class AutoBackup:
    """The backup thread of one app and what it last saw."""

    def __init__(self, app: Flask, clock: Clock | None = None) -> None:
        """Read the app's bounds; the thread starts with `start()`."""
        self._app = app
        self._clock = clock or _utc_now
        self._database = db.database_path(app)
        self._instance = app.instance_path
        self._keep = int(app.config.get("BACKUP_KEEP", DEFAULT_BACKUP_KEEP))
        self._max_bytes = int(app.config.get("BACKUP_MAX_BYTES", DEFAULT_BACKUP_MAX_BYTES))
        self._every = timedelta(
            seconds=float(app.config.get("BACKUP_EVERY_S", DEFAULT_BACKUP_EVERY_S))
        )
        self._cond = threading.Condition()
        self._pending, self._busy, self._stopping = True, True, False
        self._last_at: datetime | None = None
        self._last_row: int | None = None
        self._running: set[int] = set()
        self._conn: sqlite3.Connection | None = None
        #: Paths of the backups taken, in order (what the tests and the log read).
        self.taken: list[str] = []
        self._thread = threading.Thread(target=self._run, name="companion-backups", daemon=True)

    def start(self) -> None:
        """Take the start backup in the thread, then follow the change feed."""
        get_feed(self._app).add_listener(self._on_change)
        self._thread.start()

    def stop(self) -> None:
        """End the thread (after the backup it may be taking)."""
        get_feed(self._app).remove_listener(self._on_change)
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._thread.join()

    def wait_idle(self, timeout_s: float) -> bool:
        """Wait until every change notified so far has been looked at; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not (self._pending or self._busy), timeout_s)

    def _on_change(self, closed: bool) -> None:
        """Feed listener (inside the writer's request): flag the thread, nothing more."""
        with self._cond:
            self._stopping = self._stopping or closed
            self._pending = True
            self._cond.notify_all()

    def _run(self) -> None:
        """The thread: the start backup, then one look per batch of notifications."""
        reason: str | None = backup.START
        while True:
            with self._cond:
                self._pending = False
            self._look(reason)
            reason = None
            with self._cond:
                self._busy = False
                self._cond.notify_all()
                self._cond.wait_for(lambda: self._pending or self._stopping)
                if self._stopping:
                    break
                self._busy = True
        if self._conn is not None:
            self._conn.close()

    def _look(self, reason: str | None) -> None:
        """Take a backup if `reason` or a rule says so; a failure is one line in the log."""
        try:
            conn = self._connection()
            newest, running = _newest_row(conn), _running_evenings(conn)
            reason = reason or self._due(conn, newest, running)
            self._running = running
            if reason is not None:
                self._take(reason, newest)
        except Exception as exc:  # a backup never takes the server down
            self._app.logger.warning("Automatic backup failed: %s", exc)

    def _due(self, conn: sqlite3.Connection, newest: int | None, running: set[int]) -> str | None:
        """The rule that asks for a backup now, if any."""
        if _any_finished(conn, self._running - running):
            return backup.EVENING
        moved = newest != self._last_row
        if moved and (self._last_at is None or self._clock() - self._last_at >= self._every):
            return backup.HOURLY
        return None

    def _take(self, reason: str, newest: int | None) -> None:
        """One backup into the backups folder, then the folder pruned to its bounds."""
        now = self._clock()
        self._last_at, self._last_row = now, newest  # a failure waits for the next rule too
        target = backup.dated_path(backup.backups_dir(self._instance), reason, now)
        backup.take(self._database, target)
        self.taken.append(target)
        backup.prune(self._instance, self._keep, self._max_bytes)

    def _connection(self) -> sqlite3.Connection:
        """The thread's own connection to the database, opened on first use."""
        if self._conn is None:
            self._conn = db.connect(self._database)
        return self._conn


def _newest_row(conn: sqlite3.Connection) -> int | None:
    """The rowid of the log's newest row (the log only grows), None while it is empty."""
    return conn.execute("SELECT MAX(rowid) FROM log").fetchone()[0]


def _running_evenings(conn: sqlite3.Connection) -> set[int]:
    """The ids of the evenings with a table still in play."""
    return {row[0] for row in conn.execute(RUNNING_EVENINGS)}


def _any_finished(conn: sqlite3.Connection, evenings: set[int]) -> bool:
    """True if one of `evenings` has a finished table (it ended with a game, not a setup)."""
    if not evenings:
        return False
    marks = ", ".join("?" for _ in evenings)
    row = conn.execute(
        "SELECT 1 FROM table_evenings JOIN tables ON tables.id = table_evenings.table_id"
        f" WHERE table_evenings.evening_id IN ({marks}) AND tables.finished = 1 LIMIT 1",
        tuple(evenings),
    ).fetchone()
    return row is not None


def start(app: Flask, clock: Clock | None = None) -> AutoBackup:
    """Start the app's automatic backups (the first is taken at once, in the background)."""
    auto = AutoBackup(app, clock)
    app.extensions[_EXTENSION] = auto
    auto.start()
    return auto
