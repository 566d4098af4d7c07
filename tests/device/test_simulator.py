"""The simulated box: the real firmware behind a pty, opened like a USB port.

Every test runs on both engines: the firmware's Box under CPython, and the whole firmware
(main.py on) under real MicroPython in Node (tests/device/test_simulator_micropython.py has
what only the latter does).
"""

import time

import pytest
import serial

from companion_app.bridge.detect import open_port
from companion_app.simulator import micropython as mpsim
from firmware import protocol as P
from tests.device.liveapp import SHOWN_S, wait_until

WAIT_S = SHOWN_S  # the MicroPython board boots in Node first (about 0.3 s, more when busy)
ENGINES = ("cpython", "micropython")


def simulator(engine, **options):
    """A simulated box on `engine`, not started; fails clearly without Node for MicroPython."""
    if engine == "micropython":
        try:
            mpsim.find_micropython()
        except mpsim.SimulatorUnavailable as exc:
            pytest.fail(f"{exc}: run bash scripts/setup-firmware-tests.sh")
    return mpsim.make_simulator(engine, **options)


@pytest.fixture(params=ENGINES)
def sim(request):
    """A running simulated box on each engine; stopped after the test."""
    box = simulator(request.param).start()
    yield box
    box.stop()


class Host:
    """A bare host on the simulator's port: framed lines out, decoded lines in."""

    def __init__(self, path):
        self.port = open_port(path, 0.05)
        self.reader = P.LineReader()
        self.seq = 1

    def send(self, kind, payload=""):
        """One line with the next seq; that seq."""
        seq, self.seq = self.seq, self.seq + 1
        self.port.write(P.encode(seq, kind, payload))
        return seq

    def expect(self, kind, where=lambda msg: True, **fields):
        """The next device line of `kind` with these fields, for which `where` holds."""
        deadline = time.monotonic() + WAIT_S
        want = {k: str(v) for k, v in fields.items()}
        while time.monotonic() < deadline:
            for raw in self.reader.feed(self.port.read(self.port.in_waiting or 1)):
                msg = P.decode(raw)
                if msg.kind == kind and want.items() <= msg.fields().items() and where(msg):
                    return msg
        pytest.fail(f"no {kind} {fields} from the box")

    def close(self):
        """Close the port."""
        self.port.close()


@pytest.fixture
def host(sim):
    """A bare host on the simulator's port."""
    h = Host(sim.path)
    yield h
    h.close()


def test_the_box_answers_hello_and_shows_the_state(sim, host):
    host.send(P.HELLO, "proto=1")
    hello = host.expect(P.HELLO).fields()
    assert hello["board"] == "simulator" and hello["layout"] == "7,5,6"
    seq = host.send(P.SET, "police=3 limit=5 round=2 rounds=3 seats=4")
    host.expect(P.ACK, of=seq)
    view = sim.wait_leds(lambda v: v.shows(3, 5, 2), WAIT_S)
    assert view.seat_px == ["idle"] * 4 + ["off"] * 2
    assert view.round_px == ["done", "now", "todo", "off", "off"]


def test_buttons_lock_armed_seats_and_the_box_tells_the_host(sim, host):
    host.send(P.HELLO, "proto=1")
    host.send(P.SET, "police=0 limit=7 round=1 rounds=3 seats=4")
    host.send(P.ARM, "id=5 seats=1,2")
    assert sim.wait_leds(lambda v: v.seat_px[:3] == ["armed", "armed", "idle"], WAIT_S)
    sim.press(2)
    press = host.expect(P.PRESS)
    sim.release(2)
    fields = press.fields()
    assert fields.pop("t").isdigit() and fields == {"id": "5", "seat": "2"}  # t: the box's clock
    assert sim.wait_leds(lambda v: v.seat_px[1] == "locked", WAIT_S)


def test_a_reset_boots_the_box_again(sim, host):
    host.send(P.HELLO, "proto=1")
    host.expect(P.HELLO)
    sim.reset()
    # The boot HELLO and the answer may both be in the pipe still; the reboot's starts at seq 1.
    host.expect(P.HELLO, where=lambda msg: msg.seq == 1)
    assert sim.boots == 2


def test_unplug_fails_the_open_port_and_replug_brings_a_new_path(sim, host):
    old = sim.path
    sim.unplug()
    assert sim.path is None
    with pytest.raises(serial.SerialException):
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            host.port.read(1)
    sim.replug()
    assert sim.path not in (None, old)
    again = Host(sim.path)
    try:
        again.send(P.HELLO, "proto=1")
        assert again.expect(P.HELLO)
    finally:
        again.close()


def test_a_box_nobody_talks_to_shows_disconnected(sim):
    assert sim.wait_leds(lambda v: v.disconnected, WAIT_S)


def test_stop_leaves_the_loop_for_the_repl(sim, host):
    seq = host.send("STOP")
    host.expect(P.ACK, of=seq)
    assert wait_until(lambda: sim.stopped, WAIT_S)  # it stops right after writing the ACK


@pytest.mark.parametrize("engine", ENGINES)
def test_filters_see_each_direction(engine):
    seen = []
    with simulator(engine, tx_filter=lambda b: seen.append(b) or b):
        deadline = time.monotonic() + WAIT_S
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
        assert seen[0].split(b" ")[1] == b"HELLO"
