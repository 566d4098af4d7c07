"""The fault suite's rig: the live app, a simulated box, a man-in-the-middle, the bridge.

tests/device/test_fault_suite.py drives it; every test adds a row (fault, recovery, presses
sent/registered) to ROWS, printed as one table at the end of the suite.
"""

from companion_app.bridge.driver import Bridge
from companion_app.simulator import micropython as mpsim
from tests.device.faults import Mitm
from tests.device.liveapp import Razzia
from tests.device.play import RECOVER_S, assert_each_press_once, assert_recovers, tap, wait_locked

SEATS = [0, 1, 2, 3]  # app seats (0-based); the box numbers them 1..4
ARMED_S = 5.0  # ARM reaches the box through the damage (retries every 300 ms)
LOCKED_S = 10.0  # presses reach the app through the damage (box retries every 500 ms)
TAP_S = 0.1  # a firm press: two polls of the box (5 ms apart) need 10 ms
SEEN_S = 1.0  # a tap the box saw shows the seat locked within this long
ROWS = []  # (fault, recovery s, presses sent, registered, note, engine) for the table
#: A DevKitC's boot from reset to the firmware's first line, estimated in hardware/README.md
#: ("Boot time"): ROM, bootloader and MicroPython about 0.7 s, compiling the 46 KB of .py
#: 0.25-0.5 s. The simulated board waits this long before main.py (its own start comes on top).
REAL_BOOT_MS = 1200


def print_table(reporter):
    """The rows (a failed test adds none: the table says which ran), the p99 of recoveries."""
    engine = ROWS[0][5]
    reporter.write_line("")
    reporter.write_line(f"fault suite on {engine}: recovery = fault over -> LEDs show the app")
    reporter.write_line(f"{'fault':44} {'recovery':>9} {'presses sent/registered':>24}")
    for fault, recovery, sent, taken, note, _ in ROWS:
        counts = f"{sent}/{taken}" + (f" ({note})" if note else "")
        reporter.write_line(f"{fault:44} {recovery * 1000:7.0f} ms {counts:>24}")
    ordered = sorted(row[1] for row in ROWS)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    reporter.write_line(f"{'recovery p99':44} {p99 * 1000:7.0f} ms")


class Rig:
    """The live app, a simulated box, the man-in-the-middle and the bridge through it."""

    def __init__(self, live, to_box=None, from_box=None, boot_ms=0, engine="auto"):
        self.live = live
        self.sim = mpsim.make_simulator(engine, boot_ms=boot_ms).start()
        self.mitm = Mitm(self.sim.path, to_box, from_box)
        self.bridge = self.new_bridge()
        self.game = Razzia(live)
        self.taps = 0
        self.again = 0  # taps the box did not see (still armed): pressed again

    def new_bridge(self):
        """A bridge process of its own (a new host nonce, numbering from 1), started."""
        return Bridge(
            self.live.url, lambda: self.mitm.path, mode="simulator", report=self.live.status.update
        ).start()

    def tap(self, seat):
        """A press of seat `seat` (1-based) on the box; pressed again while the seat still
        shows "press" (armed), as a player would: on a loaded machine the simulator may apply
        the press and the release between two polls of the box, which is no press."""
        for _ in range(3):
            self.taps += 1
            tap(self.sim, seat, hold=TAP_S)
            if self.sim.wait_leds(lambda v: v.seat_px[seat - 1] != "armed", SEEN_S):
                return
            self.again += 1

    def armed(self, seats, timeout=ARMED_S):
        """Wait until the box shows these app seats armed (earlier presses are not reported)."""
        want = ["armed" if i in seats else "idle" for i in range(4)]
        assert self.sim.wait_leds(lambda v: v.seat_px[:4] == want, timeout), self.sim.leds()

    def reveal_round(self, rng):
        """Arm every seat, press them in a random order; the presses the app must take."""
        rid = self.game.arm(SEATS)
        self.armed(SEATS)
        for seat in rng.sample(SEATS, len(SEATS)):
            self.tap(seat + 1)
        assert wait_locked(self.game, SEATS, LOCKED_S), self.game.device()["reveal"]
        return [(rid, seat) for seat in SEATS]

    def shown(self):
        """Wait for the LEDs to show the app's state; seconds it took."""
        return assert_recovers(self.sim, self.game)

    def record(self, fault, recovery, expected, note="", bounded=True):
        """Check the presses and the recovery bound (unless not `bounded`: a row whose speed
        a benchmark holds), then add a row to the table."""
        assert_each_press_once(self.live, expected)
        assert not self.live.log.server_errors()
        assert recovery <= RECOVER_S or not bounded
        engine = self.sim.LABEL if self.sim.ENGINE == "micropython" else "CPython"
        if self.again:
            note = ", ".join(filter(None, [note, f"{self.again} unseen, pressed again"]))
        ROWS.append((fault, recovery, self.taps, len(self.live.log.taken()), note, engine))

    def close(self):
        """Stop the bridge, the man-in-the-middle and the box."""
        self.bridge.stop()
        self.mitm.close()
        self.sim.stop()
