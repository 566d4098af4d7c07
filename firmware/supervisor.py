"""Keeps the box alive: runs its loop; after an exception shows the fault and starts a new box.

A box whose loop died must not look alive (a frozen strip, the REPL on the UART): the
supervisor prints the traceback (the host discards it as noise), blinks the fault pattern
(odd and even pixels orange in turn, `Frame.render_fault`) for FAULT_MS while feeding the
watchdog, then builds a fresh box, which says HELLO with a new boot nonce so the host sends
the whole state again. Faults in a row too often: a hard reset, as the watchdog would do.
"""

from compat import print_exception, ticks_diff, ticks_ms


def _serve(box) -> None:
    """The board's way: the box's loop until it returns (STOP) or raises."""
    import time

    box.serve(time.sleep_ms)  # type: ignore[attr-defined]  # MicroPython's time has it


class Supervisor:
    """Runs `make_box()` boxes one after another until one stops cleanly (the host's STOP)."""

    FAULT_MS = 2000  # the fault pattern shows this long before the loop restarts
    FAULT_STEP_MS = 50  # the fault pattern is redrawn (and the watchdog fed) this often
    MAX_FAULTS = 5  # this many faults...
    FAULT_WINDOW_MS = 60000  # ...within this long: reset the whole board

    def __init__(self, make_box, wdt=None, reset=None, run_box=_serve, clock=ticks_ms):
        self.make_box = make_box
        self.wdt = wdt
        self.reset = reset
        self.run_box = run_box
        self.clock = clock
        self.faults = 0
        self._recent: list[int] = []  # ticks of the faults within FAULT_WINDOW_MS

    def run(self):
        """Run boxes until one returns (STOP); that box.

        Building the box is inside the `try` too: a failure there (a driver that will not
        start) must not drop to the REPL, where the watchdog would reset the board in a loop
        with nothing shown; it is a fault like any other, retried and counted."""
        while True:
            box = None
            try:
                box = self.make_box()
                self.run_box(box)
            except Exception as exc:  # any bug in the loop: show it, then a fresh box
                self.fault(box, exc)
                continue
            return box

    def fault(self, box, exc: Exception) -> None:
        """Report `exc`, show the fault pattern for FAULT_MS, reset if faults come too often."""
        print_exception(exc)
        self.faults += 1
        started = self.clock()
        self._recent = [t for t in self._recent if ticks_diff(started, t) < self.FAULT_WINDOW_MS]
        self._recent.append(started)
        if len(self._recent) >= self.MAX_FAULTS and self.reset is not None:
            self.reset()
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
            print_exception(exc)

    def pause(self, ms: int) -> None:
        """Wait `ms` (blocking is fine: the loop is not running)."""
        import time

        time.sleep_ms(ms)  # type: ignore[attr-defined]  # MicroPython's time has it
