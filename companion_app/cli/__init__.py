"""The `companion` command: `serve` the app (uvicorn), `score` a sheet, the club's files
(backup, restore, export, import), the table box."""

import argparse
import json
import os
import signal
import sys
from typing import TextIO

from companion_app.cli.device import add_commands as add_device_commands
from companion_app.config import BadSetting

DEFAULT_PORT = 5000
#: Exit status for a rejected sheet (SCORESHEETS.md), the same as argparse's usage errors.
EXIT_REJECTED = 2
#: Exit status when the server cannot start (port busy, address not available, its folder or
#: database unusable): a sentence on stderr, like argparse's usage errors.
EXIT_CANNOT_SERVE = 2
#: Ports `--port` takes (0: any free port, the one chosen is printed).
MAX_PORT = 65535


def _emit(value: dict, stream: TextIO, indent: int | None = None) -> None:
    """Print `value` as JSON; if the stream cannot encode a character, print it escaped."""
    try:
        print(json.dumps(value, ensure_ascii=False, indent=indent), file=stream)
    except UnicodeEncodeError:  # a console in a legacy code page, or a lone surrogate
        print(json.dumps(value, indent=indent), file=stream)


def _fail(message: str) -> int:
    """Print `{"error": message}` on stderr; the exit status for a rejected sheet."""
    _emit({"error": message}, sys.stderr)
    return EXIT_REJECTED


def _read_sheet_text(path: str | None) -> str:
    """The sheet's text (UTF-8, a BOM allowed) from `path`, or stdin when none (or "-")."""
    if path is None or path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        raw = buffer.read() if buffer is not None else sys.stdin.read()
    else:
        with open(path, "rb") as sheet_file:
            raw = sheet_file.read()
    return raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw


def cmd_score(args: argparse.Namespace) -> int:
    """Score one sheet: the result JSON on stdout (0), or the error JSON on stderr (2)."""
    from companion_app.server import jsonio
    from scoring.errors import InvalidSheet
    from scoring.sheets import score_sheet

    where = "standard input" if args.file in (None, "-") else args.file
    try:
        text = _read_sheet_text(args.file)
    except OSError as exc:
        return _fail(f"Cannot read the sheet {where}: {exc.strerror or exc}.")
    except UnicodeDecodeError as exc:
        byte = exc.object[exc.start]
        return _fail(f"The sheet is not valid UTF-8: byte 0x{byte:02x} at position {exc.start}.")
    try:
        sheet = jsonio.parse(text, "The sheet")
    except jsonio.BadJson as exc:
        return _fail(str(exc))
    try:
        result = score_sheet(sheet)
    except InvalidSheet as exc:
        return _fail(str(exc))
    _emit(result, sys.stdout, indent=2)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve with uvicorn (never Flask's dev server); run the box's bridge if there is a box."""
    from companion_app.cli import backup as backup_cli
    from companion_app.cli import embed
    from companion_app.device import status
    from companion_app.server import serve
    from companion_app.store import backup_auto
    from companion_app.store.startup import CannotOpen

    if args.workers is None:
        args.workers = serve.worker_processes.default_workers()
    if args.workers > 1 and not serve.worker_processes.supported():
        print(
            "More than one worker needs fork (Linux, macOS): serve with --workers 1.",
            file=sys.stderr,
        )
        return EXIT_REJECTED
    held = backup_cli.hold_instance(args.instance)  # noqa: F841 -- until we return: no restore
    try:
        app = open_app(args.instance, create=True)
    except CannotOpen as exc:
        print(exc, file=sys.stderr)
        return EXIT_CANNOT_SERVE
    chosen = embed.plan(args.device, args.simulate)
    running: list[embed.Embedded] = []

    if chosen.engine == "micropython" and not _micropython_can_run():
        return EXIT_REJECTED

    backups: list = []

    def start_device(url: str) -> None:
        backups.append(backup_auto.start(app))  # here: after the workers are forked, if any
        print(chosen.message, flush=True)
        try:
            running.append(embed.Embedded(app, url, chosen))
        except OSError as exc:  # no pty for the simulator: serve anyway, with the panel
            print(f"Cannot start the box's bridge: {exc}.", file=sys.stderr)
            return
        if running[-1].sim is not None:
            print(running[-1].sim.note, flush=True)

    _release_long_polls_on_stop(app)
    try:
        serve.run(
            app,
            args.host,
            args.port,
            lan=args.lan,
            threads=args.threads,
            workers=args.workers,
            shared=serve.worker_processes.Shared(status.owner_status, status.worker_status),
            on_bound=start_device,
        )
    except OSError as exc:
        print(f"Cannot listen on port {args.port}: {exc.strerror or exc}.", file=sys.stderr)
        return EXIT_CANNOT_SERVE
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
    finally:
        for device in running:
            device.stop()
        for started in backups:
            started.stop()
    return 0


def open_app(instance: str | None, *, create: bool):
    """The app on `instance` (default: Flask's), after checking its folder and database.

    CannotOpen, whose message names the file and what to do, when either is unusable; a
    missing folder is made only if `create`.
    """
    import sqlite3

    from companion_app import create_app
    from companion_app.store import faults, startup

    folder = os.path.abspath(instance) if instance else startup.default_instance()
    startup.check_instance(folder, create=create)
    database = startup.database_file(folder)
    startup.check_database(database, folder)
    try:
        return create_app(instance_path=folder)
    except (OSError, sqlite3.Error, RuntimeError, faults.StorageFault) as error:
        raise startup.CannotOpen(startup.explain(error, folder, database)) from error


def port_number(text: str) -> int:
    """`--port`: a whole number from 0 to MAX_PORT (argparse says so and exits 2 otherwise)."""
    try:
        port = int(text, 10)
    except ValueError:
        port = -1
    if not 0 <= port <= MAX_PORT:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a port: give a whole number from 1 to {MAX_PORT} (0: any free port)."
        )
    return port


def positive_int(text: str) -> int:
    """A whole number of at least 1 (argparse says so and exits 2 otherwise)."""
    try:
        number = int(text, 10)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1.")
    return number


def _micropython_can_run() -> bool:
    """True if the simulator can run MicroPython; else say why on stderr."""
    from companion_app.simulator.micropython import SimulatorUnavailable, find_micropython

    try:
        find_micropython()
    except SimulatorUnavailable as exc:
        print(f"Cannot simulate the box on MicroPython: {exc}.", file=sys.stderr)
        return False
    return True


def _release_long_polls_on_stop(app) -> None:
    """On Ctrl-C or SIGTERM, end long polls and live streams first, so serving stops at once.

    While uvicorn serves, its own handlers do the same (server/serve.py) and pass the signal
    on here when they are done.
    """
    from companion_app.store.changes import get_feed

    def stop(signum: int, _frame: object) -> None:
        get_feed(app).close()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with the `serve` and `score` subcommands."""
    from companion_app.cli import backup as backup_cli
    from companion_app.cli.portable import add_commands as add_portable_commands
    from companion_app.server.serve import DEFAULT_THREADS, LOOPBACK

    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the companion for the tablet")
    serve.add_argument("--host", default=LOOPBACK, help="listen address (default %(default)s)")
    serve.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help="port (default %(default)s)"
    )
    serve.add_argument(
        "--lan", action="store_true", help="listen on every interface and print the tablet's URL"
    )
    serve.add_argument("--instance", help="folder for the database and session key")
    serve.add_argument(
        "--threads", type=positive_int, default=DEFAULT_THREADS, help=argparse.SUPPRESS
    )
    serve.add_argument(
        "--workers",
        type=positive_int,
        help="worker processes sharing the database (default: one per core, at most 8;"
        " more than 1 on Linux and macOS only: docs/scale.md)",
    )
    box = serve.add_mutually_exclusive_group()
    box.add_argument("--device", metavar="PORT", help="the table box's serial port")
    box.add_argument(
        "--simulate",
        nargs="?",
        const="auto",
        default=False,
        choices=("auto", "micropython", "cpython"),
        metavar="ENGINE",
        help="run a simulated table box: the firmware on MicroPython (WebAssembly in Node),"
        " or on CPython (auto: MicroPython when Node and its package are installed)",
    )
    serve.set_defaults(func=cmd_serve)
    score = commands.add_parser("score", help="score a sheet (SCORESHEETS.md) from FILE or stdin")
    score.add_argument("file", nargs="?", metavar="FILE", help="sheet JSON (default: stdin)")
    score.set_defaults(func=cmd_score)
    backup_cli.add_commands(commands)
    add_portable_commands(commands, open_app)
    device = add_device_commands(commands)
    key = device.add_parser("key", help="print the device key a bridge on another computer sends")
    key.add_argument("--instance", help="the companion's folder (database and session key)")
    key.add_argument(
        "--new",
        metavar="NAME",
        help="issue another key, for the bridge NAME (each key can be revoked on the club page)",
    )
    key.set_defaults(func=cmd_device_key)
    organiser = commands.add_parser("organiser", help="the club organiser's keys")
    organiser_keys = organiser.add_subparsers(dest="organiser_command", required=True)
    okey = organiser_keys.add_parser(
        "key", help="issue an organiser key a script sends (Authorization: Bearer <key>)"
    )
    okey.add_argument("--instance", help="the companion's folder (database and session key)")
    okey.add_argument("--name", default="", help="who or what the key is for (the club page)")
    okey.set_defaults(func=cmd_organiser_key)
    return parser


def cmd_organiser_key(args: argparse.Namespace) -> int:
    """Issue and print a new organiser key (revocable on the club page; issue 33 item 10)."""
    return _print_key(args, "organiser", args.name)


def cmd_device_key(args: argparse.Namespace) -> int:
    """Print this companion's device key (for `companion device run --key` elsewhere).

    Only for a folder a companion already uses: a key made up elsewhere no server accepts.
    The newest key not revoked, issued on first use; `--new NAME` issues another (issue 33
    item 10: the organiser revokes each on the club page).
    """
    return _print_key(args, "device", args.new)


def _print_key(args: argparse.Namespace, kind: str, new: str | None) -> int:
    """Print the newest `kind` key in force (issued if none or if `new` names another)."""
    from companion_app.server import rights
    from companion_app.store.startup import CannotOpen

    try:
        app = open_app(args.instance, create=False)
    except CannotOpen as exc:
        print(exc, file=sys.stderr)
        return EXIT_CANNOT_SERVE
    from companion_app.i18n import translate_error
    from companion_app.store import access_keys, db
    from companion_app.store.faults import StorageFault
    from scoring.errors import RuleError

    with app.test_request_context():
        current = access_keys.newest_active(db.get_db(), kind)
        try:
            if current is None or new is not None:
                key = rights.issue_key(kind, new or "")
            else:
                key = rights.issued_key(current.id, current.kind)
        except (RuleError, StorageFault) as refused:
            print(translate_error(refused), file=sys.stderr)
            return EXIT_REJECTED
        print(key)
    return 0


def bridge_parser() -> argparse.ArgumentParser:
    """A parser of the `device` and `firmware` subcommands alone (`device run` uses it: the
    whole parser imports the server, the store and Flask, which a bridge never needs)."""
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    add_device_commands(parser.add_subparsers(dest="command", required=True))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `companion` console script."""
    argv = sys.argv[1:] if argv is None else argv
    quick = list(argv[:2]) == ["device", "run"]  # a restarted bridge: the box waits for it
    args = (bridge_parser() if quick else build_parser()).parse_args(argv)
    try:
        return args.func(args)
    except BadSetting as bad:  # a mistyped COMPANION_* variable: its sentence, not a traceback
        print(bad, file=sys.stderr)
        return EXIT_REJECTED
