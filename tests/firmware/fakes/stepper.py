"""Replays golden-transcript steps into a box on fake hardware, on CPython or MicroPython.

Step syntax (tests/firmware/golden/session.txt):
  @ <ms>                the box's clock
  H> <line>             sent to the box verbatim
  ! press N [M...]      seat buttons down (release: up)
  ! reboot              a fresh box, as after a reset
`D> <line>` (what the box must answer), `#` comments and blank lines are not inputs. After
each input the box ticks at the current time until it has read all input; `step()` returns
the lines it wrote.
"""

import board
import machine
import pins
from fakeport import FakePort


class Stepper:
    """A box built by board.make_box on fake pins and a FakePort, driven step by step."""

    def __init__(self):
        self.now = 0
        self.port = FakePort()
        self.box = self._boot()

    def _boot(self):
        """All buttons up, a new box on the same port."""
        machine.reset_pins()
        return board.make_box(port=self.port)

    def step(self, text):
        """Apply one transcript line; return the device lines it caused (str, no newline)."""
        if text.startswith("H> "):
            self.port.feed(text[3:] + "\n")
        elif text.startswith("@ "):
            self.now = int(text[2:])
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
