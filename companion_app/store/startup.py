"""Before the companion opens its folder and database: what stands in the way, in a sentence.

The CLI (`companion serve`, `companion device key`) checks here first and prints the sentence
(exit 2) instead of a traceback: a folder that is a file or missing, a read-only disk, a
database that is damaged, truncated or not a database at all (with the newest backup to
restore). `explain` words whatever opening the app raised after these checks passed.
"""

import errno
import os
import shlex
import sqlite3

from flask import Flask

from companion_app.config import Config
from companion_app.store import backup as backups
from companion_app.store import faults

#: The first 16 bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"
#: Seconds the write check waits for a running server's write to end.
BUSY_S = 5.0


class CannotOpen(Exception):
    """The companion cannot open its folder or database; the message says which and why."""


def default_instance() -> str:
    """The instance folder Flask gives the app when no --instance is given."""
    return Flask("companion_app").instance_path


def database_file(instance: str) -> str:
    """The database of `instance` (COMPANION_DATABASE, relative to the folder)."""
    return os.path.join(instance, Config().DATABASE)


def check_instance(instance: str, *, create: bool) -> None:
    """Refuse a folder that is a file, missing (unless `create`: then made) or read-only."""
    if os.path.exists(instance) and not os.path.isdir(instance):
        raise CannotOpen(f"{instance} is a file, not a folder: give --instance a folder.")
    if not os.path.exists(instance):
        if not create:
            raise CannotOpen(
                f"There is no companion folder at {instance}: give --instance the folder"
                " `companion serve` uses (its first start makes it)."
            )
        try:
            os.makedirs(instance)
        except OSError as error:
            raise CannotOpen(_os_sentence(error, instance)) from error
    if faults.folder_state(instance) == faults.READONLY or not os.access(instance, os.W_OK):
        raise CannotOpen(_read_only(instance))


def check_database(database: str, instance: str) -> None:
    """Refuse a database file that is a folder, not a database, damaged or read-only."""
    if not os.path.exists(database):
        return  # the first start makes it
    if os.path.isdir(database):
        raise CannotOpen(f"{database} is a folder, not the companion's database file.")
    try:
        with open(database, "rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise CannotOpen(_os_sentence(error, database)) from error
    if header and header != SQLITE_HEADER:
        raise CannotOpen(_damaged(database, instance, "it is not a SQLite database"))
    try:
        _check_sqlite(database, instance)
    except sqlite3.Error as error:
        raise CannotOpen(explain(error, instance, database)) from error


def _check_sqlite(database: str, instance: str) -> None:
    """Read every page (quick_check) and try a write that is rolled back."""
    conn = sqlite3.connect(database, timeout=BUSY_S, isolation_level=None)
    try:
        findings = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
        if findings != ["ok"]:
            raise CannotOpen(_damaged(database, instance, findings[0]))
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(f"PRAGMA user_version = {version}")  # writes the header page
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
    finally:
        conn.close()


def explain(error: BaseException, instance: str, database: str) -> str:
    """A sentence for what opening the folder or database raised."""
    if isinstance(error, faults.StorageFault):  # a write of the first start (club_sync)
        return _storage_sentence(error.kind, database)
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
        if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
            return _damaged(database, instance, str(error))
        kind = faults.classify(error, os.path.dirname(database))
        if kind in (faults.READONLY, faults.FULL):
            return _storage_sentence(kind, database)
        return f"Cannot open the database {database}: {error}."
    if isinstance(error, OSError):
        return _os_sentence(error, error.filename or instance)
    return str(error)


def newest_backup(instance: str) -> str | None:
    """The newest backup in the instance's backups folder (never a half-written one), or None."""
    found = backups.listed(instance)
    return os.path.join(backups.backups_dir(instance), found[0].name) if found else None


def _damaged(database: str, instance: str, finding: str) -> str:
    """The sentence for a damaged database, with the newest backup to restore."""
    sentence = f"The database {database} is damaged ({finding})."
    backup = newest_backup(instance)
    if backup is None:
        return sentence + f" There is no backup in {backups.backups_dir(instance)}."
    restore = shlex.join(["companion", "restore", "--instance", instance, backup])
    return f"{sentence} The newest backup is {backup}. Restore it with: {restore}"


def _storage_sentence(kind: str, database: str) -> str:
    """The sentence for a database on a read-only, full or failing disk."""
    if kind == faults.READONLY:
        return _read_only(database)
    if kind == faults.FULL:
        return _full(database)
    return f"The disk holding {database} reported an error writing it: check the disk."


def _read_only(path: str) -> str:
    """The sentence for a read-only file or folder."""
    return (
        f"{path} is read-only: the companion writes its database and session key there."
        " Make it writable (or give --instance a writable folder) and start again."
    )


def _full(path: str) -> str:
    """The sentence for a full disk."""
    return f"The disk holding {path} is full: free some space and start again."


def _os_sentence(error: OSError, path: str) -> str:
    """A sentence for an OSError on `path` (a file in the way, a read-only or full disk)."""
    if error.errno in (errno.EEXIST, errno.ENOTDIR):
        return f"{path} is in the way: part of it is a file, not a folder."
    kind = faults.classify(error)
    if kind == faults.READONLY:
        return _read_only(path)
    if kind == faults.FULL:
        return _full(path)
    return f"Cannot use {path}: {error.strerror or error}."
