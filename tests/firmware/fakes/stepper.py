"""Replays golden-transcript steps into a box on fake hardware, on CPython or MicroPython.

Step syntax (tests/firmware/golden/session.txt):
  @ <ms>                the box's clock; the box ticks every TICK_MS on the way, as on the board
  H> <line>             sent to the box verbatim
  ! press N [M...]      seat buttons down (release: up)
  ! reboot              a fresh box, as after a reset
`D> <line>` (what the box must answer), `#` comments and blank lines are not inputs. After
each input the box ticks at the current time until it has read all input; `step()` returns
the lines it wrote. Boot nonces are fixed (BOOT_NONCES, one per boot), so the output is too.
"""

import board
import machine
import pins
from fakeport import FakePort

BOOT_NONCES = ("b0070001", "b0070002", "b0070003")


class Stepper:
    """A box built by board.make_box on fake pins and a FakePort, driven step by step."""

    def __init__(self):
        self.now = 0
        self.boots = 0
        self.port = FakePort()
        self.box = self._boot()

    def _boot(self):
        """All buttons up, a new box on the same port."""
        machine.reset_pins()
        self.boots += 1
        return board.make_box(port=self.port, boot=BOOT_NONCES[self.boots - 1])

    def step(self, text):
        """Apply one transcript line; return the device lines it caused (str, no newline)."""
        if text.startswith("H> "):
            self.port.feed(text[3:] + "\n")
        elif text.startswith("@ "):
            target = int(text[2:])
            t = self.now + self.box.TICK_MS
            while t < target:
                self.box.tick(t)
                t += self.box.TICK_MS
            self.now = target
        elif text == "! reboot":
            self.box = self._boot()
        elif text.startswith("! press ") or text.startswith("! release "):
            words = text[2:].split()
            for seat in words[1:]:
                gpio = pins.BUTTONS[int(seat) - 1]
                if words[0] == "press":
                    machine.press(gpio)
                else:
                    machine.release(gpio)
        elif text.startswith("!"):
            raise ValueError("unknown action: " + text)
        else:
            return []
        self.box.tick(self.now)
        while self.port.waiting():  # a long input takes a few reads, as on the board
            self.box.tick(self.now)
        return self.port.take_lines()
