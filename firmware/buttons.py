"""Seat buttons: a level seen on two polls in a row counts, bounce is ignored, nothing allocated.

Each button is a momentary switch from a GPIO to GND with the internal pull-up on, so a
pressed button reads 0. Polled from the box's loop every TICK_MS (5 ms; no IRQ needed: a
press lasts tens of ms). A press counts on the second low poll in a row (about 5 ms after the
edge), so a one-poll glitch (EMI on a long button wire) is no press. After an accepted change
the contact may bounce for BOUNCE_MS; a release then needs two high polls in a row too. A quick
human re-press (release and press again within 30-60 ms) is therefore a second press.
A button already down when the Buttons are made (or when a reveal is armed: the box only reacts
to presses, never to a level) counts only once it has been released and pressed again.
"""

from compat import ticks_diff


class Buttons:
    """Debounced, active-low buttons on already configured input pins (seat 1 first)."""

    BOUNCE_MS = 15  # after an accepted press or release, contact bounce is ignored this long
    CONFIRM = 2  # polls in a row that must agree before a new level is accepted

    def __init__(self, pins):
        self._pins = pins
        count = len(pins)
        self._down = bytearray(count)  # accepted state, 1 = pressed
        self._agree = bytearray(count)  # polls in a row that read the other level
        self._edge = [0] * count  # tick of the last accepted change
        self._quiet = bytearray(count)  # 1 once BOUNCE_MS passed since that change
        for i in range(count):
            self._quiet[i] = 1
            self._down[i] = 1 if pins[i].value() == 0 else 0
        self.count = count

    def poll(self, now: int) -> int:
        """Bit i set in the result: seat i+1's press was accepted at this poll."""
        pressed = 0
        pins = self._pins
        for i in range(self.count):
            if not self._quiet[i]:
                if ticks_diff(now, self._edge[i]) < self.BOUNCE_MS:
                    continue
                self._quiet[i] = 1
            raw = 1 if pins[i].value() == 0 else 0
            if raw == self._down[i]:
                self._agree[i] = 0
                continue
            self._agree[i] += 1
            if self._agree[i] < self.CONFIRM:
                continue
            self._agree[i] = 0
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
