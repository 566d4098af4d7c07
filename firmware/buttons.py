"""Seat buttons: react to the first edge, ignore bounce for a short window, allocate nothing.

Each button is a momentary switch from a GPIO to GND with the internal pull-up on, so a
pressed button reads 0. Polled from the box's loop every few ms (no IRQ needed: a press lasts
tens of ms). The first edge counts at once, so a reveal press feels instant; further edges on
that button within DEBOUNCE_MS are contact bounce and are ignored.
"""

from compat import ticks_diff


class Buttons:
    """Debounced, active-low buttons on already configured input pins (seat 1 first)."""

    DEBOUNCE_MS = 50

    def __init__(self, pins):
        self._pins = pins
        count = len(pins)
        self._down = bytearray(count)  # debounced state, 1 = pressed
        self._edge = [0] * count  # tick of the last accepted edge
        self._quiet = bytearray(count)  # 1 once DEBOUNCE_MS passed since that edge
        for i in range(count):
            self._quiet[i] = 1
            self._down[i] = 1 if pins[i].value() == 0 else 0
        self.count = count

    def poll(self, now: int) -> int:
        """Bit i set in the result: seat i+1 went down at this poll (first edge of a press)."""
        pressed = 0
        pins = self._pins
        for i in range(self.count):
            if not self._quiet[i]:
                if ticks_diff(now, self._edge[i]) < self.DEBOUNCE_MS:
                    continue
                self._quiet[i] = 1
            raw = 1 if pins[i].value() == 0 else 0
            if raw != self._down[i]:
                self._down[i] = raw
                self._edge[i] = now
                self._quiet[i] = 0
                if raw:
                    pressed |= 1 << i
        return pressed

    def is_down(self, seat_index: int) -> bool:
        """Debounced state of one button (0-based)."""
        return self._down[seat_index] == 1

    def deinit(self) -> None:
        """Forget the pins (they stay inputs with pull-ups, which is safe)."""
        self._pins = ()
        self.count = 0
