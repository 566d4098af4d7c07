"""The box's clock on the host's: when, on this computer's clock, the box did something.

The box stamps its HB and PRESS lines with its ticks_ms (`t=`, docs/protocol.md); an HB's
is its clock as it sent the line, so HBs are the samples (a PRESS's is when the seat locked,
and its retries repeat it). A line reaches the host some time after the box sent it: the
wire (115200 baud), USB, and this process's threads, which a busy machine may hold up for
tens of milliseconds. The host's arrival time minus `t` is the clocks' offset plus that
delay, so the smallest of the recent ones (the line that crossed fastest) is the offset plus
the least delay; a PRESS's `t` plus it is when the box locked the seat, however late the
line was read.
"""

from collections import deque

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps at 2**30 ms
SAMPLES = 30  # the last lines weighed (HB every second: half a minute)


class BoxClock:
    """Maps the box's ticks_ms to the host's clock (seconds) from lines stamped `t=`."""

    def __init__(self):
        self._offsets = deque(maxlen=SAMPLES)  # host ms - box ms (unwrapped), per line
        self._last = None  # the last box tick seen, unwrapped
        self._wraps = 0

    def reset(self):
        """The box restarted: its ticks began again."""
        self._offsets.clear()
        self._last = None
        self._wraps = 0

    def _unwrapped(self, ticks):
        """`ticks` counted on from the ones before (across the 2**30 wrap)."""
        value = ticks + self._wraps * TICKS_PERIOD
        if self._last is not None and self._last - value > TICKS_PERIOD // 2:
            self._wraps += 1
            value += TICKS_PERIOD
        return value

    @property
    def known(self):
        """True once a heartbeat gave the box's clock."""
        return bool(self._offsets)

    def heard(self, ticks, at):
        """A line the box stamped `ticks` arrived at `at` (host seconds)."""
        box_ms = self._unwrapped(ticks)
        self._last = box_ms if self._last is None else max(self._last, box_ms)
        self._offsets.append(at * 1000 - box_ms)

    def host_time(self, ticks):
        """When the box's `ticks` was on the host's clock (seconds); None before any line."""
        if not self._offsets:
            return None
        box_ms = ticks + self._wraps * TICKS_PERIOD
        if self._last is not None and box_ms - self._last > TICKS_PERIOD // 2:
            box_ms -= TICKS_PERIOD  # a tick from just before the last wrap
        return (box_ms + min(self._offsets)) / 1000
