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


@pytest.mark.parametrize(
    ("machine_text", "wired"),
    [
        ("Generic ESP32 module with ESP32", True),
        ("ESP32 module (spiram) with ESP32", True),
        ("Generic ESP32S3 module with ESP32S3", False),
        ("ESP32C3 module with ESP32C3", False),
        ("linux [GCC 12.2.0] version", True),  # not an ESP32 at all: the simulator, a PC
    ],
)
def test_the_box_starts_only_on_the_chip_its_pinout_is_for(machine_text, wired, capsys):
    """Issue 25: USB id 0x303A also matches ESP32-S3 boards, where GPIO 26-32 (four of our
    seat buttons) are flash pins: the box must not configure them there."""
    import board

    assert board.wired_for_this_chip(machine_text) is wired
    said = capsys.readouterr().out
    assert ("GPIO 26-32 are flash pins" in said) is not wired


def test_main_touches_no_pin_on_an_s3():
    script = SCRIPT.replace(
        "import board, machine, pins",
        "import board, machine, pins\nboard.chip = lambda machine_text=None: 'ESP32S3'",
    ).replace("board.run = lambda", "machine.Pin = None\nboard.run = lambda")
    code = script.format(held=False, main=str(FIRMWARE / "main.py"))
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": f"{FAKES}:{FIRMWARE}"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip().endswith("[]") and "ESP32S3" in out.stdout
