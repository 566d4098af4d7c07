"""`companion backup` and `companion restore` (docs/backups.md); the instance lock of `serve`.

Neither builds the app: building it opens the database and writes to it (schema, club rows),
which a backup must not do to a database that is not there and a restore must not do before
the check. They find the instance folder and the database as `create_app` would.
"""

import argparse
import os
import sys
from datetime import datetime

from companion_app.config import Config
from companion_app.store import backup, instance_lock, restore, startup
from companion_app.store.backup_check import BadBackup

#: Exit status of a refused backup or restore (like a rejected sheet or a usage error).
EXIT_REFUSED = 2
_UNITS = ("bytes", "kB", "MB", "GB")
_STEP = 1000


def instance_folder(given: str | None) -> str:
    """The instance folder: `--instance`, else the one `create_app` uses by default."""
    return os.path.abspath(given) if given else startup.default_instance()


def database_of(instance: str) -> str:
    """The database file of an instance (COMPANION_DATABASE, relative to the folder)."""
    return startup.database_file(instance)


def size_text(size: int) -> str:
    """A size the way a person reads it: 1.2 MB (1,234,567 bytes)."""
    value, unit = float(size), 0
    while value >= _STEP and unit < len(_UNITS) - 1:
        value, unit = value / _STEP, unit + 1
    if unit == 0:
        return f"{size:,} bytes"
    return f"{value:.1f} {_UNITS[unit]} ({size:,} bytes)"


def _refuse(message: str) -> int:
    """A sentence on stderr; the refusal's exit status."""
    print(message, file=sys.stderr)
    return EXIT_REFUSED


def cmd_backup(args: argparse.Namespace) -> int:
    """Copy the database consistently (the server may be running) to FILE or backups/."""
    instance = instance_folder(args.instance)
    settings = Config()
    default = args.file is None
    folder = backup.backups_dir(instance) if default else args.file
    if default or os.path.isdir(args.file):
        target = backup.dated_path(folder, backup.MANUAL, datetime.now().astimezone())
    else:
        target = args.file
    if not os.path.isfile(database_of(instance)):  # before the lock, which makes the folder
        return _refuse(backup.NO_DATABASE.format(path=database_of(instance)))
    try:
        held = instance_lock.try_shared(instance)
    except instance_lock.InstanceBusy:
        return _refuse("A restore is replacing the database; run the backup once it is done.")
    try:
        size = backup.take(database_of(instance), target)
    except backup.BackupError as exc:
        return _refuse(str(exc))
    finally:
        held.close()
    if default:
        backup.prune(instance, settings.BACKUP_KEEP, settings.BACKUP_MAX_BYTES)
    print(f"Backed up the database to {os.path.abspath(target)}: {size_text(size)}.")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Check FILE, keep the current database aside and put FILE in its place."""
    instance = instance_folder(args.instance)
    database = database_of(instance)
    try:
        done = restore.restore(instance, database, args.file)
    except (BadBackup, instance_lock.InstanceBusy) as exc:
        return _refuse(f"{exc} Nothing was changed.")
    checked = done.checked
    print(
        f"Checked {args.file}: SQLite finds it whole, schema version {checked.schema_version},"
        f" {checked.tables - len(checked.unreplayable)} table(s) replay to their stored state."
    )
    for note in checked.unreplayable:
        print(f"Today's rules no longer replay the old moves of {note}; its stored state stands.")
    for path in done.aside:
        print(f"Kept the previous database aside: {path}")
    print(f"Restored {args.file} as {database}; start the companion again.")
    return 0


def hold_instance(given: str | None) -> instance_lock.Held | None:
    """For `companion serve`: the instance lock, held shared while the result is kept.

    None when the folder cannot hold a lock file (a file, read-only): serve's own checks
    then say what is wrong with it, in a sentence.
    """
    try:
        return instance_lock.hold_shared(instance_folder(given))
    except OSError:
        return None


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Add `backup` and `restore` to the `companion` command."""
    made = commands.add_parser(
        "backup", help="copy the database consistently, also while the companion runs"
    )
    made.add_argument("--instance", help="the companion's folder (database and session key)")
    made.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="where to write it (a folder: a dated name in it; default: a dated name in the"
        " instance folder's backups/)",
    )
    made.set_defaults(func=cmd_backup)
    back = commands.add_parser(
        "restore", help="check a backup and put it in place of the database (companion stopped)"
    )
    back.add_argument("--instance", help="the companion's folder (database and session key)")
    back.add_argument("file", metavar="FILE", help="the backup to restore")
    back.set_defaults(func=cmd_restore)
