"""main.py on the board: Ctrl-C off while the box runs, back on after; safe mode skips the box."""

import subprocess
import sys

import pytest

from .conftest import FAKES, FIRMWARE

SCRIPT = """
import sys, types
calls = []
micropython = types.ModuleType("micropython")
micropython.kbd_intr = lambda c: calls.append(("kbd_intr", c))
sys.modules["micropython"] = micropython
import board, machine, pins
board.run = lambda: calls.append(("run",))
if {held}:
    machine.press(pins.BUTTONS[0])
exec(open({main!r}).read())
print(calls)
"""


@pytest.mark.parametrize(
    ("held", "calls"),
    [
        (False, "[('kbd_intr', -1), ('run',), ('kbd_intr', 3)]"),
        (True, "[]"),
    ],
)
def test_main_turns_ctrl_c_off_around_the_box_unless_seat_1_is_held(held, calls):
    code = SCRIPT.format(held=held, main=str(FIRMWARE / "main.py"))
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": f"{FAKES}:{FIRMWARE}"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == calls
