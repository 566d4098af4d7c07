"""The virtual box: the real firmware `Box` under CPython, on fake pins and LEDs, behind a pty.

The device side holds the pseudo-terminal's master; the bridge opens `path` (the slave) with
pyserial exactly like a USB port. `reset()` reboots the box, `unplug()`/`replug()` take the
port away and bring it back at a new path, `press()`/`release()` work the seat buttons, and
`leds()` reads what the strip shows. Filters let tests corrupt the bytes in either direction.
"""

import os
import select
import threading
import time
import tty

from companion_app.device.firmware import load_firmware
from companion_app.device.leds import LedView


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
    """The box's serial port: the pty master, non-blocking, with optional byte filters."""

    READ_SIZE = 4096

    def __init__(self, fd, rx_filter=None, tx_filter=None):
        self.fd = fd
        self._rx = bytearray()
        self._rx_filter = rx_filter
        self._tx_filter = tx_filter
        self.dropped = 0  # bytes written while nobody was reading (as on a real UART)

    def waiting(self):
        """Bytes read from the host but not yet taken by the box."""
        return len(self._rx)

    def pump(self):
        """Move what the host wrote into the box's receive buffer."""
        if self.fd is None:
            return
        try:
            data = os.read(self.fd, self.READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # EIO: no host has the port open
            return
        self._rx.extend(self._rx_filter(data) if self._rx_filter else data)

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


class Simulator:
    """A box on a pseudo-terminal, ticking in its own thread like the firmware's asyncio loop."""

    BOARD = "simulator"
    UID = "5100000000b0"
    SEATS = 6

    def __init__(self, rx_filter=None, tx_filter=None, on_frame=None):
        self.fw = load_firmware()
        self.tick_s = self.fw.box.Box.TICK_MS / 1000
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread = None
        self._on_frame = on_frame
        self.pins = [SimPin() for _ in range(self.SEATS)]
        self._pixels = SimPixels(self.fw.frame.Frame.LED_COUNT, self._frame_written)
        self.frame = bytes(len(self._pixels.buf))
        self.frames = 0  # frames sent to the strip
        self.boots = 0
        self._master = self._slave = None
        self.path = None
        self._open_pty()
        self.port = PtyPort(self._master, rx_filter, tx_filter)
        self.box = self._boot()

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

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _run(self):
        """Tick, then sleep until the next tick or until the host writes."""
        while not self._stop.is_set():
            with self._lock:
                fd = self.port.fd
                self.port.pump()
                if self.box.running:
                    self.box.tick(self.fw.compat.ticks_ms())
                    while self.port.waiting():  # a long input takes a few reads, as on the board
                        self.box.tick(self.fw.compat.ticks_ms())
            if fd is None:
                self._stop.wait(self.tick_s)
                continue
            try:
                select.select([fd], [], [], self.tick_s)
            except (OSError, ValueError):  # unplugged while we waited
                self._stop.wait(self.tick_s)

    # ----- the board ----------------------------------------------------------------------

    def _boot(self):
        """A freshly reset box on the same pins, strip and port."""
        fw = self.fw
        self.boots += 1
        strip = fw.strip.Strip(self._pixels)
        buttons = fw.buttons.Buttons(self.pins)
        return fw.box.Box(strip, buttons, self.port, uid=self.UID, board=self.BOARD)

    def reset(self):
        """The reset button: the box boots again (HELLO with seq 1), forgetting everything."""
        with self._lock:
            self.box = self._boot()

    def press(self, seat):
        """Seat button (1..6) down."""
        self.pins[seat - 1].level = 0

    def release(self, seat):
        """Seat button up."""
        self.pins[seat - 1].level = 1

    @property
    def stopped(self):
        """True once the host sent STOP (the board would be in its REPL)."""
        return not self.box.running

    # ----- the port -----------------------------------------------------------------------

    def _open_pty(self):
        """A new pseudo-terminal in raw mode (no echo); the master does not block."""
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)

    def _close_pty(self):
        """Close both ends: the host's open port reports an error, as on a USB unplug."""
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        self.port.fd = None
        self.path = None

    def unplug(self):
        """Pull the USB cable: the port vanishes; the box keeps running (shows disconnected)."""
        with self._lock:
            if self._master is not None:
                os.close(self._master)
                self._master = None
            self.port.fd = None
            self.path = None

    def replug(self):
        """Plug it back: a new pseudo-terminal at a new path (the old one stays taken until now)."""
        with self._lock:
            old_slave = self._slave
            self._open_pty()
            if old_slave is not None:
                os.close(old_slave)
            self.port.fd = self._master
            self.port.pump()

    # ----- the LEDs -----------------------------------------------------------------------

    def _frame_written(self, frame):
        """The firmware sent a frame to the strip (runs on the box thread)."""
        stamp = time.perf_counter()
        with self._changed:
            self.frame = frame
            self.frames += 1
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
