"""`companion firmware deploy`: stop the box (STOP), copy firmware/*.py with mpremote, reset."""

import shutil
import subprocess
import sys
import time

from companion_app.device import detect
from companion_app.device.firmware import firmware_files
from firmware import protocol as P

STOP = "STOP"  # host -> device: leave the box loop for the REPL (docs/protocol.md)
STOP_WAIT_S = 2.0  # a running box answers STOP within a few ms; a board at its REPL never does
READ_S = 0.05


def mpremote_command():
    """How to run mpremote: the one on PATH, else this Python's module."""
    found = shutil.which("mpremote")
    return [found] if found else [sys.executable, "-m", "mpremote"]


def deploy_commands(port, files, mpremote=None):
    """The mpremote runs: copy every file to the board's root, then reset it."""
    base = (mpremote or mpremote_command()) + ["connect", port]
    return [
        [*base, "fs", "cp", *[str(f) for f in files], ":"],
        [*base, "reset"],
    ]


def stop_box(path, wait_s=STOP_WAIT_S):
    """Send STOP so the box leaves its loop (Ctrl-C is data there); True if it acknowledged."""
    port = detect.open_port(path, READ_S)
    try:
        seq = 1
        port.write(P.encode(seq, STOP))
        reader = P.LineReader()
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            for raw in reader.feed(port.read(port.in_waiting or 1)):
                if _acks(raw, seq):
                    return True
        return False
    finally:
        port.close()


def _acks(raw, seq):
    """True if the line `raw` is the box's ACK of our seq."""
    try:
        msg = P.decode(raw)
        return msg.kind == P.ACK and msg.fields().get("of") == str(seq)
    except P.ProtocolError:
        return False  # boot noise, a traceback, another line


def deploy(port, out=print, run=subprocess.run):
    """STOP, copy, reset; the exit status of the first failing step, or 0."""
    if stop_box(port):
        out(f"The box on {port} stopped for the update.")
    else:
        out(f"No answer to STOP on {port}; assuming the board is at its REPL.")
    for command in deploy_commands(port, firmware_files()):
        out("$ " + " ".join(command))
        status = run(command, check=False).returncode
        if status:
            out(f"mpremote failed with exit status {status}.")
            return status
    out("Firmware deployed; the box restarts.")
    return 0
