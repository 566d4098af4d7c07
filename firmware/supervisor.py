"""Keeps the box alive: runs its loop; after an exception shows the fault and starts a new box.

A box whose loop died must not look alive (a frozen strip, the REPL on the UART): the
supervisor prints the traceback (the host discards it as noise), blinks the fault pattern
(odd and even pixels orange in turn, `Frame.render_fault`) for FAULT_MS while feeding the
watchdog, then builds a fresh box, which says HELLO with a new boot nonce so the host sends
the whole state again.

A state of the app's that makes the box's code raise would loop it so (issue 34): after
GUARD_FAULTS faults within GUARD_WINDOW_MS the fresh box is held (`Box.hold`): it refuses the
commands that were in force or being applied (NAK err=fault), shows the box-fault pattern and
tells the host the exception's text in every HB, until a state that does not raise clears it.
Faults in a row still too often: a hard reset, as the watchdog would do. Reporting a fault
must survive the MemoryError that may have caused it: the fault times live in a list made
once, every step is caught, and a text that cannot be built is a fixed one (boxfault.py).
"""

from boxfault import UNKNOWN, describe
from compat import print_exception, ticks_diff, ticks_ms


def _serve(box) -> None:
    """The board's way: the box's loop until it returns (STOP) or raises."""
    import time

    box.serve(time.sleep_ms)  # type: ignore[attr-defined]  # MicroPython's time has it


class Supervisor:
    """Runs `make_box()` boxes one after another until one stops cleanly (the host's STOP)."""

    FAULT_MS = 2000  # the fault pattern shows this long before the loop restarts
    FAULT_STEP_MS = 50  # the fault pattern is redrawn (and the watchdog fed) this often
    GUARD_FAULTS = 3  # this many faults...
    GUARD_WINDOW_MS = 10000  # ...within this long: the next box holds back what raised
    MAX_FAULTS = 5  # this many faults...
    FAULT_WINDOW_MS = 60000  # ...within this long: reset the whole board

    def __init__(self, make_box, wdt=None, reset=None, run_box=_serve, clock=ticks_ms):
        self.make_box = make_box
        self.wdt = wdt
        self.reset = reset
        self.run_box = run_box
        self.clock = clock
        self.faults = 0
        self._times = [0] * self.MAX_FAULTS  # ticks of the last faults, newest first
        self.fault_text = UNKNOWN  # the last fault, as the box reports it (`fault=`)
        self.held: list[str] | None = None  # what the next box holds back, once guarded

    def run(self):
        """Run boxes until one returns (STOP); that box.

        Building the box is inside the `try` too: a failure there (a driver that will not
        start) must not drop to the REPL, where the watchdog would reset the board in a loop
        with nothing shown; it is a fault like any other, retried and counted."""
        while True:
            box = None
            try:
                box = self.make_box()
                if self.held is not None:
                    box.hold(self.fault_text, self.held)
                self.run_box(box)
            except Exception as exc:  # any bug in the loop: show it, then a fresh box
                try:
                    self.fault(box, exc)
                except Exception:  # reporting failed too (out of memory): show it plainly
                    self.show_for(box, self.clock())
                continue
            return box

    def fault(self, box, exc: Exception) -> None:
        """Report `exc`, hold back what raised if faults come often, show the fault pattern
        for FAULT_MS, reset if they come too often."""
        if self.held is not None and box is not None and box.fault is None:
            self.held = None  # that box had cleared its guard: a new state raised, start afresh
        self.faults += 1
        started = self.clock()
        times = self._times
        for i in range(len(times) - 1, 0, -1):  # in place: no allocation
            times[i] = times[i - 1]
        times[0] = started
        self.fault_text = describe(exc)
        try:
            print_exception(exc)
        except Exception:  # no memory for the traceback: the host gets `fault=` anyway
            pass
        if self._within(self.GUARD_FAULTS, self.GUARD_WINDOW_MS):
            self.held = self._held_state(box)
        if self._within(self.MAX_FAULTS, self.FAULT_WINDOW_MS) and self.reset is not None:
            self.reset()
        self.show_for(box, started)

    def _within(self, count: int, window_ms: int) -> bool:
        """True if the last `count` faults all came within `window_ms`."""
        if self.faults < count:
            return False
        return ticks_diff(self._times[0], self._times[count - 1]) < window_ms

    def _held_state(self, box) -> list[str]:
        """What the next box refuses: the commands in force when `box` raised (none if that
        cannot be told; the held box then tries every command before it applies it)."""
        held = self.held or []
        try:
            for text in box.held_state():
                if text not in held:
                    held.append(text)
        except Exception:  # no box (make_box failed), or no memory: hold what we have
            pass
        return held

    def show_for(self, box, started: int) -> None:
        """The fault pattern for FAULT_MS from `started`, the watchdog fed."""
        now = started
        while ticks_diff(now, started) < self.FAULT_MS:
            self.show_fault(box, now)
            self.pause(self.FAULT_STEP_MS)
            now = self.clock()

    def show_fault(self, box, now: int) -> None:
        """One frame of the fault pattern (none without a box); the watchdog is fed."""
        if self.wdt is not None:
            self.wdt.feed()
        if box is None:  # building the box failed: there is no strip to draw on
            return
        try:
            box.frame.render_fault(now)
            box.strip.show(box.frame.buf)
        except Exception as exc:  # the strip itself may be what failed
            try:
                print_exception(exc)
            except Exception:  # out of memory: the pattern matters, not the traceback
                pass

    def pause(self, ms: int) -> None:
        """Wait `ms` (blocking is fine: the loop is not running)."""
        import time

        time.sleep_ms(ms)  # type: ignore[attr-defined]  # MicroPython's time has it
