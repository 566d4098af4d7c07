"""Backups of the database: a consistent copy while the server runs, listed and kept bounded.

A copy is made with SQLite's online backup API in one step: it reads one snapshot of the
database (WAL: readers never block the writer, so moves go on meanwhile) into a temporary file
beside the target, which is renamed into place only once complete and synced, so a backup
under its final name is always whole. The copy is a single file (journal mode DELETE, no WAL
beside it). Automatic backups (store/backup_auto.py) and `companion backup` without FILE
write dated names into `<instance>/backups/`; `prune` keeps that folder within its bounds.
"""

import os
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from companion_app.config import BACKUPS_DIR

#: Dated backup names: companion-2026-12-03-162155[-n]-<reason>.sqlite3 (local time).
NAME_FORMAT = "companion-%Y-%m-%d-%H%M%S"
SUFFIX = ".sqlite3"
NAME_PATTERN = re.compile(r"companion-\d{4}-\d{2}-\d{2}-\d{6}(-\d+)?-[a-z]+\.sqlite3")
#: Why a backup was taken (the end of its name).
MANUAL, START, HOURLY, EVENING = "manual", "start", "hourly", "evening"
_PARTIAL = ".partial"
NO_DATABASE = "There is no database at {path}: nothing to back up."


class BackupError(Exception):
    """A backup that could not be taken; the message is a sentence for the user."""


@dataclass(frozen=True)
class BackupFile:
    """One backup in the backups folder: its file name, size in bytes and when it was written."""

    name: str
    size: int
    taken_at: datetime


def backups_dir(instance_path: str) -> str:
    """The folder of an instance's backups."""
    return os.path.join(instance_path, BACKUPS_DIR)


def dated_path(folder: str, reason: str, when: datetime) -> str:
    """A new file name in `folder` for a backup taken `when`, not yet used."""
    stem = when.astimezone().strftime(NAME_FORMAT)
    path = os.path.join(folder, f"{stem}-{reason}{SUFFIX}")
    count = 1
    while os.path.exists(path):
        count += 1
        path = os.path.join(folder, f"{stem}-{count}-{reason}{SUFFIX}")
    return path


def open_existing(path: str, read_only: bool = False) -> sqlite3.Connection:
    """A connection to an existing database file (never creating one), rows by name."""
    mode = "ro" if read_only else "rw"
    conn = sqlite3.connect(f"file:{_uri_path(path)}?mode={mode}", uri=True, isolation_level=None)
    conn.row_factory = sqlite3.Row
    return conn


def _uri_path(path: str) -> str:
    """`path` quoted for a file: URI (SQLite reads ? and # there)."""
    return os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def take(database: str, target: str) -> int:
    """Copy the database at `database` to `target` consistently; the copy's size in bytes.

    BackupError (with a sentence) when there is no database or `target` cannot be written;
    `target` is then left as it was.
    """
    if not os.path.isfile(database):
        raise BackupError(NO_DATABASE.format(path=database))
    if _same_file(database, target):
        raise BackupError(f"{target} is the database itself; write the backup somewhere else.")
    partial = target + _PARTIAL
    try:
        _start_file(partial)
    except OSError as exc:
        raise BackupError(f"Cannot write the backup {target}: {exc.strerror or exc}.") from None
    try:
        _copy_into(database, partial)
        sync_file(partial)
        os.replace(partial, target)
        sync_dir(os.path.dirname(os.path.abspath(target)))
        return os.path.getsize(target)
    except OSError as exc:
        remove_if_present(partial)
        raise BackupError(f"Cannot write the backup {target}: {exc.strerror or exc}.") from None
    except sqlite3.Error as exc:
        remove_if_present(partial)
        raise BackupError(f"Cannot copy the database {database}: {exc}.") from None


def _same_file(database: str, target: str) -> bool:
    """True when `target` is the database or one of its WAL and shared-memory files."""
    real = os.path.realpath(database)
    return os.path.realpath(target) in {real, real + "-wal", real + "-shm"}


def _start_file(partial: str) -> None:
    """An empty `partial` (its folder made): proof the target's place can be written."""
    os.makedirs(os.path.dirname(os.path.abspath(partial)), exist_ok=True)
    with open(partial, "wb"):
        pass


def _copy_into(database: str, partial: str) -> None:
    """SQLite's online backup of `database` into the empty file `partial`, as one file."""
    source = open_existing(database)
    try:
        copy = sqlite3.connect(partial, isolation_level=None)
        try:
            source.backup(copy)  # every page in one step: one snapshot, never restarted
            copy.execute("PRAGMA journal_mode=DELETE")
            _forget_sealed_choices(copy)
        finally:
            copy.close()
    finally:
        source.close()


def _forget_sealed_choices(copy: sqlite3.Connection) -> None:
    """Leave the phones' sealed choices out of a backup, their bytes zeroed (secure_delete):
    a backup can be downloaded while a game runs, and a sealed choice is nobody's to read
    before the reveal (docs/seats.md); the moves they made are in the log anyway."""
    found = copy.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sealed_choices'"
    ).fetchone()
    if found is not None:
        copy.execute("PRAGMA secure_delete=ON")
        copy.execute("DELETE FROM sealed_choices")


def sync_file(path: str) -> None:
    """Flush a file's bytes, or a folder's entries (a rename), to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


#: A folder is flushed as a file is: its entries are what an fsync of it writes.
sync_dir = sync_file


def remove_if_present(path: str) -> None:
    """Delete `path` if it is there."""
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def listed(instance_path: str) -> list[BackupFile]:
    """The backups in the instance's backups folder, the newest first."""
    folder = backups_dir(instance_path)
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    found = []
    for name in names:
        if not NAME_PATTERN.fullmatch(name):
            continue
        try:
            info = os.stat(os.path.join(folder, name))
        except FileNotFoundError:  # pruned meanwhile
            continue
        found.append(BackupFile(name, info.st_size, datetime.fromtimestamp(info.st_mtime, UTC)))
    return sorted(found, key=lambda each: (each.taken_at, each.name), reverse=True)


def prune(instance_path: str, keep: int, max_bytes: int) -> list[str]:
    """Remove the oldest backups past `keep` files or `max_bytes` in all; the names removed.

    The newest backup always stays, even alone above `max_bytes`: it is the one to restore.
    """
    kept_bytes, removed = 0, []
    for index, backup in enumerate(listed(instance_path)):
        kept_bytes += backup.size
        if index == 0 or (index < keep and kept_bytes <= max_bytes):
            continue
        remove_if_present(os.path.join(backups_dir(instance_path), backup.name))
        removed.append(backup.name)
    return removed


def find(instance_path: str, name: str) -> str | None:
    """The path of the backup called `name` in the backups folder, or None (a bad name too)."""
    if not NAME_PATTERN.fullmatch(name):
        return None
    path = os.path.join(backups_dir(instance_path), name)
    return path if os.path.isfile(path) else None
