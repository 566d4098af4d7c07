"""Benchmark: table box latencies through the simulator, and firmware allocations in MicroPython.

Run from the repository root:  .venv/bin/python -m bench.bench_device
Prints, in one run (see bench/README.md):
  host SET -> LED frame changed in the firmware (simulator), p50/p99, as a ratio to a raw
    pseudo-terminal round trip of the same byte count;
  app write -> LED frame, and button press -> state visible through the app's API (p99);
  heap allocated per loop iteration of the firmware under real MicroPython (target 0);
  recovery time p99 over the fault suite (tests/device/test_fault_suite.py: fault over ->
    the LEDs show the app's state again; the issue's bound is 3 s).
"""

import os
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

from companion_app import create_app
from companion_app.bridge.appclient import AppClient
from companion_app.bridge.detect import open_port
from companion_app.bridge.driver import Bridge
from companion_app.bridge.link import Link
from companion_app.server.serve import Background
from companion_app.simulator.box import Simulator
from tests.device.liveapp import Razzia, wait_until

REPO = Path(__file__).resolve().parents[1]
SAMPLES = 300  # SET commands and raw round trips
APP_SAMPLES = 200  # app writes and button presses
HEAD_START_S = 0.02  # the long poll is parked in the app before the button goes down
WAIT_S = 2.0
NODE_TIMEOUT_S = 60
FAULT_TIMEOUT_S = 300
STEADY = ("render+buttons", "tick between heartbeats", "UsbSerial read", "Box.serve() loop")


def percentile(samples, pct):
    """The pct-th percentile (nearest rank) of samples, in ms."""
    ordered = sorted(samples)
    return 1000 * ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


class FrameWatch:
    """The simulator's on_frame hook: the latest frame and when the firmware sent it."""

    def __init__(self):
        self.cond = threading.Condition()
        self.count = 0
        self.stamp = 0.0

    def __call__(self, _frame, stamp):
        with self.cond:
            self.count, self.stamp = self.count + 1, stamp
            self.cond.notify_all()

    def after(self, count):
        """The stamp of the first frame after frame number `count`."""
        with self.cond:
            if not self.cond.wait_for(lambda: self.count > count, WAIT_S):
                raise RuntimeError("the box drew no new frame")
            return self.stamp


def set_latencies(sim, watch):
    """Host SET (full display state) written -> the firmware's next frame, over the pty."""
    port = open_port(sim.path, 0.05)
    link = Link(port.write)
    stop = threading.Event()

    def reader():
        """Feed the link and keep its timers."""
        while not stop.is_set():
            link.data_received(port.read(port.in_waiting or 1))
            link.poll()

    thread = threading.Thread(target=reader)
    thread.start()
    link.start()
    wait_until(lambda: link.ready, WAIT_S)
    samples, sizes = [], []
    try:
        for i in range(SAMPLES):
            payload = f"police={i % 7} limit=7 round=1 rounds=3 seats=4"
            seen = watch.count
            start = time.perf_counter()
            link.command("SET", payload)
            samples.append(watch.after(seen) - start)
            sizes.append(len(f"{i} SET {payload} *00000000\n"))
    finally:
        stop.set()
        thread.join()
        port.close()
    return samples, round(statistics.mean(sizes))


def raw_round_trips(size):
    """`size` bytes written to a raw pty, echoed by a thread on the master, read back."""
    master, slave = os.openpty()
    tty.setraw(slave)
    port = open_port(os.ttyname(slave), 1.0)
    stop_r, stop_w = os.pipe()

    def echo():
        """Send back whatever arrives on the master."""
        while True:
            ready, _, _ = select.select([master, stop_r], [], [])
            if stop_r in ready:
                return
            os.write(master, os.read(master, 4096))

    thread = threading.Thread(target=echo)
    thread.start()
    data = b"x" * (size - 1) + b"\n"
    samples = []
    try:
        for _ in range(SAMPLES):
            start = time.perf_counter()
            port.write(data)
            port.read(size)
            samples.append(time.perf_counter() - start)
    finally:
        os.write(stop_w, b"x")
        thread.join()
        port.close()
        for fd in (master, slave, stop_r, stop_w):
            os.close(fd)
    return samples


class App:
    """The real app served in a thread (as `companion serve` runs it with a bridge)."""

    def __init__(self, instance):
        self.app = create_app(instance_path=instance)
        self.server = Background(self.app, threads=8).__enter__()
        self.url = self.server.url
        self.live = self  # what the Razzia helper calls

    def ok(self, method, path, body=None):
        """The JSON of a request that must succeed (keep-alive connection per thread)."""
        status, answer = self._client().request(method, path, body)
        if status >= 300:
            raise RuntimeError(f"{method} {path}: {status} {answer}")
        return answer

    def _client(self):
        """This thread's JSON client."""
        local = self.__dict__.setdefault("_local", threading.local())
        if not hasattr(local, "client"):
            local.client = AppClient(self.url, timeout=30)
        return local.client

    def close(self):
        """Stop serving."""
        self.server.__exit__(None, None, None)


def app_write_latencies(app, game, watch):
    """Reveal armed/disarmed -> the box's next frame; and the write's own HTTP time."""
    shown, written = [], []
    for i in range(APP_SAMPLES):
        seen = watch.count
        start = time.perf_counter()
        if i % 2:
            app.ok("DELETE", f"/api/tables/{game.id}/reveal")
        else:
            app.ok("POST", f"/api/tables/{game.id}/reveal", {"seats": [0, 1, 2, 3]})
        written.append(time.perf_counter() - start)
        shown.append(watch.after(seen) - start)
    return shown, written


def press_latencies(app, game, sim):
    """Seat button down -> a long poll on the app's device view sees the seat locked."""
    samples = []
    path = f"/api/tables/{game.id}/device"
    while len(samples) < APP_SAMPLES:
        view = app.ok("POST", f"/api/tables/{game.id}/reveal", {"seats": [0, 1, 2, 3]})
        wait_until(lambda: sim.leds().seat_px[:4] == ["armed"] * 4, WAIT_S)
        for seat in range(4):
            pressed = []
            timer = threading.Timer(HEAD_START_S, press, args=(sim, seat, pressed))
            timer.start()
            view = app.ok("GET", f"{path}?wait={view['etag']}")
            done = time.perf_counter()
            timer.join()
            if seat not in view["reveal"]["locked"]:
                raise RuntimeError(f"the long poll woke without seat {seat}: {view}")
            samples.append(done - pressed[0])
            sim.release(seat + 1)
    return samples


def press(sim, seat, out):
    """Press a seat button (0-based) and note when."""
    out.append(time.perf_counter())
    sim.press(seat + 1)


def bare_get_latencies(app, game):
    """A plain GET of the device view, for scale."""
    samples = []
    for _ in range(APP_SAMPLES):
        start = time.perf_counter()
        app.ok("GET", f"/api/tables/{game.id}/device")
        samples.append(time.perf_counter() - start)
    return samples


def micropython_allocations():
    """(label, bytes, iterations) from tests/firmware/mp_alloc.py under the MicroPython runner."""
    command = ["node", "tests/firmware/mp_runner.mjs", "run", "tests/firmware/mp_alloc.py"]
    try:
        done = subprocess.run(
            command, cwd=REPO, capture_output=True, text=True, timeout=NODE_TIMEOUT_S, check=True
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"{exc}; run `bash scripts/setup-firmware-tests.sh` first"
    rows = []
    for line in done.stdout.splitlines():
        if line.startswith("ALLOC "):
            words = line.split()
            rows.append((" ".join(words[1:-2]), int(words[-2]), int(words[-1])))
    return rows, ""


def fault_recovery():
    """(p99 line, table lines) from running the fault suite, or (None, why)."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command.append("tests/device/test_fault_suite.py")
    try:
        done = subprocess.run(
            command, cwd=REPO, capture_output=True, text=True, timeout=FAULT_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, str(exc)
    lines = done.stdout.splitlines()
    p99 = [line for line in lines if line.startswith("recovery p99")]
    if done.returncode or not p99:
        return None, f"the fault suite failed: {lines[-1] if lines else done.stderr}"
    header = next(i for i, line in enumerate(lines) if "presses sent/registered" in line)
    return p99[0].split()[-2], lines.index(p99[0]) - header - 1


def row(label, ratio, raw):
    """One printed line."""
    print(f"{label:48} {ratio:>7}   {raw}")


def report_latencies(sets, size, raw, writes, presses, gets):
    """The latency rows."""
    print(f"{'measure':48} {'ratio':>7}   raw")
    for pct in (50, 99):
        s, r = percentile(sets, pct), percentile(raw, pct)
        row(
            f"host SET -> LED frame p{pct} / raw pty round trip",
            f"{s / r:.2f}",
            f"{s:.2f} vs {r:.2f} ms ({size} B)",
        )
    shown, written = writes
    for pct in (50, 99):
        w, h = percentile(shown, pct), percentile(written, pct)
        row(
            f"app write -> LED frame p{pct} / the write's HTTP",
            f"{w / h:.2f}",
            f"{w:.2f} vs {h:.2f} ms",
        )
    for pct in (50, 99):
        p, g = percentile(presses, pct), percentile(gets, pct)
        row(f"button press -> app API p{pct} / bare GET", f"{p / g:.1f}", f"{p:.2f} vs {g:.2f} ms")


def report_allocations(rows, why):
    """The MicroPython allocation rows."""
    if rows is None:
        row("firmware allocations (MicroPython)", "-", f"skipped: {why}")
        return
    for label, used, iterations in rows:
        steady = label.startswith(STEADY)
        name = f"alloc/{'iteration' if steady else 'event'}: {label}"
        row(name[:48], f"{used / iterations:.0f} B", f"{used} B over {iterations}")


def main():
    """Run everything once and print the table."""
    watch = FrameWatch()
    with tempfile.TemporaryDirectory() as instance:
        with Simulator(on_frame=watch) as sim:
            sets, size = set_latencies(sim, watch)
        raw = raw_round_trips(size)
        app = App(instance)
        sim = Simulator(on_frame=watch).start()
        bridge = Bridge(app.url, lambda: sim.path, mode="simulator").start()
        try:
            game = Razzia(app.live)
            wait_until(lambda: sim.leds().shows(0, 7, 1), WAIT_S)
            writes = app_write_latencies(app, game, watch)
            presses = press_latencies(app, game, sim)
            gets = bare_get_latencies(app, game)
        finally:
            bridge.stop()
            sim.stop()
            app.close()
    rows, why = micropython_allocations()
    p99, faults = fault_recovery()
    report_latencies(sets, size, raw, writes, presses, gets)
    report_allocations(rows, why)
    if p99 is None:
        row("fault recovery p99 (fault suite)", "-", f"skipped: {faults}")
    else:
        row("fault recovery p99 (fault suite)", f"{p99} ms", f"over {faults} faults, bound 3000 ms")


if __name__ == "__main__":
    main()
