"""The simulated box on real MicroPython: the firmware's own boot, its REPL, the board's line.

Also the line model both simulators share (115200 baud into the 260-byte stdin ring of
MicroPython's ESP32 port, bytes lost when it is full), the simulated watchdog, and the
fallback to CPython where Node or the npm package is missing.
"""

import importlib.util
import sys
import time
import types

import pytest

from companion_app.bridge import deploy as D
from companion_app.bridge.watched import Watched
from companion_app.simulator import micropython as mpsim
from companion_app.simulator.box import MAX_GAP_S, STDIN_RING, PtyPort, Simulator
from firmware import protocol as P
from tests.device.liveapp import wait_until
from tests.device.test_simulator import WAIT_S, Host, simulator

LINE_BYTES_PER_S = 115200 / 10  # 8N1


@pytest.fixture
def board():
    """The firmware on MicroPython behind a pty; powered off after the test."""
    box = simulator("micropython").start()
    yield box
    box.stop()


def test_the_firmware_boots_through_its_own_main_py(board):
    host = Host(board.path)
    try:
        hello = host.expect(P.HELLO).fields()  # announced without being asked (main.py ran)
        assert hello["uid"] == "246f28a1b2c3"  # machine.unique_id() of the simulated DevKitC
        assert board.ENGINE == "micropython" and board.LABEL.startswith("MicroPython 1.27")
    finally:
        host.close()


def test_seat_1_held_at_reset_boots_to_the_repl_and_deploy_reaches_it(board):
    """Safe mode (firmware/main.py): the box does not start; the raw REPL answers."""
    board.press(1)
    board.reset()
    assert wait_until(lambda: board.stopped_why == "repl", WAIT_S)
    ran = []
    status = D.deploy(
        board.path,
        out=lambda line: None,
        run=lambda command, **how: ran.append(command) or Watched(0, ""),
    )
    assert status == 0 and len(ran) == 1
    board.release(1)
    board.reset()
    host = Host(board.path)
    try:
        assert host.expect(P.HELLO, where=lambda msg: msg.seq == 1)
    finally:
        host.close()


def test_deploy_stops_the_running_firmware_with_stop(board):
    host = Host(board.path)
    host.expect(P.HELLO)
    host.close()
    said = []
    status = D.deploy(
        board.path,
        out=said.append,
        run=lambda command, **how: Watched(0, ""),
    )
    assert status == 0 and said[0].endswith("stopped for the update.")
    assert board.stopped_why == "repl"


def test_a_burst_at_line_rate_is_read_without_loss(board):
    """The box reads its ring faster than 115200 baud fills it: 4 KB of noise lose nothing."""
    host = Host(board.path)
    try:
        host.expect(P.HELLO)
        host.port.write(bytes(range(32, 127)) * 43 + b"\n")
        seq = host.send(P.HELLO, "proto=1 host=0badc0de")
        assert host.expect(P.HELLO, where=lambda msg: "host=0badc0de" in msg.payload)
        assert seq and board.lost == 0
    finally:
        host.close()


# ----- the line and the ring, as both simulators model them ------------------------------


class FakeFd:
    """os.read/os.write on a fake pty master: what the host wrote waits here."""

    def __init__(self, data=b""):
        self.data = bytearray(data)


@pytest.fixture
def wire(monkeypatch):
    """A PtyPort whose pty reads come from a buffer the test fills."""
    host = FakeFd()

    def fake_read(fd, size):
        taken = bytes(host.data[:size])
        del host.data[:size]
        return taken

    monkeypatch.setattr("companion_app.simulator.box.os.read", fake_read)
    return host, PtyPort(fd=7)


def test_the_line_carries_115200_baud_per_tick(wire):
    host, port = wire
    host.data.extend(b"x" * 1000)
    port.pump(0.005)  # one 5 ms tick
    assert port.waiting() == int(0.005 * LINE_BYTES_PER_S) == 57
    port.pump(0.005)
    assert port.waiting() == 115  # the fraction carries over


def test_the_stdin_ring_holds_259_bytes_and_loses_the_rest(wire):
    host, port = wire
    host.data.extend(b"y" * 2000)
    for _ in range(20):  # 20 ticks of 10 ms nobody reads: 2000 bytes arrive
        port.pump(0.01)
    assert port.waiting() == STDIN_RING - 1 == 259
    assert port.lost == 2000 - 259
    assert port.readinto(bytearray(128)) == 128 and port.waiting() == 131


def test_an_idle_line_saves_no_time_and_a_stall_floods_nothing(wire):
    host, port = wire
    for _ in range(100):
        port.pump(0.005)  # half a second of silence
    host.data.extend(b"z" * 500)
    port.pump(5.0)  # the host process stalled for 5 s: at most MAX_GAP_S of line time
    assert port.waiting() == int(MAX_GAP_S * LINE_BYTES_PER_S) == 115 and port.lost == 0


def load_simhost(clock):
    """simulator/board/simhost.py under CPython, with the runner and MicroPython's ticks faked."""
    sent = []
    hostio = types.SimpleNamespace(
        send=sent.append, poll=lambda: "", sleep=lambda ms: None, exit=lambda: None
    )
    sys.modules["hostio"] = hostio
    try:
        spec = importlib.util.spec_from_file_location(
            "simhost", mpsim.RUNNER.with_name("simhost.py")
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        del sys.modules["hostio"]
    module.time = types.SimpleNamespace(
        ticks_ms=lambda: clock[0],
        ticks_add=lambda a, b: a + b,
        ticks_diff=lambda a, b: a - b,
    )
    return module, sent


def test_the_micropython_board_has_the_same_ring():
    simhost, _ = load_simhost([0])
    ring = simhost.Uart()
    ring.deliver(b"a" * 300)
    assert ring.waiting() == 259 and ring.dropped == 41
    assert ring.ioctl(3, 1) == 1  # select.poll: readable
    buf = bytearray(300)
    assert ring.readinto(buf) == 259 and ring.ioctl(3, 1) == 0


def test_the_micropython_board_line_runs_at_115200_baud():
    clock = [0]
    simhost, sent = load_simhost(clock)
    simhost._commands("R " + ("41" * 1000) + "\n")
    simhost._uart(0)
    for _ in range(4):
        clock[0] += 5
        simhost._uart(clock[0])
    assert simhost.UART0.waiting() == int(0.02 * LINE_BYTES_PER_S) == 230
    assert simhost.UART0.readinto(bytearray(300)) == 230
    clock[0] += 1000  # the process stalled: one look's worth (5 ms), no flood
    simhost._uart(clock[0])
    assert simhost.UART0.waiting() == 58  # 57.6 and the 0.4 left over


def test_a_starved_watchdog_reboots_the_simulated_board():
    clock = [0]
    simhost, sent = load_simhost(clock)
    simhost.watchdog_start(100)
    for _ in range(30):  # 150 ms of looks, fed every 10 ms: alive
        clock[0] += 5
        if clock[0] % 10 == 0:
            simhost.watchdog_feed()
        assert not simhost._watchdog_bites(clock[0])
    clock[0] += 500  # a stalled host process: late on the clock but hardly looked at
    assert not simhost._watchdog_bites(clock[0])
    bitten = False
    for _ in range(30):  # now the loop really stops feeding
        clock[0] += 5
        bitten = bitten or simhost._watchdog_bites(clock[0])
    assert bitten


# ----- which engine ------------------------------------------------------------------------


def test_auto_falls_back_to_cpython_without_node_and_says_why(monkeypatch, caplog):
    monkeypatch.setattr(mpsim.shutil, "which", lambda name: None)
    with caplog.at_level("INFO"):
        sim = mpsim.make_simulator("auto")
    try:
        assert isinstance(sim, Simulator) and sim.ENGINE == "cpython"
        assert "MicroPython cannot run here: Node.js is not installed" in sim.note
        assert sim.note in caplog.text
    finally:
        sim.stop()
    with pytest.raises(mpsim.SimulatorUnavailable, match="Node.js is not installed"):
        mpsim.make_simulator("micropython")


def test_a_missing_npm_package_names_the_setup_script(monkeypatch, tmp_path):
    monkeypatch.setattr(mpsim, "SEARCH_ROOTS", (tmp_path,))
    monkeypatch.delenv(mpsim.PACKAGE_ENV, raising=False)
    with pytest.raises(mpsim.SimulatorUnavailable, match="scripts/setup-firmware-tests.sh"):
        mpsim.find_micropython()


def test_an_old_node_is_refused(monkeypatch):
    monkeypatch.setattr(mpsim, "_node_major", lambda node: 18)
    with pytest.raises(mpsim.SimulatorUnavailable, match="Node.js 18 is too old"):
        mpsim.find_micropython()


def test_an_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="auto, micropython, cpython"):
        mpsim.make_simulator("pypy")


FAKE_BOARD = """
// A board that resets itself (its watchdog bit) on power-on and says HELLO after that.
import fs from "node:fs";
const cause = JSON.parse(process.argv[3]).cause;
if (cause === "power-on") {
  fs.writeSync(1, "READY\\nB wdt\\n");
  process.exit(0);
}
fs.writeSync(1, `READY\\nT ${Buffer.from(`cause=${cause}\\n`).toString("hex")}\\n`);
const inbox = Buffer.alloc(4096);
setInterval(() => {
  try {
    const n = fs.readSync(0, inbox);
    if (n === 0 || inbox.subarray(0, n).includes("Q")) process.exit(0);
  } catch (error) {
    if (error.code !== "EAGAIN") process.exit(0);
  }
}, 20);
"""


def test_a_board_that_resets_itself_boots_again_with_the_cause(monkeypatch, tmp_path):
    """The runner's `B wdt` (watchdog, machine.reset()) powers a fresh board up at once."""
    runner = tmp_path / "runner.mjs"
    runner.write_text(FAKE_BOARD)
    monkeypatch.setattr(mpsim, "RUNNER", runner)
    board = simulator("micropython").start()
    try:
        host = Host(board.path)
        try:
            deadline = time.monotonic() + WAIT_S
            seen = b""
            while b"\n" not in seen and time.monotonic() < deadline:
                seen += host.port.read(64)
            assert seen == b"cause=wdt\n" and board.boots == 2
        finally:
            host.close()
    finally:
        board.stop()
