"""`companion device run|simulate|ports|check` and `companion firmware deploy|stop`."""

import argparse
import logging
import os
import sys
import threading
import time

from companion_app.bridge import detect
from companion_app.bridge.appclient import DEVICE_KEY_ENV

DEFAULT_APP = "http://127.0.0.1:5000"
EXIT_NO_BOX = 1
EXIT_CHECK_FAILED = 1  # the box was checked and something failed
EXIT_BAD_OPTION = 2  # an option that cannot be honoured here (argparse's status for usage)
SHOW_S = 0.1  # `simulate --leds` looks at the strip this often
LED_COUNT = 18  # the strip's pixels (hardware/pinout.json)
SEATS = 6  # seat buttons
SIMULATED_BOOT_S = 60.0  # how long `check --simulate` waits for its board's first frame


def add_commands(commands):
    """Register the `device` and `firmware` subcommands; the `device` subparsers, for more."""
    device = commands.add_parser("device", help="the table box: bridge, simulator, ports")
    sub = device.add_subparsers(dest="device_command", required=True)
    run = sub.add_parser("run", help="bridge a box on a serial port to a running companion")
    run.add_argument("--port", help="serial port (default: detect the box by USB id)")
    run.add_argument(
        "--app", type=app_url, default=DEFAULT_APP, help="the companion's URL (%(default)s)"
    )
    run.add_argument("--table", help="follow this table (default: the one the app chooses)")
    run.add_argument(
        "--key",
        default=os.environ.get(DEVICE_KEY_ENV, ""),
        help="the app's device key (`companion device key` on the app's computer; not needed"
        " when the app runs on this computer); default $" + DEVICE_KEY_ENV,
    )
    run.set_defaults(func=cmd_run)
    simulate = sub.add_parser("simulate", help="a virtual box on a pseudo-terminal")
    simulate.add_argument("--leds", action="store_true", help="print the strip when it changes")
    simulate.add_argument(
        "--engine",
        choices=("auto", "micropython", "cpython"),
        default="auto",
        help="run the firmware on MicroPython (WebAssembly in Node) or CPython; auto (default):"
        " MicroPython when Node and its package are installed",
    )
    _add_faults(simulate)
    simulate.set_defaults(func=cmd_simulate)
    ports = sub.add_parser("ports", help="list serial ports, marking the ones that look like a box")
    ports.set_defaults(func=cmd_ports)
    _add_check(sub)
    firmware = commands.add_parser("firmware", help="the box's MicroPython firmware")
    fw_sub = firmware.add_subparsers(dest="firmware_command", required=True)
    deploy = fw_sub.add_parser("deploy", help="copy the firmware to the board with mpremote")
    deploy.add_argument("--port", help="serial port (default: detect the box by USB id)")
    deploy.set_defaults(func=cmd_deploy)
    stop = fw_sub.add_parser(
        "stop", help="stop the box at its MicroPython REPL (for mpremote), watchdog held"
    )
    stop.add_argument("--port", help="serial port (default: detect the box by USB id)")
    stop.set_defaults(func=cmd_stop)
    return sub


def app_url(text):
    """`--app`: an address the bridge can talk to (argparse says why not and exits 2)."""
    from companion_app.bridge.appclient import AppClient

    try:
        AppClient(text)  # checks the address only: nothing is connected yet
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc}.") from None
    return text


def _add_check(sub):
    """`companion device check`: the builder's first-plug check."""
    check = sub.add_parser(
        "check",
        help="check a newly built box: firmware, port, every LED and button, the piezo",
    )
    check.add_argument("--port", help="serial port (default: detect the box by USB id)")
    check.add_argument(
        "--report", help="write the report here (default: box-check-<chip id>-<time>.txt)"
    )
    check.add_argument(
        "--simulate",
        action="store_true",
        help="check a simulated box instead, answering from its strip and buttons",
    )
    check.add_argument(
        "--engine",
        choices=("auto", "micropython", "cpython"),
        default="auto",
        help=argparse.SUPPRESS,
    )
    _add_faults(check)
    check.add_argument(
        "--broken-led", type=int, metavar="N", help="with --simulate: LED N (1..18) is dead"
    )
    check.add_argument(
        "--broken-button",
        type=int,
        metavar="SEAT",
        help="with --simulate: this seat's button is dead",
    )
    check.set_defaults(func=cmd_check)


def _add_faults(parser):
    """A simulated box's build faults that the check must name (issue 34, item 6)."""
    parser.add_argument(
        "--dark-strip",
        action="store_true",
        help="simulate a strip that stays dark (no 5 V, GND, level shifter or data reaches it)",
    )
    parser.add_argument(
        "--garbled-line",
        action="store_true",
        help="simulate a board whose serial line runs at another baud (a 26 MHz crystal)",
    )


def _fault_options(args):
    """make_simulator's options for the faults asked for."""
    if not args.garbled_line:
        return {}
    from companion_app.simulator.line import garbled_line

    rx_filter, tx_filter = garbled_line()
    return {"rx_filter": rx_filter, "tx_filter": tx_filter}


def _logging():
    """Bridge messages on stderr."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)


def _until_interrupted(stop=None):
    """Block until Ctrl-C (or `stop` is set)."""
    stop = stop or threading.Event()
    try:
        while not stop.wait(1.0):
            pass
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)


def cmd_run(args):
    """Run the bridge in this process against the app at --app, reporting status over HTTP."""
    from companion_app.bridge.driver import Bridge
    from companion_app.bridge.remote import RemoteStatus

    _logging()
    if args.key:
        os.environ[DEVICE_KEY_ENV] = args.key  # every AppClient of this bridge sends it
    status = RemoteStatus(args.app)
    bridge = Bridge(
        args.app, detect.port_finder(args.port), table=args.table, mode="remote", report=status
    )
    status.start()
    bridge.start()
    try:
        where = args.port or "the first box detected by USB id"
        print(f"Bridging {where} to {args.app}.", flush=True)
        _until_interrupted()
    except KeyboardInterrupt:  # Ctrl-C before the wait began
        print("Stopped.", file=sys.stderr)
    finally:
        bridge.stop()
        status.stop()
    return 0


def cmd_simulate(args):
    """Run a simulated box until Ctrl-C; its pty path is the first line printed."""
    from companion_app.simulator.micropython import SimulatorUnavailable, make_simulator

    try:
        sim = make_simulator(args.engine, **_fault_options(args)).start()
    except SimulatorUnavailable as exc:
        print(f"Cannot simulate the box on MicroPython: {exc}.", file=sys.stderr)
        return EXIT_BAD_OPTION
    if args.dark_strip:
        sim.dark_strip()
    try:
        print(sim.note, file=sys.stderr)
        print(f"Open it like a USB port: companion device run --port {sim.path}", file=sys.stderr)
        print(sim.path, flush=True)  # last: a script reading it knows the box is announced
        if args.leds:
            _show_leds(sim)
        else:
            _until_interrupted()
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
    finally:
        sim.stop()
    return 0


def _show_leds(sim):
    """Print the strip as text whenever it changes."""
    shown = None
    while True:
        text = sim.leds().text()
        if text != shown:
            print(text, flush=True)
            shown = text
        threading.Event().wait(SHOW_S)


def cmd_ports(args):
    """List the serial ports."""
    lines = detect.describe_ports()
    print("\n".join(lines) if lines else "No serial ports.")
    return 0


def cmd_check(args):
    """Walk the builder through the check; print and keep the report. 0 pass, 1 fail, 2 no box."""
    from companion_app.bridge.check import BoxCheck, ConsoleBuilder

    refused = report_path_refused(args.report)
    if refused is not None:  # said before the builder spends minutes on a check it would lose
        print(refused, file=sys.stderr)
        return EXIT_BAD_OPTION
    sim = None
    if args.simulate:
        sim, builder = _simulated_box(args)
        if sim is None:
            return EXIT_BAD_OPTION
        port = sim.path
    elif args.broken_led or args.broken_button or args.dark_strip or args.garbled_line:
        print(
            "--broken-led, --broken-button, --dark-strip and --garbled-line break a simulated"
            " box: add --simulate.",
            file=sys.stderr,
        )
        return EXIT_BAD_OPTION
    else:
        builder = ConsoleBuilder()
        port = args.port or detect.find_board()
        if port is None:
            print("No box found by USB id; plug it in or give --port.", file=sys.stderr)
            return EXIT_NO_BOX
    try:
        report = BoxCheck(port, builder).run()
    except (detect.PortBusy, detect.PortDenied) as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_OPTION
    except OSError as exc:  # SerialException: the port is gone
        print(f"Cannot use {port}: {exc}", file=sys.stderr)
        return EXIT_NO_BOX
    finally:
        if sim is not None:
            sim.stop()
    return _keep_report(report, args.report)


def report_path_refused(path):
    """Why the check's report could not be kept at `path` (None: the default name), or None."""
    if path is not None and os.path.isdir(path):
        return f"{path} is a folder: give --report a file name."
    folder = os.path.dirname(os.path.abspath(path or "report"))
    if not os.path.isdir(folder):
        return f"There is no folder {folder} to keep the report in."
    if not os.access(folder, os.W_OK):
        return f"The folder {folder} is read-only: give --report a file in a writable folder."
    return None


def _simulated_box(args):
    """(a started simulator with the asked-for faults, its builder), or (None, None)."""
    from companion_app.simulator.builder import SimulatedBuilder
    from companion_app.simulator.micropython import SimulatorUnavailable, make_simulator

    leds = LED_COUNT
    if args.broken_led is not None and not 1 <= args.broken_led <= leds:
        print(f"--broken-led must be 1..{leds}.", file=sys.stderr)
        return None, None
    if args.broken_button is not None and not 1 <= args.broken_button <= SEATS:
        print(f"--broken-button must be 1..{SEATS}.", file=sys.stderr)
        return None, None
    try:
        sim = make_simulator(args.engine, **_fault_options(args)).start()
    except SimulatorUnavailable as exc:
        print(f"Cannot simulate the box on MicroPython: {exc}.", file=sys.stderr)
        return None, None
    # A box on the table is plugged in and running before its check starts; the simulated board
    # boots in Node first (0.3 s here, many seconds on a host whose cores are all busy), which
    # the check's HELLO wait, meant for a box already there, is not to pay for.
    sim.wait_leds(lambda _view: sim.frames > 0, SIMULATED_BOOT_S)
    if args.broken_led is not None:
        sim.break_led(args.broken_led - 1)
    if args.broken_button is not None:
        sim.break_button(args.broken_button)
    if args.dark_strip:
        sim.dark_strip()
    print(sim.note, file=sys.stderr)
    return sim, SimulatedBuilder(sim)


def _keep_report(report, path):
    """Print the report and write it to `path` (or a name of its own); 0 if it passed, else 1."""
    text = report.text()
    print(text, end="")
    if path is None:
        chip = report.hello.get("uid", "unknown")
        path = f"box-check-{chip}-{time.strftime('%Y%m%d-%H%M%S')}.txt"
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        print(f"Report kept in {path}.")
    except OSError as exc:
        print(f"Could not write the report to {path}: {exc}", file=sys.stderr)
    return 0 if report.passed else EXIT_CHECK_FAILED


def cmd_deploy(args):
    """STOP the box, copy the firmware with mpremote, reset the board."""
    from companion_app.bridge.deploy import deploy

    return _on_the_box(args.port, deploy)


def cmd_stop(args):
    """STOP the box and leave it at its MicroPython REPL, watchdog held (issue 34)."""
    from companion_app.bridge.deploy import stop_box

    return _on_the_box(args.port, stop_box)


def _on_the_box(port, command):
    """command(port) on --port or the box found by USB id; 1 with a sentence if none."""
    port = port or detect.find_board()
    if port is None:
        print("No box found by USB id; plug it in or give --port.", file=sys.stderr)
        return EXIT_NO_BOX
    try:
        return command(port)
    except OSError as exc:  # SerialException: the port is busy or gone
        print(f"Cannot use {port}: {exc}", file=sys.stderr)
        return EXIT_NO_BOX
