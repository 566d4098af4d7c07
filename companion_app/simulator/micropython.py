"""The virtual box on real MicroPython: the whole firmware (main.py on) in WebAssembly in Node.

`MicroPythonSimulator` has the CPython `Simulator`'s interface (path, reset, unplug/replug,
press/release, leds, filters) but boots a DevKitC under MicroPython 1.27 through
board/runner.mjs: its flash is a folder (`flash`, by default a fresh copy of firmware/*.py;
`firmware=False` gives a board with MicroPython only), main.py runs the board's own
supervisor, watchdog, 5 ms tick and UsbSerial read path on a 260-byte stdin ring fed at
115200 baud, and the REPL is MicroPython's (raw REPL, raw-paste, soft reset), so mpremote
copies files onto it. Node and the npm package (`scripts/setup-firmware-tests.sh` installs
them) are looked up at start; `make_simulator` falls back to CPython without them and logs why.
"""

import json
import logging
import os
import select
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from companion_app.bridge.firmware import firmware_files, load_pins
from companion_app.simulator.box import PtyBox, Simulator

log = logging.getLogger(__name__)

ENGINES = ("auto", "micropython", "cpython")
RUNNER = Path(__file__).resolve().parent / "board" / "runner.mjs"
PACKAGE = Path("node_modules", "@micropython", "micropython-webassembly-pyscript")
#: Where to look for node_modules: the checkout this package runs from, then the cwd.
SEARCH_ROOTS = (Path(__file__).resolve().parents[2], Path.cwd())
PACKAGE_ENV = "COMPANION_MICROPYTHON_MJS"  # a micropython.mjs elsewhere
MIN_NODE = 20
READ_SIZE = 4096
SELECT_S = 0.05
QUIT_S = 2.0
CALIBRATE_S = 20.0  # a first boot slower than this is not waited for


class SimulatorUnavailable(OSError):
    """MicroPython cannot run here; the message says why and how to get it."""


def find_micropython():
    """(node, micropython.mjs, version) or SimulatorUnavailable naming what is missing."""
    node = shutil.which("node")
    if node is None:
        raise SimulatorUnavailable("Node.js is not installed")
    major = _node_major(node)
    if major < MIN_NODE:
        raise SimulatorUnavailable(f"Node.js {major} is too old (MicroPython needs {MIN_NODE}+)")
    candidates = [Path(os.environ[PACKAGE_ENV])] if os.environ.get(PACKAGE_ENV) else []
    candidates += [root / PACKAGE / "micropython.mjs" for root in SEARCH_ROOTS]
    for module in candidates:
        if module.is_file():
            return node, module, _package_version(module.parent)
    raise SimulatorUnavailable(
        "the npm package @micropython/micropython-webassembly-pyscript is not installed"
        " (bash scripts/setup-firmware-tests.sh installs it)"
    )


def _node_major(node):
    """Node's major version (0 if it does not say)."""
    try:
        text = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=10)
        return int(text.stdout.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError):
        return 0


def _package_version(folder):
    """The npm package's version, from its package.json ("" if unreadable)."""
    import json

    try:
        return json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return ""


def make_simulator(engine="auto", **options):
    """A simulated box (not started) on `engine`; auto prefers MicroPython.

    The box's `note` says in one sentence what runs it and, after a fallback, why.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "cpython":
        return _noted(Simulator(**options), "Simulated box: the firmware's Box on CPython.")
    try:
        found = find_micropython()
    except SimulatorUnavailable as exc:
        if engine == "micropython":
            raise
        note = f"Simulated box: the firmware's Box on CPython; MicroPython cannot run here: {exc}."
        log.warning("%s", note)
        return _noted(Simulator(**options), note)
    sim = MicroPythonSimulator(found=found, **options)
    return _noted(sim, f"Simulated box: the whole firmware on {sim.LABEL}.")


def _noted(sim, note):
    """`sim` with its note (also logged)."""
    sim.note = note
    log.info("%s", note)
    return sim


class MicroPythonSimulator(PtyBox):
    """The firmware under MicroPython in a Node child process, behind a pseudo-terminal."""

    ENGINE = "micropython"

    def __init__(
        self,
        rx_filter=None,
        tx_filter=None,
        on_frame=None,
        found=None,
        boot_ms=0,
        flash=None,
        firmware=True,
    ):
        self._node, self._module, version = found or find_micropython()
        self.boot_ms = boot_ms  # reset to the first line at least this long: a real board's boot
        self._boot_gen = 0  # a delayed boot starts only if no reset or stop came after it
        self._spawned_at = 0.0  # when the current board process started...
        self._waited_s = 0.0  # ...after waiting this long in its reset
        self.quickest_boot_s = None  # this machine's fastest spawn -> first line, measured
        self.LABEL = f"MicroPython {version} (WebAssembly)".replace("  ", " ")
        self._rx_filter = rx_filter
        self._tx_filter = tx_filter
        self._feed_fd = None  # our end of the board's stdin pipe
        self._own_flash = flash is None
        self.flash = Path(tempfile.mkdtemp(prefix="companion-flash-") if flash is None else flash)
        if self._own_flash and firmware:
            for source in firmware_files():
                shutil.copy(source, self.flash / source.name)
        super().__init__(on_frame)
        self._proc = None
        self._held = set()  # seats held down: they stay down across a reset (safe mode)
        self._stdin_lock = threading.Lock()
        self._threads = []
        self.stopped_why = None  # "repl" (STOP, safe mode) or "crash" once main.py ended
        self.lost = 0  # bytes the board's stdin ring had no room for (this boot)
        self.printed = []  # lines the firmware printed (tracebacks), newest last
        self.last_boot_s = None  # reset (or power-on) to the board's first line, last boot
        self.dropped = 0  # bytes the board sent while no host had the port
        self.resets = []  # why the board reset itself: "wdt", "reset" (machine.reset())
        self.beeps = []  # (time.monotonic(), frequency) when the piezo started sounding

    # ----- lifecycle ----------------------------------------------------------------------

    def start(self):
        """Boot the board and start carrying bytes from the pty; returns self."""
        self._power_up("power-on")
        if self.boot_ms:
            self._calibrate()
        forward = threading.Thread(target=self._forward, name="mpsim-forward", daemon=True)
        forward.start()
        self._threads.append(forward)
        return self

    def stop(self):
        """Power off (the Node process ends), join the threads, close the pseudo-terminal;
        a flash folder this simulator made is removed."""
        self._stop.set()
        self._kill()
        for thread in self._threads:
            thread.join()
        with self._lock:
            self._close_pty()
        if self._own_flash:
            shutil.rmtree(self.flash, ignore_errors=True)

    def reset(self):
        """The EN button: the board boots again from main.py, forgetting everything."""
        self._kill()
        self._power_up("reset")

    @property
    def stopped(self):
        """True once main.py ended (the host's STOP, or a crash): the board is at its REPL."""
        return self.stopped_why is not None

    def _power_up(self, cause):
        """Boot now, or so that reset to first line takes at least `boot_ms`, as on a board.

        The wait comes before the Node process starts (the board is deaf and silent then, as
        in its ROM and bootloader: bytes sent meanwhile are lost) and is `boot_ms` less this
        machine's quickest measured start of the simulated board, so the whole boot is never
        shorter than `boot_ms`. The first boot is not delayed: it measures that start.
        """
        with self._lock:
            self._boot_gen += 1
            gen = self._boot_gen
        wait_s = 0.0
        if self.boot_ms and self.quickest_boot_s is not None:
            wait_s = max(0.0, self.boot_ms / 1000 - self.quickest_boot_s)
        if not wait_s:
            self._spawn(cause)
            return
        later = threading.Thread(
            target=self._boot_later, args=(cause, gen, wait_s), name="mpsim-boot", daemon=True
        )
        later.start()
        self._threads.append(later)

    def _boot_later(self, cause, gen, wait_s):
        """Spawn the board after `wait_s`, unless stopped or reset again meanwhile."""
        if self._stop.wait(wait_s):
            return
        with self._lock:
            if gen != self._boot_gen:
                return
        self._spawn(cause, waited_s=wait_s)

    def _calibrate(self):
        """Measure this machine's warm start of the simulated board (a cold first boot is
        slower, and a delay worked out from it would make the next boot too quick): wait for
        the first boot's first line, then power-cycle once without a delay."""
        deadline = time.monotonic() + CALIBRATE_S
        while self.quickest_boot_s is None and time.monotonic() < deadline:
            self._stop.wait(SELECT_S)
        self._kill()
        self._spawn("power-on")

    def _first_line(self):
        """The board process said its first line: note how quickly it started."""
        took = time.monotonic() - self._spawned_at
        if self.quickest_boot_s is None or took < self.quickest_boot_s:
            self.quickest_boot_s = took
        self.last_boot_s = took + self._waited_s

    def _spawn(self, cause, waited_s=0.0):
        """Start a fresh board (a Node process) and its reader."""
        with self._lock:
            self._spawned_at, self._waited_s = time.monotonic(), waited_s
            self.boots += 1
            self.stopped_why = None
            self.lost = 0
            board_in, self._feed_fd = os.pipe()
            os.set_blocking(board_in, False)  # the board polls its input without blocking
            config = {
                "flash": str(self.flash),
                "cause": cause,
                "held": sorted(self._held),
                "buttons": list(load_pins().BUTTONS),
            }
            self._proc = subprocess.Popen(
                [self._node, str(RUNNER), str(self._module), json.dumps(config)],
                stdin=board_in,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            os.close(board_in)
            proc = self._proc
        reader = threading.Thread(target=self._read, args=(proc,), name="mpsim-board", daemon=True)
        reader.start()
        self._threads.append(reader)

    def _kill(self):
        """Power the current board off (Q, then SIGKILL if it lingers) and reap it."""
        with self._lock:
            proc, feed = self._proc, self._feed_fd
            self._proc = self._feed_fd = None
        if proc is None:
            return
        self._command(b"Q", feed)
        try:
            proc.wait(QUIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        with self._stdin_lock:
            os.close(feed)

    # ----- the board's output -------------------------------------------------------------

    def _read(self, proc):
        """Every line the board process writes, until it exits; a self-reset boots again."""
        rebooted = False
        spoke = False
        for raw in proc.stdout:
            kind, _, arg = raw.decode("latin-1").rstrip("\n").partition(" ")
            if kind == "T":
                if not spoke:
                    spoke = True
                    self._first_line()
                self._to_host(bytes.fromhex(arg))
            elif kind == "L":
                pixels, _, shown_at = arg.partition(" ")
                self._frame_written(bytes.fromhex(pixels), float(shown_at or 0) or None)
            elif kind == "S":
                self.stopped_why = None if arg == "run" else arg
                if arg == "crash":  # main.py died: say why, as the board's REPL would show
                    log.warning("the simulated firmware stopped:\n%s", "\n".join(self.printed))
            elif kind == "Z":
                self._piezo(arg)
            elif kind == "D":
                self.lost = int(arg)
            elif kind == "O":
                self.printed = [*self.printed[-49:], arg]
                log.debug("box printed: %s", arg)
            elif kind == "B":
                rebooted = arg
                self.resets.append(arg)
        proc.stdout.close()
        errors = proc.stderr.read().decode("utf-8", "replace").strip()
        proc.stderr.close()
        proc.wait()
        if rebooted and not self._stop.is_set() and proc is self._proc:
            log.info("the simulated board reset itself (%s); booting again", rebooted)
            with self._lock:
                self._proc, feed = None, self._feed_fd
            with self._stdin_lock:
                os.close(feed)
            self._power_up("wdt" if rebooted == "wdt" else "reset")
        elif proc is self._proc and not self._stop.is_set():
            log.error("the simulated board's process ended (%s): %s", proc.returncode, errors)

    def _piezo(self, arg):
        """The piezo's PWM changed: a beep starts when its duty leaves 0."""
        freq, duty = (int(word) for word in arg.split())
        if duty:
            self.beeps.append((time.monotonic(), freq))

    def _to_host(self, data):
        """Bytes the board sent, onto the pty (lost while unplugged or nobody reads)."""
        data = self._tx_filter(data) if self._tx_filter else data
        view = memoryview(data)
        with self._lock:
            while view and self._master is not None:
                try:
                    view = view[os.write(self._master, view) :]
                except OSError:
                    break
        self.dropped += len(view)

    # ----- the host's input ---------------------------------------------------------------

    def _forward(self):
        """Carry what the host writes on the pty to the board (the line rate is the board's)."""
        while not self._stop.is_set():
            master = self._master
            if master is None:
                self._stop.wait(SELECT_S)
                continue
            try:
                ready, _, _ = select.select([master], [], [], SELECT_S)
                data = os.read(master, READ_SIZE) if ready else b""
            except (OSError, ValueError):  # EIO: no host has the port open; or unplugged
                self._stop.wait(SELECT_S)
                continue
            data = self._rx_filter(data) if self._rx_filter and data else data
            if data:
                self._command(b"R " + data.hex().encode())

    def press(self, seat):
        """Seat button (1..6) down (nothing, if it is broken)."""
        if seat in self.dead_buttons:
            return
        self._held.add(seat)
        self._command(b"P %d" % seat)

    def release(self, seat):
        """Seat button up."""
        self._held.discard(seat)
        self._command(b"U %d" % seat)

    def _command(self, line, feed=None):
        """One command line to the board (dropped while it is off)."""
        with self._stdin_lock:
            fd = self._feed_fd if feed is None else feed
            if fd is None:
                return
            try:
                os.write(fd, line + b"\n")
            except OSError:  # the board is rebooting
                pass
