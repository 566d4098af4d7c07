"""`companion export` and `companion import`: the whole club as one JSON file (docs/export.md).

Exit status 0: done; 1: imported, but some tables did not replay and were kept aside (named
on stderr); 2: nothing changed, with a sentence on stderr saying why.
"""

import argparse
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date

from flask import Flask

from companion_app.server import jsonio
from companion_app.store import db, faults, instance_lock, startup
from companion_app.store import portable as club_file
from companion_app.store.portable_import import Report, import_club
from companion_app.store.portable_shape import TABLE_ID, check_document

EXIT_KEPT_ASIDE = 1
EXIT_REFUSED = 2
#: `companion`'s opener of an instance after its start-up checks (cli.open_app): passed in,
#: since this module cannot import the package that imports it.
Opener = Callable[..., Flask]


def add_commands(commands, open_app: Opener) -> None:
    """Add `export` and `import` to the `companion` subcommands."""
    export = commands.add_parser("export", help="write the whole club to one JSON file")
    export.add_argument("--instance", help="the companion's folder (default: its usual one)")
    export.add_argument("file", metavar="FILE", help="the JSON file to write")
    export.set_defaults(func=cmd_export, open_app=open_app)
    into = commands.add_parser("import", help="add a club file's people, tables and seasons")
    into.add_argument("--instance", help="the companion's folder (created if new)")
    into.add_argument("file", metavar="FILE", help="a file `companion export` wrote")
    into.set_defaults(func=cmd_import, open_app=open_app)


def _refuse(message: str) -> int:
    """Say why on stderr; the exit status for nothing changed."""
    print(message, file=sys.stderr)
    return EXIT_REFUSED


@contextmanager
def _held(instance: str) -> Iterator[None]:
    """The instance lock shared for the block (a server may run, a restore may not), or
    InstanceBusy with a sentence while a restore replaces the database."""
    try:
        held = instance_lock.try_shared(instance)
    except instance_lock.InstanceBusy:
        raise instance_lock.InstanceBusy(
            "A restore is replacing the database; run this again once it is done."
        ) from None
    try:
        yield
    finally:
        held.close()


def cmd_export(args: argparse.Namespace) -> int:
    """Write the club of an instance to FILE."""
    folder = os.path.abspath(args.instance) if args.instance else startup.default_instance()
    database = startup.database_file(folder)
    if not os.path.isfile(database):  # opening would make an empty one
        return _refuse(f"There is no companion database at {database}.")
    try:
        app = args.open_app(folder, create=False)
        with _held(app.instance_path), app.app_context():
            document = club_file.club_export(db.get_db())
    except (startup.CannotOpen, instance_lock.InstanceBusy) as exc:
        return _refuse(str(exc))
    except sqlite3.Error as exc:
        return _refuse(f"Cannot read the database {database}: {exc}.")
    try:
        club_file.write_json(args.file, document)
    except OSError as exc:
        return _refuse(f"Cannot write {args.file}: {exc.strerror or exc}.")
    found = club_file.counts(document)
    tables, people, evenings, seasons = (
        counted(found[kind], kind) for kind in ("tables", "people", "evenings", "seasons")
    )
    print(f"Exported {tables}, {people}, {evenings} and {seasons} to {args.file}.")
    return 0


def _read(path: str) -> object:
    """The file's JSON document, or BadFile saying why it cannot be read."""
    try:
        with open(path, "rb") as source:
            raw = source.read()
    except OSError as exc:
        raise club_file.BadFile(f"Cannot read {path}: {exc.strerror or exc}.") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise club_file.BadFile(
            f"{path} is not UTF-8 text: byte 0x{raw[exc.start]:02x} at position {exc.start}."
        ) from None
    try:
        return jsonio.parse(text, path)
    except jsonio.BadJson as exc:
        raise club_file.BadFile(str(exc)) from None


def cmd_import(args: argparse.Namespace) -> int:
    """Import FILE into an instance; the summary on stdout, tables kept aside on stderr."""
    try:
        document = check_document(_read(args.file))  # a bad file creates no instance
        app = args.open_app(args.instance, create=True)
        with _held(app.instance_path), app.app_context():
            report = import_club(db.get_db(), document, app.instance_path, date.today())
    except (
        club_file.BadFile,
        startup.CannotOpen,
        faults.StorageFault,
        instance_lock.InstanceBusy,
    ) as exc:
        return _refuse(f"Nothing was imported: {exc}")
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        return _refuse(f"Nothing was imported: cannot write{where}: {exc.strerror or exc}.")
    except sqlite3.Error as exc:
        return _refuse(f"Nothing was imported: the database refused it ({exc}).")
    for table_id, why in report.kept_aside:
        print(f"Table {shown_id(table_id)} was kept aside: {why}", file=sys.stderr)
    print(summary(report))
    return EXIT_KEPT_ASIDE if report.kept_aside else 0


#: The one of each counted kind, for "1 table" rather than "1 tables".
SINGULAR = {"tables": "table", "people": "person", "evenings": "evening", "seasons": "season"}


def counted(number: int, kind: str) -> str:
    """`number` and the kind, singular for one ("1 person", "2 people")."""
    return f"{number} {SINGULAR[kind] if number == 1 else kind}"


def shown_id(table_id: str) -> str:
    """A table id as printed: as it is, or quoted and escaped when it is not a plain id (a
    file's id could hold terminal control characters)."""
    return table_id if TABLE_ID.fullmatch(table_id) else ascii(table_id[:40])


def summary(report: Report) -> str:
    """One line: what was imported, what was already there, what was kept aside."""
    line = (
        f"Imported {counted(report.tables, 'tables')}, {counted(report.people, 'people')},"
        f" {counted(report.evenings, 'evenings')}, {counted(report.seasons, 'seasons')};"
        f" {report.already} already there; {len(report.kept_aside)} kept aside"
    )
    if report.kept_aside:
        ids = ", ".join(shown_id(table_id) for table_id, _ in report.kept_aside)
        line += f" ({ids}) in {report.rejected_path}"
    return line + "."
