"""Putting a backup in place of the database: checked first, the current one kept aside.

Nothing is touched before the backup passes every check (store/backup_check.py), and the
check runs on the very copy that is put in place: the backup is copied (SQLite's backup
API, which also takes in a WAL beside it) to a staging file in the database's folder, checked
there, then renamed over the database. The current database, its WAL and shared-memory files
are first renamed with one dated suffix, so they stay a pair SQLite opens together. All of it
under the instance lock held alone: a running `companion serve` makes the restore refuse.
"""

import os
import shutil
from dataclasses import dataclass
from datetime import datetime

from companion_app.store import backup, backup_check, instance_lock
from companion_app.store.backup_check import BadBackup

#: Suffix of the database kept aside: companion.sqlite3.before-restore-2026-12-03-162155.
ASIDE_FORMAT = ".before-restore-%Y-%m-%d-%H%M%S"
#: SQLite's files beside a database in WAL mode.
SIDE_FILES = ("-wal", "-shm")
_STAGING = ".restoring"

BUSY = (
    "Stop the companion first: a `companion serve` has {instance} open (its lock"
    " {lock} is held). Stop it (Ctrl-C in its terminal), run the restore again, then start it."
)


@dataclass(frozen=True)
class Restored:
    """What a restore did: the check's findings and where the previous database went."""

    checked: backup_check.Checked
    aside: list[str]


def restore(instance_path: str, database: str, source: str) -> Restored:
    """Check `source` and put it in place of `database`; BadBackup (with a sentence) if not.

    InstanceBusy (with what to do) while a server holds the instance; in every refusal
    nothing has changed.
    """
    try:
        with instance_lock.exclusive(instance_path):
            return _restore_locked(database, source)
    except instance_lock.InstanceBusy as busy:
        raise instance_lock.InstanceBusy(BUSY.format(instance=instance_path, lock=busy)) from None


def _restore_locked(database: str, source: str) -> Restored:
    """The restore itself, with the instance lock held alone."""
    if not os.path.isfile(source):
        raise BadBackup(f"There is no backup file {source}.")
    try:
        sqlite_header = _looks_like_sqlite(source)
    except OSError as exc:
        raise BadBackup(f"Cannot read the backup {source}: {exc.strerror or exc}.") from None
    if not sqlite_header:
        raise BadBackup(f"{source} is not an SQLite database (its first bytes say otherwise).")
    staging = database + _STAGING
    _discard(staging)
    try:
        checked = _stage(source, staging)
        aside = _keep_aside(database)
        try:
            os.replace(staging, database)
        except OSError:
            _put_back(aside)
            raise
    except OSError as exc:
        _discard(staging)
        raise BadBackup(f"Cannot restore into {database}: {exc.strerror or exc}.") from None
    except BadBackup:
        _discard(staging)
        raise
    backup.sync_dir(os.path.dirname(os.path.abspath(database)))
    return Restored(checked, [new for _old, new in aside])


def _stage(source: str, staging: str) -> backup_check.Checked:
    """Copy `source` (and a WAL beside it) to `staging`, check the copy; the findings.

    A byte copy, not SQLite's backup API: opening the source would write SQLite's side files
    next to the user's file; the staging copy opens read-write and folds its WAL in.
    """
    os.makedirs(os.path.dirname(os.path.abspath(staging)), exist_ok=True)
    shutil.copyfile(source, staging)
    if os.path.isfile(source + "-wal"):
        shutil.copyfile(source + "-wal", staging + "-wal")
    conn = backup.open_existing(staging)
    try:
        checked = backup_check.check(conn, source)
        conn.execute("PRAGMA journal_mode=DELETE")  # the WAL folded in: one file to rename
    finally:
        conn.close()
    backup.sync_file(staging)
    return checked


def _discard(staging: str) -> None:
    """Remove the staging copy and whatever SQLite left beside it."""
    for side in ("", *SIDE_FILES):
        backup.remove_if_present(staging + side)


def _looks_like_sqlite(path: str) -> bool:
    """True when the file starts with SQLite's header string."""
    with open(path, "rb") as file:
        return file.read(16) == b"SQLite format 3\x00"


def _keep_aside(database: str) -> list[tuple[str, str]]:
    """Rename the database and its side files with a dated suffix; (old, new) pairs."""
    suffix = _free_suffix(database)
    moved: list[tuple[str, str]] = []
    try:
        for side in ("", *SIDE_FILES):
            old = database + side
            if os.path.exists(old):
                new = database + suffix + side
                os.replace(old, new)
                moved.append((old, new))
    except OSError:
        _put_back(moved)
        raise
    return moved


def _free_suffix(database: str) -> str:
    """A dated suffix no file beside the database has yet (two restores in one second)."""
    stem = datetime.now().strftime(ASIDE_FORMAT)
    suffix, count = stem, 1
    while any(os.path.exists(database + suffix + side) for side in ("", *SIDE_FILES)):
        count += 1
        suffix = f"{stem}-{count}"
    return suffix


def _put_back(moved: list[tuple[str, str]]) -> None:
    """Undo `_keep_aside` (a rename that failed half way leaves nothing changed)."""
    for old, new in reversed(moved):
        os.replace(new, old)
