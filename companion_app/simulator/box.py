"""The virtual box behind a pty: the real firmware `Box` under CPython, on fake pins and LEDs.

The device side holds the pseudo-terminal's master; the bridge opens `path` (the slave) with
pyserial exactly like a USB port. `reset()` reboots the box, `unplug()`/`replug()` take the
port away and bring it back at a new path, `press()`/`release()` work the seat buttons, and
`leds()` reads what the strip shows. Filters let tests corrupt the bytes in either direction.

`PtyBox` is what both simulated boxes share (the port, the strip); `Simulator` runs the
firmware's Box under CPython, `micropython.MicroPythonSimulator` the whole firmware under real
MicroPython. Both model the board's input side: one tick every Box.TICK_MS, bytes crossing
the line at 115200 baud into MicroPython's 260-byte stdin ring, lost when it is full.
"""

import logging
import os
import threading
import time
import tty
from collections import deque

from companion_app.bridge.firmware import load_firmware
from companion_app.simulator.leds import LedView

log = logging.getLogger(__name__)

BAUD = 115200
BITS_PER_BYTE = 10  # 8N1: start bit, 8 data bits, stop bit
#: MicroPython's ESP32 port keeps UART0's input in stdin_ringbuf_array[260], which holds 259.
STDIN_RING = 260
#: Line time credited per tick at most (two nominal ticks): a host process that stalls the
#: simulator delivers at most 115 bytes per tick, not a flood a board on time never sees.
MAX_GAP_S = 0.01
SHOWN_KEPT = 10_000  # frames kept with their moments (an animation sends about 8 a second)


class SimPin:
    """A seat button's GPIO: pulled up (1), 0 while pressed."""

    def __init__(self):
        self.level = 1

    def value(self):
        """The level the firmware reads."""
        return self.level


class SimPixels:
    """Fake `neopixel.NeoPixel`: keeps every frame the firmware sends to the strip."""

    def __init__(self, count, on_write):
        self.buf = bytearray(3 * count)
        self._on_write = on_write

    def write(self):
        """'Send' the buffer: hand a copy to the simulator."""
        self._on_write(bytes(self.buf))


class PtyPort:
    """The box's serial port: the pty master, the line at 115200 baud, the stdin ring.

    `pump(gap_s)` moves what `gap_s` of line time carries from the pty into the ring; what
    the host wrote beyond that waits in the pty, as in the USB-serial chip. A full ring
    loses bytes (`lost`), as MicroPython's does.
    """

    def __init__(self, fd, rx_filter=None, tx_filter=None):
        self.fd = fd
        self._rx = bytearray()
        self._rx_filter = rx_filter
        self._tx_filter = tx_filter
        self._wire = bytearray()  # read from the pty (and filtered), not yet across the line
        self._credit = 0.0
        self.dropped = 0  # bytes written while nobody was reading (as on a real UART)
        self.lost = 0  # bytes that found the stdin ring full

    def waiting(self):
        """Bytes in the ring, not yet taken by the box."""
        return len(self._rx)

    def pump(self, gap_s=MAX_GAP_S):
        """Move the bytes `gap_s` of line time carries from the host into the ring."""
        self._credit += min(gap_s, MAX_GAP_S) * BAUD / BITS_PER_BYTE
        want = int(self._credit)
        if self.fd is not None and len(self._wire) < want:
            try:
                data = os.read(self.fd, want - len(self._wire))
            except (BlockingIOError, InterruptedError, OSError):  # EIO: no host has it open
                data = b""
            self._wire.extend(self._rx_filter(data) if self._rx_filter else data)
        if not self._wire:
            self._credit = 0.0  # an idle line saves no time for later
            return
        due = min(want, len(self._wire))
        room = STDIN_RING - 1 - len(self._rx)
        self._rx.extend(self._wire[: min(due, room)])
        self.lost += max(0, due - room)
        del self._wire[:due]
        self._credit -= due

    def reset(self):
        """The board rebooted: its stdin ring starts empty (the wire keeps what is in flight)."""
        self._rx.clear()

    def readinto(self, buf):
        """What Box calls: copy waiting bytes into buf, never block; how many."""
        n = min(len(buf), len(self._rx))
        if n:
            buf[:n] = self._rx[:n]
            del self._rx[:n]
        return n

    def write(self, data):
        """What Box calls: bytes to the host; dropped when the port is gone or full."""
        data = self._tx_filter(bytes(data)) if self._tx_filter else data
        view = memoryview(data)
        while view and self.fd is not None:
            try:
                view = view[os.write(self.fd, view) :]
            except (BlockingIOError, OSError):
                break
        self.dropped += len(view)


class PtyBox:
    """A simulated box's pseudo-terminal and strip; subclasses run the firmware."""

    ENGINE = ""  # "cpython" or "micropython"
    BOARD = "simulator"
    SEATS = 6

    def __init__(self, on_frame=None):
        self.fw = load_firmware()  # the frame layout and palette, to read the strip back
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._on_frame = on_frame
        self.frame = bytes(3 * self.fw.frame.Frame.LED_COUNT)
        self.frames = 0  # frames sent to the strip
        #: (epoch ms the strip showed it, frame) of the latest frames, on the board's clock
        self.shown = deque(maxlen=SHOWN_KEPT)
        self.boots = 0
        self.dead_leds = set()  # pixels that stay dark whatever they are sent (break_led)
        self.dead_buttons = set()  # seats whose switch never closes (break_button)
        self._master = self._slave = None
        self.path = None
        self._open_pty()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        """Power the box up; returns self."""
        raise NotImplementedError

    def stop(self):
        """Power off and close the pseudo-terminal."""
        raise NotImplementedError

    # ----- the port -----------------------------------------------------------------------

    def _open_pty(self):
        """A new pseudo-terminal in raw mode (no echo); the master does not block."""
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)
        self._port_changed(master)

    def _close_pty(self):
        """Close both ends: the host's open port reports an error, as on a USB unplug."""
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        self.path = None
        self._port_changed(None)

    def _port_changed(self, master):
        """The board's end of the line is now `master` (None: unplugged)."""

    def unplug(self):
        """Pull the USB cable: the port vanishes; the box keeps running (shows disconnected)."""
        with self._lock:
            if self._master is not None:
                os.close(self._master)
                self._master = None
            self.path = None
            self._port_changed(None)

    def replug(self):
        """Plug it back: a new pseudo-terminal at a new path (the old one stays taken until now)."""
        with self._lock:
            old_slave = self._slave
            self._open_pty()
            if old_slave is not None:
                os.close(old_slave)

    # ----- broken parts (a builder's faults, for `companion device check`) -----------------

    def break_led(self, index, chain=False):
        """LED `index` (0-based on the chain) stays dark; with `chain`, every LED after it too
        (the data line is broken there)."""
        last = self.fw.frame.Frame.LED_COUNT if chain else index + 1
        self.dead_leds.update(range(index, last))

    def dark_strip(self):
        """Nothing reaches the strip (no 5 V or GND at it, a dead level shifter or data pin):
        every LED stays dark, whatever the firmware sends."""
        self.break_led(0, chain=True)

    def break_button(self, seat):
        """Seat `seat`'s button (1..6) never closes: pressing it does nothing."""
        self.dead_buttons.add(seat)

    def _wired(self, frame):
        """What the strip shows of `frame`: dead LEDs dark."""
        if not self.dead_leds:
            return frame
        shown = bytearray(frame)
        for index in self.dead_leds:
            shown[3 * index : 3 * index + 3] = b"\0\0\0"
        return bytes(shown)

    # ----- the LEDs -----------------------------------------------------------------------

    def _frame_written(self, frame, shown_at=None):
        """The firmware sent a frame to the strip (at `shown_at`, epoch ms, if the board said)."""
        frame = self._wired(frame)
        stamp = time.perf_counter()
        with self._changed:
            self.frame = frame
            self.frames += 1
            self.shown.append((time.time() * 1000 if shown_at is None else shown_at, frame))
            self._changed.notify_all()
        if self._on_frame is not None:
            self._on_frame(frame, stamp)

    def leds(self):
        """What the strip shows now, read back into segments and colour names."""
        with self._lock:
            return LedView(self.frame, self.fw.frame)

    def wait_leds(self, test, timeout):
        """Wait until test(leds()) holds; the LedView, or None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                view = LedView(self.frame, self.fw.frame)
                if test(view):
                    return view
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._changed.wait(left)


class Simulator(PtyBox):
    """The firmware's Box under CPython, ticking in its own thread like the board's loop."""

    ENGINE = "cpython"
    LABEL = "CPython"
    UID = "5100000000b0"

    def __init__(self, rx_filter=None, tx_filter=None, on_frame=None, boot_ms=0):
        self.port = PtyPort(None, rx_filter, tx_filter)
        super().__init__(on_frame)
        self.boot_ms = boot_ms  # silent time from reset to the loop: a real board's boot
        self._awake_at = 0.0  # monotonic time the booting box starts its loop
        self.tick_s = self.fw.box.Box.TICK_MS / 1000
        self._thread = None
        self.faults = 0  # loop exceptions; like the firmware's supervisor, a fresh box follows
        self.pins = [SimPin() for _ in range(self.SEATS)]
        self._pixels = SimPixels(self.fw.frame.Frame.LED_COUNT, self._frame_written)
        self.box = self._boot()

    def _port_changed(self, master):
        self.port.fd = master

    # ----- lifecycle ----------------------------------------------------------------------

    def start(self):
        """Run the box loop in a daemon thread; returns self."""
        self._thread = threading.Thread(target=self._run, name="box-simulator", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        """Stop the loop and close the pseudo-terminal."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._close_pty()

    def _run(self):
        """One tick, then sleep TICK_MS, as the board's loop (no extra reads between ticks)."""
        last = time.monotonic()
        while not self._stop.is_set():
            with self._lock:
                now = time.monotonic()
                self.port.pump(now - last)
                last = now
                if now < self._awake_at:
                    self.port.reset()  # still booting: what arrives is lost, as on the board
                elif self.box.running:
                    self._tick()
            self._stop.wait(self.tick_s)

    def _tick(self):
        """One loop iteration; an exception gets a fresh box, as under the supervisor."""
        try:
            self.box.tick(self.fw.compat.ticks_ms())
        except Exception:
            self.faults += 1
            log.exception("the simulated box's loop failed; starting a fresh box")
            self.box = self._boot(count=False)

    # ----- the board ----------------------------------------------------------------------

    def _boot(self, count=True):
        """A freshly reset box on the same pins, strip and port."""
        fw = self.fw
        self.boots += count
        strip = fw.strip.Strip(self._pixels)
        buttons = fw.buttons.Buttons(self.pins)
        return fw.box.Box(strip, buttons, self.port, uid=self.UID, board=self.BOARD)

    def reset(self):
        """The reset button: the box boots again (HELLO with seq 1), forgetting everything."""
        with self._lock:
            self.port.reset()
            self.box = self._boot()
            self._awake_at = time.monotonic() + self.boot_ms / 1000

    def press(self, seat):
        """Seat button (1..6) down (nothing, if it is broken)."""
        if seat not in self.dead_buttons:
            self.pins[seat - 1].level = 0

    def release(self, seat):
        """Seat button up."""
        self.pins[seat - 1].level = 1

    @property
    def stopped(self):
        """True once the host sent STOP (the board would be in its REPL)."""
        return not self.box.running
