"""`companion firmware deploy`: stop the box, copy firmware/*.py with mpremote, reset.

A running box treats Ctrl-C as data (`kbd_intr(-1)`), so it is stopped with the protocol's
STOP line; a board still booting (or running anything else) stops on Ctrl-C. Like mpremote's
`enter_raw_repl`, every attempt sends both and asks for the raw REPL (Ctrl-A), and attempts
repeat for a few seconds, which covers a box that boots, or is busy, while we try.
"""

import shutil
import subprocess
import sys
import time

from companion_app.bridge import detect
from companion_app.bridge.firmware import firmware_files
from firmware import protocol as P

STOP = "STOP"  # host -> device: leave the box loop for the REPL (docs/protocol.md)
INTERRUPT_S = 6.0  # a DevKitC boots to main.py in about 1-2 s; a running box answers in ms
ATTEMPT_S = 0.5  # one STOP + Ctrl-C + Ctrl-A, then listen this long
CONFIRM_S = 1.0  # after the box's ACK, how long to wait for the raw REPL before going on
READ_S = 0.05
CTRL_C = b"\r\x03\x03"  # interrupt a booting board or a running script (mpremote sends \r\x03)
CTRL_A = b"\r\x01"  # enter the raw REPL
CTRL_B = b"\r\x02"  # back to the friendly REPL, where mpremote expects a board
RAW_REPL = b"raw REPL; CTRL-B to exit\r\n"
ROM_BOOTLOADER = b"waiting for download"  # IO0 held low at reset: the ROM waits for esptool
EXIT_CANNOT_STOP = 2
TAIL = 200  # bytes of the board's output kept to recognise its state

HOW_TO_STOP = """\
The box on {port} did not stop for the update: no answer to STOP, Ctrl-C or the raw REPL in \
{seconds:.0f} s.
Do this, then run `companion firmware deploy` again:
  1. Hold seat 1's button, press and release EN (the reset button beside the USB socket) and
     keep seat 1 held for 2 s: the box starts in safe mode, at the MicroPython REPL.
  2. Still no answer: unplug the USB cable, plug it back in and run the command at once.
  3. Nothing at all: use a USB cable that carries data, and put MicroPython on the board
     again (hardware/README.md, "Flashing"; hold BOOT while pressing EN if esptool cannot
     connect)."""
IN_BOOTLOADER = """\
The board on {port} is in its ROM bootloader (BOOT was held at reset), not in MicroPython.
Release BOOT and press EN once, then run `companion firmware deploy` again."""


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


class Interrupter:
    """Brings a board on an open port to its REPL; `run()` says how it answered."""

    def __init__(self, port, clock=time.monotonic, total_s=INTERRUPT_S):
        self.port = port
        self.clock = clock
        self.total_s = total_s
        self.stopped = False  # the box acknowledged STOP
        self.attempts = 0
        self._seq = 0
        self._reader = P.LineReader()
        self._tail = b""

    def run(self):
        """ "stopped" (the box acknowledged STOP), "repl" (a board at its REPL), or None."""
        deadline = self.clock() + self.total_s
        while self.clock() < deadline:
            self._attempt()
            if self._listen(min(deadline, self.clock() + ATTEMPT_S)):
                self.port.write(CTRL_B)
                return "stopped" if self.stopped else "repl"
            if self.stopped:  # the REPL did not show within CONFIRM_S; mpremote tries itself
                return "stopped"
        return None

    @property
    def in_bootloader(self):
        """True if the board's last words were the ROM bootloader's."""
        return ROM_BOOTLOADER in self._tail

    def _attempt(self):
        """STOP for a running box (once it acknowledged, no more), Ctrl-C, then Ctrl-A."""
        self.attempts += 1
        if not self.stopped:
            self._seq += 1
            self.port.write(b"\n" + P.encode(self._seq, STOP))  # "\n": end any partial line
        self.port.write(CTRL_C + CTRL_A)

    def _listen(self, until):
        """Read until `until`; True once the raw REPL's banner came (the ACK extends the wait)."""
        while self.clock() < until:
            data = self.port.read(self.port.in_waiting or 1)
            if not data:
                continue
            self._tail = (self._tail + data)[-TAIL:]
            if not self.stopped and any(self._acks(raw) for raw in self._reader.feed(data)):
                self.stopped = True
                until = self.clock() + CONFIRM_S
                self.port.write(CTRL_C + CTRL_A)  # the box ate the first ones with STOP
            if RAW_REPL in self._tail:
                return True
        return False

    def _acks(self, raw):
        """True if the line `raw` is the box's ACK of one of our STOPs."""
        try:
            msg = P.decode(raw)
            return msg.kind == P.ACK and int(msg.fields().get("of", "0")) in range(1, self._seq + 1)
        except (P.ProtocolError, ValueError):
            return False  # boot noise, a traceback, a heartbeat's neighbour


def deploy(port, out=print, err=None, run=subprocess.run, open_port=detect.open_port, **timing):
    """Stop the box, copy, reset; 0, 2 when the board cannot be stopped, or mpremote's status."""
    err = err or (lambda text: print(text, file=sys.stderr))
    try:
        serial_port = open_port(port, READ_S)
    except (detect.PortBusy, detect.PortDenied) as exc:
        err(str(exc))
        return EXIT_CANNOT_STOP
    try:
        interrupter = Interrupter(serial_port, **timing)
        answer = interrupter.run()
    finally:
        serial_port.close()
    if answer is None:
        hint = IN_BOOTLOADER if interrupter.in_bootloader else HOW_TO_STOP
        err(hint.format(port=port, seconds=interrupter.total_s))
        return EXIT_CANNOT_STOP
    if answer == "stopped":
        out(f"The box on {port} stopped for the update.")
    else:
        out(f"The board on {port} is at its MicroPython REPL.")
    for command in deploy_commands(port, firmware_files()):
        out("$ " + " ".join(command))
        status = run(command, check=False).returncode
        if status:
            out(f"mpremote failed with exit status {status}.")
            return status
    out("Firmware deployed; the box restarts.")
    return 0
