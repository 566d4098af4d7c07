"""Puts firmware/ and the fakes on sys.path (flat, as on the board) and builds boxes on fakes."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
HERE = Path(__file__).resolve().parent
FAKES = HERE / "fakes"
GOLDEN = HERE / "golden" / "session.txt"
RUNNER = HERE / "mp_runner.mjs"
MP_PACKAGE = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
SETUP_HINT = "run `bash scripts/setup-firmware-tests.sh` first"

for folder in (FAKES, FIRMWARE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import board  # noqa: E402  (needs the paths above)
import machine  # noqa: E402
import protocol as P  # noqa: E402
from fakeport import FakePort  # noqa: E402

HOST_NONCE = "0c0ffee1"
#: What a host names its session in (docs/protocol.md "Sessions"): commands and answers.
TAGGED = (P.SET, P.ARM, P.DISARM, P.ACK, P.NAK)


class Host:
    """Plays the host against a box: numbered lines in, decoded replies out, a settable clock."""

    def __init__(self, box, port):
        self.box = box
        self.port = port
        self.seq = 1
        self.now = 0
        self.nonce = None  # the session this host opened (send() names it in TAGGED lines)

    def at(self, ms):
        """Advance the clock to `ms` and tick; the replies."""
        self.now = ms
        return self.tick()

    def tick(self):
        """Tick at the current time until all input is read; the decoded lines the box wrote."""
        self.box.tick(self.now)
        while self.port.waiting():
            self.box.tick(self.now)
        return [P.decode(line.encode()) for line in self.port.take_lines()]

    def send(self, kind, payload="", seq=None, host=None):
        """Send one well-formed line (next seq unless given; a command or answer names the
        host's session, or `host` if given, "" for none); the replies of one tick."""
        host = self.nonce if host is None else host
        if kind in TAGGED and host:
            payload = f"{payload} host={host}" if payload else f"host={host}"
        if seq is None:
            seq = self.seq
            self.seq = P.seq_next(seq)
        return self.raw(P.encode(seq, kind, payload))

    def raw(self, data):
        """Send bytes as they are; the replies of one tick."""
        self.port.feed(data)
        return self.tick()

    def press(self, seat, down=True):
        """Seat button down (or up) for two polls, TICK_MS apart (what the debounce needs to
        accept it); the replies. The clock ends TICK_MS later."""
        gpio = board.pins.BUTTONS[seat - 1]
        machine.press(gpio) if down else machine.release(gpio)
        replies = self.tick()
        self.now += self.box.TICK_MS
        return replies + self.tick()

    def release(self, seat):
        """Seat button up for two polls; the replies."""
        return self.press(seat, down=False)

    def open(self, nonce=HOST_NONCE):
        """Boot and say hello with a host nonce: a host session; the replies (boot HELLO too)."""
        self.nonce = nonce
        return self.at(0) + self.send(P.HELLO, f"proto=1 host={nonce}")

    def start(self, state="police=0 limit=7 round=1 rounds=3 seats=4"):
        """Boot, say hello and send a display state, as a host does on connecting."""
        self.open()
        return self.send(P.SET, state)


@pytest.fixture(autouse=True)
def _pins_up():
    """Every button up before each test."""
    machine.reset_pins()


@pytest.fixture
def port():
    """An in-memory serial port."""
    return FakePort()


@pytest.fixture
def box(port):
    """A box on fake pins, strip and piezo, wired as board.py does on the ESP32."""
    return board.make_box(port=port)


@pytest.fixture
def host(box, port):
    """A host talking to `box`."""
    return Host(box, port)


def node_or_fail():
    """The node executable and the installed MicroPython package, or a clear failure."""
    node = shutil.which("node")
    if node is None or not MP_PACKAGE.is_dir():
        pytest.fail("Node 20 and the MicroPython npm package are needed: " + SETUP_HINT)
    return node


def run_node(args, stdin="", timeout=30):
    """Run the MicroPython runner to completion; the CompletedProcess."""
    return subprocess.run(
        [node_or_fail(), str(RUNNER), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        check=False,
    )


def golden_lines():
    """The golden transcript's lines."""
    return GOLDEN.read_text().splitlines()
