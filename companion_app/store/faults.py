"""Storage faults while serving: a full or read-only disk, a failing one, told in one sentence.

A write that meets one is refused with `StorageFault` (503 in the API, a sentence next to the
control on a page): its transaction rolled back, so nothing was changed and nothing that was
acknowledged is touched. Each kind is logged as one line at most every LOG_EVERY_S seconds,
with how many more came in between: a full disk refuses every move, and a traceback per move
would only fill what little room is left.
"""

import errno
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable

from flask import current_app, has_app_context, has_request_context, request

from companion_app.store.model import StoreError
from scoring.errors import N_

FULL, READONLY, FAILING = "full", "read-only", "failing"
#: Seconds between two log lines of the same kind of fault.
LOG_EVERY_S = 10.0
#: The app config key of the log's clock (seconds, monotonic); tests put a fake one there.
CLOCK_KEY = "STORAGE_FAULT_CLOCK"
SENTENCES = {
    FULL: N_("The companion could not save: the disk is full; nothing was changed."),
    READONLY: N_("The companion could not save: the disk is read-only; nothing was changed."),
    FAILING: N_("The companion could not save: the disk reported an error; nothing was changed."),
}
_ERRNOS = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EROFS: READONLY, errno.EIO: FAILING}
#: SQLite's primary result codes (the low byte of an extended code).
_SQLITE_KINDS = {
    sqlite3.SQLITE_FULL: FULL,
    sqlite3.SQLITE_READONLY: READONLY,
    sqlite3.SQLITE_IOERR: FAILING,
    sqlite3.SQLITE_CANTOPEN: FAILING,
}
_EXTENSION = "companion_storage_faults"
log = logging.getLogger(__name__)


class StorageFault(StoreError):
    """A write refused because the disk is full, read-only or failing; nothing was changed."""

    def __init__(self, kind: str) -> None:
        """The kind (FULL, READONLY, FAILING) and its sentence."""
        self.kind = kind
        super().__init__(SENTENCES[kind])


def classify(error: BaseException, folder: str | None = None) -> str | None:
    """The kind of storage fault `error` is (None: not one); `folder` holds the database.

    SQLite says "disk I/O error" for a write the system refused whatever the reason, so a
    failing write is named after the folder's state when it is known: read-only or full.
    """
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        kind = None if code is None else _SQLITE_KINDS.get(code & 0xFF)
    elif isinstance(error, OSError):
        kind = _ERRNOS.get(error.errno)
    else:
        return None
    if kind == FAILING and folder is not None:
        return folder_state(folder) or FAILING
    return kind


def folder_state(folder: str) -> str | None:
    """READONLY or FULL when the file system holding `folder` is so, else None."""
    try:
        found = os.statvfs(folder)
    except OSError:
        return None
    if found.f_flag & os.ST_RDONLY:
        return READONLY
    if found.f_bavail == 0 or found.f_favail == 0:
        return FULL
    return None


class FaultLog:
    """One log line per kind of fault per LOG_EVERY_S, saying how many were not logged."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """An empty log reading time from `clock`."""
        self._clock = clock
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._quiet: dict[str, int] = {}

    def report(self, kind: str, error: BaseException, what: str) -> bool:
        """Log that `what` was refused, unless this kind was logged within LOG_EVERY_S; True
        if it was logged."""
        now = self._clock()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < LOG_EVERY_S:
                self._quiet[kind] = self._quiet.get(kind, 0) + 1
                return False
            self._last[kind] = now
            quiet = self._quiet.pop(kind, 0)
        more = f" ({quiet} more since the last line)" if quiet else ""
        log.error("Could not save, the disk is %s (%s): %s refused%s.", kind, error, what, more)
        return True


def report(kind: str, error: BaseException) -> None:
    """Log a fault, and the request it refused, through the app's FaultLog (every one outside
    an app)."""
    what = f"{request.method} {request.path[:80]}" if has_request_context() else "a write"
    if not has_app_context():
        FaultLog().report(kind, error, what)
        return
    extensions = current_app.extensions
    fault_log = extensions.get(_EXTENSION)
    if fault_log is None:
        clock = current_app.config.get(CLOCK_KEY) or time.monotonic
        fault_log = extensions.setdefault(_EXTENSION, FaultLog(clock))
    fault_log.report(kind, error, what)
