"""`companion firmware deploy`: stop the box, hold its watchdog, copy firmware/*.py, reset.

A running box treats Ctrl-C as data (`kbd_intr(-1)`), so it is stopped with the protocol's
STOP line; a board still booting (or running anything else) stops on Ctrl-C. Like mpremote's
`enter_raw_repl`, every attempt sends both and asks for the raw REPL (Ctrl-A), and attempts
repeat for longer than a boot loop takes to come round (boot, then the 5 s watchdog), so a
box that boots, is busy or resets itself over and over is caught at its REPL.

At the raw REPL the watchdog gets HOLD_MS before anything else: the box's watchdog cannot be
stopped, and mpremote's first command soft-resets the board, which stops every timer that
fed it (the box's firmware up to 0.2.0 fed it from one after STOP, so a copy longer than 5 s
was cut off). `machine.WDT(timeout=...)` again is the same watchdog with a new timeout, which
a soft reset keeps (MicroPython 1.27, ports/esp32/machine_wdt.c). `mpremote reset` at the
end restarts the board with the new firmware, which arms its own 5 s watchdog.

mpremote waits silently for a board that does not answer; it runs watched (watched.py): a
long silence or its "could not enter raw repl" ends the deploy with what to do (exit 2).
`companion firmware stop` does the first half alone: the box at its REPL, for mpremote or a
person (issue 34: nothing but a deploy could stop it).
"""

import shutil
import sys
import time

from companion_app.bridge import detect
from companion_app.bridge.firmware import firmware_files
from companion_app.bridge.watched import run_watched
from firmware import protocol as P

STOP = "STOP"  # host -> device: leave the box loop for the REPL (docs/protocol.md)
#: A DevKitC boots to main.py in about 1-2 s and a running box answers in ms; a box in a boot
#: loop (a watchdog of 5 s after each boot) is at its REPL for a while every 7 s at most.
INTERRUPT_S = 10.0
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
HOLD_MS = 10 * 60 * 1000  # the watchdog's timeout while the copy runs (ESP32: up to ~12 days)
HOLD_CODE = b"import machine\nmachine.WDT(timeout=%d).feed()" % HOLD_MS
HOLD_S = 2.0  # how long the raw REPL may take to run it
EOF_MARK = b"\x04"  # the raw REPL ends the output, then the error, with it
RUN_S = 600.0  # mpremote gets this long (a full copy takes about 15 s at 115200 baud)
#: mpremote names each file it copies (a few seconds each at 115200 baud) and gives up on a
#: silent REPL after 10 s; this long without a word from it, it hangs and is ended.
SILENT_S = 30.0

HOW_TO_STOP = """\
The box on {port} did not stop: no answer to STOP, Ctrl-C or the raw REPL in {seconds:.0f} s.
Do this, then run `companion firmware {command}` again:
  1. Hold seat 1's button, press and release EN (the reset button beside the USB socket) and
     keep seat 1 held for 2 s: the box starts in safe mode, at the MicroPython REPL.
  2. Still no answer: unplug the USB cable, plug it back in and run the command at once.
  3. Nothing at all: use a USB cable that carries data, and put MicroPython on the board
     again (hardware/README.md, "Flashing"; hold BOOT while pressing EN if esptool cannot
     connect)."""
IN_BOOTLOADER = """\
The board on {port} is in its ROM bootloader (BOOT was held at reset), not in MicroPython.
Release BOOT and press EN once, then run `companion firmware {command}` again."""
NO_RAW_REPL = "could not enter raw repl"  # mpremote's words when the REPL does not answer
NO_REPL = """\
mpremote got no answer from the MicroPython REPL on {port} (it {quiet}), so the copy stopped.
Do this, then run `companion firmware deploy` again:
  1. Press and release EN (the reset button beside the USB socket) and at once run
     `companion firmware stop --port {port}`: it stops the box and leaves it at the REPL.
  2. No answer: hold seat 1's button, press and release EN and keep seat 1 held for 2 s: the
     box starts in safe mode, at the MicroPython REPL.
  3. Still nothing: unplug the USB cable and plug it back in; then put MicroPython on the
     board again (hardware/README.md, "Flashing"; hold BOOT while pressing EN if esptool
     cannot connect)."""
STOPPED = """\
The box on {port} stopped: it is at the MicroPython REPL and its watchdog waits {minutes} \
minutes.
mpremote can use it now (mpremote connect {port} repl); `mpremote reset` or the EN button \
starts the box again."""


def mpremote_command():
    """How to run mpremote: the one on PATH, else this Python's module."""
    found = shutil.which("mpremote")
    return [found] if found else [sys.executable, "-m", "mpremote"]


def deploy_commands(port, files, mpremote=None):
    """The mpremote run: copy every file to the board's root (a file already there with the
    same SHA-256 is skipped), then reset it."""
    base = (mpremote or mpremote_command()) + ["connect", port]
    return [[*base, "fs", "cp", *[str(f) for f in files], ":", "+", "reset"]]


class Interrupter:
    """Brings a board on an open port to its REPL; `run()` says how it answered."""

    def __init__(self, port, clock=time.monotonic, total_s=INTERRUPT_S):
        self.port = port
        self.clock = clock
        self.total_s = total_s
        self.stopped = False  # the box acknowledged STOP
        self.held = False  # the watchdog got HOLD_MS at the raw REPL
        self.hold_error = ""  # what the board said when it did not
        self.attempts = 0
        self.answer = None  # what run() said, kept by its caller
        self._seq = 0
        self._reader = P.LineReader()
        self._tail = b""

    def run(self):
        """ "stopped" (the box acknowledged STOP), "repl" (a board at its REPL), or None.
        At the raw REPL the watchdog is held first (`held` says whether that worked)."""
        deadline = self.clock() + self.total_s
        while self.clock() < deadline:
            self._attempt()
            if self._listen(min(deadline, self.clock() + ATTEMPT_S)):
                self.held = self._hold()
                self.port.write(CTRL_B)
                return "stopped" if self.stopped else "repl"
            if self.stopped:  # the REPL did not show within CONFIRM_S; mpremote tries itself
                return "stopped"
        return None

    def _hold(self):
        """Run HOLD_CODE at the raw REPL; True if it answered OK and raised nothing."""
        self.port.write(HOLD_CODE + EOF_MARK)
        answer = b""
        until = self.clock() + HOLD_S
        while self.clock() < until and answer.count(EOF_MARK) < 2:
            answer += self.port.read(self.port.in_waiting or 1)
        ran = answer.partition(b"OK")[2]
        output, _, error = ran.partition(EOF_MARK)
        self.hold_error = error.partition(EOF_MARK)[0].decode("utf-8", "replace").strip()
        return b"OK" in answer and answer.count(EOF_MARK) >= 2 and not self.hold_error

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


def stop_box(port, out=print, err=None, open_port=detect.open_port, **timing):
    """`companion firmware stop`: the box leaves its loop for the MicroPython REPL with its
    watchdog held, for mpremote or a person; 0, or 2 with what to do."""
    err = err or (lambda text: print(text, file=sys.stderr))
    interrupter = _interrupt(port, err, open_port, "stop", timing)
    if interrupter is None:
        return EXIT_CANNOT_STOP
    if interrupter.held:
        minutes = HOLD_MS // 60_000
        out(STOPPED.format(port=port, minutes=minutes))
    else:
        out(f"The box on {port} stopped.")
        out(_not_held(interrupter) + " It resets itself unless something feeds its watchdog.")
    return 0


def deploy(
    port, out=print, err=None, run=run_watched, open_port=detect.open_port, files=None, **timing
):
    """Stop the box, hold its watchdog, copy `files` (default: firmware/*.py), reset; 0, 2
    when the board cannot be stopped or stops answering mpremote, or mpremote's status."""
    err = err or (lambda text: print(text, file=sys.stderr))
    interrupter = _interrupt(port, err, open_port, "deploy", timing)
    if interrupter is None:
        return EXIT_CANNOT_STOP
    if interrupter.answer == "stopped":
        out(f"The box on {port} stopped for the update.")
    else:
        out(f"The board on {port} is at its MicroPython REPL.")
    if not interrupter.held:
        out(_not_held(interrupter) + " Copying anyway.")
    for command in deploy_commands(port, firmware_files() if files is None else files):
        out("$ " + " ".join(command))
        ran = run(command, out=out, silent_s=SILENT_S, total_s=RUN_S)
        if ran.status is None or (ran.status and NO_RAW_REPL in ran.output):
            quiet = f"went {ran.quiet_s:.0f} s without a word" if ran.status is None else "failed"
            err(NO_REPL.format(port=port, quiet=quiet))
            return EXIT_CANNOT_STOP
        if ran.status:
            out(f"mpremote failed with exit status {ran.status}.")
            return ran.status
    out("Firmware deployed; the box restarts.")
    return 0


def _interrupt(port, err, open_port, command, timing):
    """The Interrupter that brought the board on `port` to its REPL (its `answer` set), or
    None once `err` was told why not and what to do."""
    try:
        serial_port = open_port(port, READ_S)
    except (detect.PortBusy, detect.PortDenied) as exc:
        err(str(exc))
        return None
    try:
        interrupter = Interrupter(serial_port, **timing)
        interrupter.answer = interrupter.run()
    finally:
        serial_port.close()
    if interrupter.answer is None:
        hint = IN_BOOTLOADER if interrupter.in_bootloader else HOW_TO_STOP
        err(hint.format(port=port, seconds=interrupter.total_s, command=command))
        return None
    return interrupter


def _not_held(interrupter):
    """The sentence for a watchdog that did not take more time, with the board's reason."""
    why = interrupter.hold_error.splitlines()[-1:] or ["no answer"]
    return f"Could not give the watchdog more time ({why[0]})."
