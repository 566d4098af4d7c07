"""The same firmware under real MicroPython (WebAssembly, in Node): live link and allocations."""

import queue
import subprocess
import threading
import time

import protocol as P
import pytest
from box import Box

from .conftest import HERE, ROOT, RUNNER, node_or_fail, run_node

# A liveness bound, not a speed one: what should come in about a second may take many on a
# host whose cores are all busy (MicroPython in Node gets a share of one).
WAIT_S = 15.0


class LiveBox:
    """`mp_runner.mjs live --leds` as a subprocess: lines in, decoded lines and frames out."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [node_or_fail(), str(RUNNER), "live", "--leds"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        self.lines = queue.Queue()
        self.frames = queue.Queue()
        self.errors = []
        self.seq = 1
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        for raw in self.proc.stdout:
            self.lines.put(raw)

    def _read_err(self):
        for raw in self.proc.stderr:
            text = raw.decode(errors="replace").rstrip("\n")
            if text.startswith("LEDS "):
                self.frames.put(bytes.fromhex(text[5:]))
            else:
                self.errors.append(text)

    def write(self, data):
        """Bytes to the box's serial port (a newline ends each line)."""
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, kind, payload=""):
        """One framed line with the next host seq; returns that seq."""
        seq = self.seq
        self.seq += 1
        self.write(P.encode(seq, kind, payload))
        return seq

    def expect(self, kind, timeout=WAIT_S, **fields):
        """The next line of `kind` whose fields include `fields` (others are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"no {kind} {fields} within {timeout}s; stderr: {self.errors}")
            try:
                msg = P.decode(self.lines.get(timeout=left))
            except queue.Empty:
                continue
            wanted = {k: str(v) for k, v in fields.items()}
            if msg.kind == kind and wanted.items() <= msg.fields().items():
                return msg

    def frame_where(self, test, timeout=WAIT_S):
        """The first LED frame (GRB bytes) for which test(frame) holds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                frame = self.frames.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                continue
            if test(frame):
                return frame
        pytest.fail("no such LED frame")

    def close(self):
        """Stop the runner."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()


@pytest.fixture
def live():
    box = LiveBox()
    yield box
    box.close()


def lit(frame, pixel):
    """True if the pixel is not dark."""
    return any(frame[3 * pixel : 3 * pixel + 3])


def red(frame, pixel):
    """True if the pixel is pure red (GRB order)."""
    g, r, b = frame[3 * pixel : 3 * pixel + 3]
    return r > 0 and g == 0 and b == 0


def test_live_session_over_stdin_and_stdout(live):
    boot = live.expect(P.HELLO)
    assert boot.seq == 1 and boot.fields()["proto"] == str(P.PROTO_VERSION)
    live.send(P.HELLO, "proto=1")
    live.expect(P.HELLO)
    seq = live.send(P.SET, "police=3 limit=7 round=2 rounds=3 seats=4")
    live.expect(P.ACK, of=seq)
    live.frame_where(lambda f: [red(f, i) for i in range(7)] == [True] * 3 + [False] * 4)
    # Heartbeats keep coming, on the box's own clock (their one-a-second schedule is held on a
    # fake clock in test_box.py; here a busy host would delay one, so no wall-clock bound).
    beats = [int(live.expect(P.HB).fields()["t"]) for _ in range(2)]
    assert beats[0] < beats[1]
    seq = live.send(P.ARM, "id=7 seats=1,2")
    live.expect(P.ACK, of=seq)
    live.write(b"! press 1 2\n")
    first = live.expect(P.PRESS, id=7, seat=1)
    second = live.expect(P.PRESS, id=7, seat=2)
    for msg in (first, second):
        live.send(P.ACK, f"of={msg.seq}")
    reveal = live.expect(P.REVEAL, id=7, seats="1,2")
    live.send(P.ACK, f"of={reveal.seq}")
    seq = live.send("STOP")
    live.expect(P.ACK, of=seq)
    assert live.proc.wait(timeout=WAIT_S) == 0
    assert "STOPPED" in live.errors
    assert [e for e in live.errors if e != "STOPPED"] == []


def test_live_box_survives_noise_and_control_bytes(live):
    live.expect(P.HELLO)
    live.send(P.HELLO, "proto=1 host=0c0ffee1")
    live.expect(P.HELLO, host="0c0ffee1")
    live.write(b"\x03\x03garbage\x00\xff\n" + b"9" * 400 + b"\n1 SET police=1 *00000000\n")
    seq = live.send(P.SET, "police=7 limit=7 round=1 rounds=3 seats=2 host=0c0ffee1")
    live.expect(P.ACK, of=seq)
    live.frame_where(lambda f: all(lit(f, i) for i in range(12)))  # the raid lights them all


def test_live_box_shows_disconnected_after_silence(live):
    live.expect(P.HELLO)
    live.send(P.HELLO, "proto=1 host=0c0ffee1")
    live.expect(P.HELLO, host="0c0ffee1")
    # Timed from before the box can hear the SET to after its scanner frame is read, so a busy
    # host can only make the span longer: it is never below the box's silence.
    started = time.monotonic()
    seq = live.send(P.SET, "police=2 limit=7 round=1 rounds=3 seats=2 host=0c0ffee1")
    live.expect(P.ACK, of=seq)
    live.frame_where(lambda f: red(f, 0) and red(f, 1))
    scanner = live.frame_where(lambda f: sum(lit(f, i) for i in range(12)) == 1 and not red(f, 0))
    assert scanner and time.monotonic() - started > 0.8 * Box.SILENCE_MS / 1000


def test_no_allocation_in_the_steady_state_loop_under_micropython(capsys):
    result = run_node(["run", str(HERE / "mp_alloc.py")])
    assert result.returncode == 0, result.stderr
    figures = {}
    for line in result.stdout.splitlines():
        if line.startswith("ALLOC "):
            label, used, count = line[6:].rsplit(" ", 2)
            figures[label] = (int(used), int(count))
    fast = {k: v for k, v in figures.items() if k.startswith("render+buttons")}
    assert len(fast) == 5
    for label, (used, _count) in fast.items():
        assert used == 0, f"{label}: {used} bytes"
    assert figures["tick between heartbeats"][0] == 0
    assert figures["UsbSerial read, idle"] == (0, 400)  # the board's own read path
    assert figures["Box.serve() loop on UsbSerial"] == (0, 400)  # the loop main.py runs
    with capsys.disabled():
        summary = ", ".join(f"{k} {u / n:g} B/iter" for k, (u, n) in figures.items())
        print(f"\nMicroPython 1.27 heap allocation: {summary}")
