"""Heap allocated per loop iteration of the box, measured under real MicroPython.

Run by tests/firmware/test_micropython.py through `mp_runner.mjs run`; prints one line per
measurement: `ALLOC <label> <bytes> <iterations>`. gc.mem_alloc() deltas with the collector
off, so nothing is freed mid-measurement (the WebAssembly heap grows on demand).
"""

import gc
import io
import select
import time

import board
import machine
import pins
import protocol as P
from fakeport import FakePort
from usbserial import UsbSerial

port = FakePort()
box = board.make_box(port=port)
clock = [0]
host_seq = [1]
TICK = box.TICK_MS


def at(ms):
    """Set the clock and tick until the input is read."""
    clock[0] = ms
    box.tick(ms)
    while port.waiting():
        box.tick(ms)
    port.out[:] = b""


def send(kind, payload=""):
    """One host line, then tick."""
    port.feed(P.encode(host_seq[0], kind, payload))
    host_seq[0] += 1
    at(clock[0])


def fast_path():
    """What runs every TICK_MS: read the (idle) port, poll buttons, draw and show a frame."""
    clock[0] += TICK
    now = clock[0]
    box.poll_serial(now)
    box.poll_buttons(now)
    box.render(now)


def full_tick():
    """A whole loop iteration, timers and all."""
    clock[0] += TICK
    box.tick(clock[0])


def measure(label, body, n):
    """Print the bytes allocated by n calls of body."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(n):
        body()
    used = gc.mem_alloc() - before
    gc.enable()
    print("ALLOC", label, used, n)


def until_a_heartbeat_is_due():
    """Tick until the next tick is the one that sends the heartbeat."""
    while clock[0] + TICK - box._hb_at < box.HEARTBEAT_MS:
        full_tick()
    port.out[:] = b""


at(0)
send(P.HELLO, "proto=1")
send(P.SET, "police=3 limit=7 round=2 rounds=3 seats=6")
send(P.ARM, "id=1 seats=1,2,3,4")
measure("render+buttons armed", fast_path, 400)
machine.press(pins.BUTTONS[0])
at(clock[0] + TICK)
machine.release(pins.BUTTONS[0])
at(clock[0] + 100)
port.out[:] = b""
measure("render+buttons one-locked", fast_path, 400)
send(P.SET, "police=7 limit=7 round=2 rounds=3 seats=6")
measure("render+buttons raid", fast_path, 400)
send(P.ARM, "id=2 seats=1 locked=1")
measure("render+buttons countdown", fast_path, 200)
box.scene.connected = False
measure("render+buttons disconnected", fast_path, 400)
send(P.DISARM)
until_a_heartbeat_is_due()
sent = box._tx_seq
measure("tick sending a heartbeat", full_tick, 1)
assert box._tx_seq == P.seq_next(sent), "expected exactly one heartbeat"
send(P.HB)
sent = box._tx_seq
measure("tick between heartbeats", full_tick, box.HEARTBEAT_MS // TICK - 1)
assert box._tx_seq == sent, "expected no line between heartbeats"
measure("host line received (HB)", lambda: send(P.HB), 1)
measure("command applied + ACK (SET)", lambda: send(P.SET, "police=2 limit=7 round=2 seats=6"), 1)


# ----- the board's own read path (UsbSerial on a stdin stream) and the asyncio loop -----------


class Stdin(io.IOBase):
    """A stream like the board's stdin: select.poll sees it readable while bytes wait."""

    def __init__(self):
        self.rx = bytearray(256)
        self.n = 0
        self.at = 0

    def feed(self, data):
        """Bytes arrive (tests only: allocation is not measured here)."""
        self.rx[: len(data)] = data
        self.n, self.at = len(data), 0

    def readinto(self, buf):
        if self.at >= self.n:
            return 0
        buf[0] = self.rx[self.at]
        self.at += 1
        return 1

    def write(self, data):
        return len(data)

    def ioctl(self, req, arg):
        if req == 3:  # MP_STREAM_POLL
            return select.POLLIN if self.at < self.n else 0
        return 0


stdin = Stdin()
serial = UsbSerial(stdin, stdin)
board_box = board.make_box(port=serial)
board_box.HEARTBEAT_MS = board_box.SILENCE_MS = 1 << 28  # the steady loop between beats
for line in (
    P.encode(1, P.HELLO, "proto=1 host=0c0ffee1"),
    P.encode(2, P.SET, "police=3 limit=7 round=2 rounds=3 seats=4 host=0c0ffee1"),
    P.encode(3, P.ARM, "id=1 seats=1,2,3,4 host=0c0ffee1"),
):
    stdin.feed(line)
    for _ in range(3):
        board_box.tick(time.ticks_ms())
assert board_box.settled, "the UsbSerial box has its session and state"
measure("UsbSerial read, idle", lambda: serial.readinto(board_box._rx), 400)
naps = [0, 0]  # [naps taken, naps allowed]


def nap(ms):
    """time.sleep_ms for serve(): stop the loop after the allowed number of iterations."""
    naps[0] += 1
    if naps[0] >= naps[1]:
        board_box.running = False


def serve(iterations):
    """Bytes allocated by board_box.serve() running `iterations` loop iterations."""
    naps[0], naps[1] = 0, iterations
    board_box.running = True
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    board_box.serve(nap)
    used = gc.mem_alloc() - before
    gc.enable()
    return used


# serve() once, then 401 times: the difference is 400 loop iterations. The drivers stay up.
board_box.deinit = lambda: None
once = serve(1)
print("ALLOC", "Box.serve() loop on UsbSerial", serve(401) - once, 400)
print("ERRORS", box.errors)
