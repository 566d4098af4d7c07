"""The simulated DevKitC around the firmware, under MicroPython (WebAssembly) in runner.mjs.

The board's world advances whenever the firmware waits (`time.sleep_ms`, an asyncio sleep;
see simtime.py and simasyncio.py): the host's bytes cross UART0 at 115200 baud into
MicroPython's 260-byte stdin ring (bytes that find it full are lost, as on the board), the
host presses buttons, timers fire and a started watchdog that went unfed reboots the board.
A Ctrl-C on the line while Python code runs with the interrupt on (`kbd_intr(3)`, the REPL
running a command, main.py before it turns it off) never reaches the ring: it raises
KeyboardInterrupt at the next look, as the ESP32's UART interrupt schedules it.
simboot.py boots the board (boot.py, main.py, the REPL: simrepl.py). `hostio` is the
runner's JavaScript side. The other modules of this folder take from this one; it imports
none of them.
"""

import binascii
import io
import select
import time

import hostio

BAUD = 115200
BITS_PER_BYTE = 10  # 8N1: start bit, 8 data bits, stop bit
LOOK_MS = 5  # the world is looked at this often while the firmware waits
CTRL_C = 3
#: Line time credited per look at most. A tick of the box looks twice (before and after its
#: 5 ms sleep), so a host process that stalls the board delivers at most 2 x 57 bytes per
#: tick, as an on-time board would, instead of a flood the board never sees.
MAX_GAP_MS = LOOK_MS
RING_SIZE = 260  # MicroPython's ESP32 port: stdin_ringbuf_array[260] (holds 259 bytes)
_MP_STREAM_POLL = 3
CAUSES = {"power-on": 1, "reset": 2, "wdt": 3}
cause = "power-on"  # why the board last booted (simboot sets it)


class Uart(io.IOBase):
    """The stdin ring as `sys.stdin.buffer` and `select.poll` see it on the board."""

    def __init__(self):
        self.ring = bytearray(RING_SIZE)
        self.head = self.tail = 0
        self.dropped = 0  # bytes that arrived while the ring was full

    def waiting(self):
        """Bytes in the ring."""
        return (self.head - self.tail) % RING_SIZE

    def deliver(self, data):
        """Bytes off the wire into the ring; a full ring loses them; the interrupt character
        (while it is on) schedules KeyboardInterrupt instead of arriving."""
        for byte in data:
            if byte == interrupt[0]:
                interrupt[1] = True
                continue
            following = (self.head + 1) % RING_SIZE
            if following == self.tail:
                self.dropped += 1
                continue
            self.ring[self.head] = byte
            self.head = following

    def readinto(self, buf):
        """Take up to len(buf) bytes from the ring; how many."""
        n = 0
        size = len(buf)
        while n < size and self.tail != self.head:
            buf[n] = self.ring[self.tail]
            self.tail = (self.tail + 1) % RING_SIZE
            n += 1
        return n

    def ioctl(self, request, arg):
        """select.poll asks here whether a byte is waiting."""
        if request == _MP_STREAM_POLL:
            return arg & select.POLLIN if self.tail != self.head else 0
        return 0


TX_FIFO = 128  # bytes the ESP32's UART0 transmit FIFO holds
TX_WAIT_MS = 10  # uart_stdout_tx_strn: a full FIFO is waited on with vTaskDelay(1), 10 ms


class Stdout:
    """`sys.stdout.buffer` on the board: bytes to the host, through a 128-byte transmit FIFO
    that empties at 115200 baud. A write that does not fit blocks the firmware in 10 ms steps,
    as MicroPython's ESP32 port does (ports/esp32/uart.c), while the world goes on: bytes from
    the host keep filling the stdin ring meanwhile, and `stalled_ms` adds up the time."""

    def __init__(self):
        self.level = 0.0  # bytes in the FIFO...
        self.at = 0  # ...as of this tick
        self.stalled_ms = 0

    def _drain(self):
        """The FIFO as of now: what the line sent since the last look is gone."""
        now = time.ticks_ms()
        gone = max(0, time.ticks_diff(now, self.at)) * BAUD / BITS_PER_BYTE / 1000
        self.level = max(0.0, self.level - gone)
        self.at = now

    def write(self, data):
        view = memoryview(data)
        while view:
            self._drain()
            room = int(TX_FIFO - self.level)
            if room <= 0:
                wait_ms(TX_WAIT_MS)
                self.stalled_ms += TX_WAIT_MS
                continue
            chunk = bytes(view[:room])
            self.level += len(chunk)
            send("T", binascii.hexlify(chunk).decode())
            view = view[room:]
        return len(data)


UART0 = Uart()
STDOUT = Stdout()
_wire = [b""]  # bytes the host wrote that have not crossed the UART yet
_host_text = ""  # a partial command line from the host
_line = [0, 0.0]  # [last look (ticks), line-time credit in bytes]
_dropped_told = [0]
_watchdog = []  # [timeout_ms, fed_at, looks since fed] once started; a soft reset keeps it
interrupt = [-1, False]  # [the interrupt character (-1: off), a KeyboardInterrupt pending]
timers = []  # machine.Timer objects that are running
levels = {}  # gpio -> level; buttons pulled up read 1 until the host presses them
buttons = []  # the seat buttons' GPIOs, seat 1 first (simboot sets them from pins.py)


def send(kind, payload=""):
    """One line to the host (runner.mjs passes it on)."""
    hostio.send(kind + " " + payload)


def wait_ms(ms, step=LOOK_MS):
    """The firmware waits `ms`: the world goes on (at least one look, even for 0), looked at
    every `step` ms."""
    end = time.ticks_add(time.ticks_ms(), ms)
    while True:
        look()
        left = time.ticks_diff(end, time.ticks_ms())
        if left <= 0:
            return
        hostio.sleep(min(left, step))


def look():
    """Host commands, UART bytes, timers, the watchdog: everything that happened by now; a
    Ctrl-C that came while the interrupt was on raises KeyboardInterrupt here."""
    _commands(hostio.poll())
    now = time.ticks_ms()
    _uart(now)
    for timer in list(timers):
        timer.due(now)
    if UART0.dropped != _dropped_told[0]:
        _dropped_told[0] = UART0.dropped
        send("D", str(UART0.dropped))
    if _watchdog_bites(now):
        reboot("wdt")
    take_interrupt()


def kbd_intr(char):
    """micropython.kbd_intr(): which byte interrupts running code (-1: none)."""
    interrupt[0] = char


def take_interrupt():
    """Raise the KeyboardInterrupt a Ctrl-C scheduled, if one did."""
    if interrupt[1]:
        interrupt[1] = False
        raise KeyboardInterrupt


def soft_reset():
    """What a soft reset does to the board: every timer stops (machine_timer_deinit_all) and
    the flash is written; the watchdog, the pins and the UART's ring stay as they are."""
    del timers[:]
    interrupt[:] = [-1, False]
    sync_flash()


def sync_flash():
    """Write the board's files to the host's flash folder."""
    hostio.sync()


def _commands(text):
    """Act on the host's command lines: R <hex> bytes, P/U <seat> buttons, Q power off."""
    global _host_text
    if not text:
        return
    _host_text += text
    *lines, _host_text = _host_text.split("\n")
    for line in lines:
        kind, arg = line[:1], line[2:]
        if kind == "R":
            _wire[0] += binascii.unhexlify(arg)
        elif kind == "P":
            press(int(arg))
        elif kind == "U":
            release(int(arg))
        elif kind == "Q":
            hostio.exit()


def _uart(now):
    """Move the host's bytes across the line at 115200 baud into the ring."""
    gap = min(max(time.ticks_diff(now, _line[0]), 0), MAX_GAP_MS)
    _line[0] = now
    wire = _wire[0]
    if not wire:
        _line[1] = 0.0  # an idle line saves no time for later
        return
    _line[1] += gap * BAUD / BITS_PER_BYTE / 1000
    due = min(int(_line[1]), len(wire))
    if due:
        UART0.deliver(wire[:due])
        _wire[0] = wire[due:]
        _line[1] -= due


def watchdog_start(timeout_ms):
    """machine.WDT(): from now on the firmware must feed it within timeout_ms; again (after a
    soft reset too) it is the same watchdog with a new timeout, fed now, as on the ESP32."""
    _watchdog[:] = [timeout_ms, time.ticks_ms(), 0]


def watchdog_feed():
    """machine.WDT.feed()."""
    if _watchdog:
        _watchdog[1] = time.ticks_ms()
        _watchdog[2] = 0


def _watchdog_bites(now):
    """True when the watchdog starves: late on the clock and over as many looks.

    Counting looks too keeps a host that stalls this whole process (a busy machine) from
    rebooting a board whose loop is fine: the loop did not get to run either.
    """
    if not _watchdog:
        return False
    _watchdog[2] += 1
    late = time.ticks_diff(now, _watchdog[1]) > _watchdog[0]
    return late and _watchdog[2] * LOOK_MS > _watchdog[0]


def leds(hex_frame):
    """neopixel.write(): the frame to the host."""
    send("L", hex_frame)


def reboot(why):
    """The board resets (machine.reset, the watchdog): the host powers it up again."""
    send("B", why)
    hostio.exit()


def pwm(freq, duty):
    """The piezo's PWM changed (the host hears a beep while duty is not 0)."""
    send("Z", f"{freq} {duty}")


def press(seat):
    """Seat `seat`'s button (1..6) down: the switch pulls its GPIO low."""
    levels[buttons[seat - 1]] = 0


def release(seat):
    """Seat `seat`'s button up (the pull-up wins)."""
    levels[buttons[seat - 1]] = 1
