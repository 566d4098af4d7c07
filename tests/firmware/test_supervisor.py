"""The supervisor: a loop that raises shows the fault pattern, then a fresh box runs."""

import board
import frame as F
import machine
from fakeport import FakePort
from supervisor import Supervisor


class Clock:
    """A clock the supervisor's pauses move on."""

    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


def quick(sup, clock):
    """No real sleeping: a pause moves the fake clock."""

    def pause(ms):
        clock.now += ms

    sup.pause = pause
    return sup


def test_a_loop_that_raises_shows_the_fault_and_a_new_box_starts():
    clock, wdt, port = Clock(), machine.WDT(), FakePort()
    boxes, frames = [], []

    def make_box():
        box = board.make_box(port=port, wdt=wdt)
        boxes.append(box)
        return box

    def run_box(box):
        if len(boxes) == 1:
            box.tick(0)
            raise RuntimeError("a bug in the loop")
        box.running = False  # the second box runs until STOP

    sup = quick(Supervisor(make_box, wdt=wdt, run_box=run_box, clock=clock), clock)
    shown = sup.show_fault

    def record(box, now):
        shown(box, now)
        frames.append(bytes(box.strip._np.buf))

    sup.show_fault = record
    assert sup.run() is boxes[1] and sup.faults == 1
    assert len(frames) == Supervisor.FAULT_MS // Supervisor.FAULT_STEP_MS
    orange = boxes[0].frame.colour(F.C_FAULT)
    grb = bytes((orange[1], orange[0], orange[2]))
    first, second = frames[0], frames[Supervisor.FAULT_STEP_MS * 5 // Supervisor.FAULT_STEP_MS]
    assert first[0:3] == grb and first[3:6] == b"\0\0\0"  # odd and even pixels in turn
    assert second[0:3] == b"\0\0\0" and second[3:6] == grb
    assert wdt.feeds >= len(frames)  # fed while it shows the fault
    assert boxes[0].boot != boxes[1].boot  # the host sees a restart


def test_faults_in_a_row_reset_the_board():
    clock = Clock()
    resets = []

    def run_box(box):
        if len(resets) < 1:
            raise ValueError("again")
        box.running = False

    sup = Supervisor(
        lambda: board.make_box(port=FakePort()),
        reset=lambda: resets.append(clock.now),
        run_box=run_box,
        clock=clock,
    )
    quick(sup, clock)
    sup.run()
    assert len(resets) == 1 and sup.faults == Supervisor.MAX_FAULTS


def test_a_box_that_stops_cleanly_is_returned_at_once():
    def run_box(box):
        box.running = False

    sup = Supervisor(lambda: board.make_box(port=FakePort()), run_box=run_box)
    assert sup.run().running is False and sup.faults == 0


def test_board_run_starts_the_watchdog_and_gives_it_half_an_hour_after_stop(monkeypatch):
    """docs/protocol.md "STOP": the REPL and a firmware copy may take many soft resets, which
    stop timers; the watchdog's own timeout carries across them."""
    made = []
    monkeypatch.setattr(
        board.machine, "WDT", lambda timeout: made.append(FakeWdt(timeout)) or made[-1]
    )

    def run(self):
        assert [wdt.timeout for wdt in made] == [board.WDT_MS]  # the box runs on 5 s
        return None

    monkeypatch.setattr(board.Supervisor, "run", run)
    board.run()
    assert [wdt.timeout for wdt in made] == [board.WDT_MS, board.STOPPED_WDT_MS]
    assert board.STOPPED_WDT_MS == 30 * 60 * 1000 and made[-1].feeds == 1


def test_a_box_that_cannot_be_built_is_a_fault_too_not_a_drop_to_the_repl():
    """Issue 25: make_box ran outside the try; its failure left the supervisor for the REPL,
    where the watchdog resets the board over and over with nothing shown."""
    clock, wdt, port = Clock(), machine.WDT(), FakePort()
    attempts = []

    def make_box():
        attempts.append(clock.now)
        if len(attempts) == 1:
            raise OSError("the strip's pin would not start")
        return board.make_box(port=port, wdt=wdt)

    def run_box(box):
        box.running = False

    fed = []
    wdt.feed = lambda: fed.append(clock.now)
    sup = quick(Supervisor(make_box, wdt=wdt, run_box=run_box, clock=clock), clock)
    box = sup.run()
    assert sup.faults == 1 and len(attempts) == 2 and box is not None
    assert attempts[1] - attempts[0] >= Supervisor.FAULT_MS  # the watchdog fed meanwhile
    assert len(fed) == Supervisor.FAULT_MS // Supervisor.FAULT_STEP_MS


class FakeWdt:
    """machine.WDT that remembers its timeout and counts feeds."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.feeds = 0

    def feed(self):
        self.feeds += 1
