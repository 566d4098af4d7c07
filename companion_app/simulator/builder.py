"""The simulator's eyes, hands and ears for `companion device check` (bridge/check.py).

It answers the check's questions from what the simulated strip really shows, presses the
simulated buttons, and listens to the simulated piezo; so a LED or button broken with
`break_led()` / `break_button()` fails the check as it would for a builder at a real box.
"""

import threading
import time

from companion_app.bridge.check import Builder

#: The check's colours as the LED view names them (simulator/leds.py).
SHOWN_AS = {"red": "red", "amber": "now", "blue": "armed", "green": "locked"}


class SimulatedBuilder(Builder):
    """Looks at `sim`'s strip, presses its buttons, hears its piezo."""

    press_timeout_s = 3.0  # a simulated press reaches the host in ms
    LOOK_S = 1.0  # how long an LED is looked at before "no"
    HOLD_S = 0.08  # a firm press (the firmware needs two polls 5 ms apart)...
    HOLD_MAX_S = 1.0  # ...held until the seat's LED shows it counted, as a finger would

    def __init__(self, sim, clock=time.monotonic):
        self.sim = sim
        self.clock = clock
        self.said = []

    def say(self, text):
        self.said.append(text)

    def sees(self, led, colour):
        """True once the pixel shows `colour` (looked at for up to LOOK_S)."""
        want = SHOWN_AS[colour]
        return (
            self.sim.wait_leds(lambda view: view.names[led.index] == want, self.LOOK_S) is not None
        )

    def press(self, seat):
        """Press the seat's button and release it once its LED shows the press (meanwhile the
        check listens): a loaded machine may run the simulated board late, and a press it
        never saw down is no press; when it went down."""
        down = self.clock()
        self.sim.press(seat)
        threading.Thread(target=self._release, args=(seat,), daemon=True).start()
        return down

    def _release(self, seat):
        """Let go after HOLD_S, or once the seat no longer shows "armed" (HOLD_MAX_S at most)."""
        time.sleep(self.HOLD_S)
        self.sim.wait_leds(lambda view: view.seat_px[seat - 1] != "armed", self.HOLD_MAX_S)
        self.sim.release(seat)

    def heard_beep(self, since):
        """True if the piezo sounded since `since`; None when this engine has no piezo."""
        beeps = getattr(self.sim, "beeps", None)
        if beeps is None:
            return None
        return any(when >= since for when, _ in beeps)
