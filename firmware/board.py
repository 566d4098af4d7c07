"""Builds the box from the real pins (pins.py) and runs it: the only module that opens hardware."""

import machine
import neopixel
import pins
from box import Box
from buttons import Buttons
from piezo import Piezo
from strip import Strip
from supervisor import Supervisor

WDT_MS = 5000  # the loop feeds the watchdog every tick; stuck this long, the board resets
#: After STOP the watchdog waits this long (30 min) before it resets the board into the box
#: again: time for the REPL and a firmware copy, however many soft resets they make.
STOPPED_WDT_MS = 30 * 60 * 1000


def make_box(port=None, piezo=True, boot=None, wdt=None):
    """A Box on the board's strip, buttons, optional piezo and USB serial (or `port`)."""
    np = neopixel.NeoPixel(machine.Pin(pins.LED_DATA, machine.Pin.OUT), pins.LED_COUNT)
    keys = [machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP) for gpio in pins.BUTTONS]
    beeper = None
    if piezo and pins.PIEZO >= 0:
        beeper = Piezo(machine.PWM(machine.Pin(pins.PIEZO), freq=Piezo.TICK_HZ, duty_u16=0))
    if port is None:
        from usbserial import UsbSerial

        port = UsbSerial()
    uid = "".join(f"{b:02x}" for b in machine.unique_id())
    return Box(
        Strip(np), Buttons(keys), port, uid=uid, piezo=beeper, board=pins.BOARD, boot=boot, wdt=wdt
    )


WIRED_FOR = "ESP32"  # the chip hardware/pinout.json is for: the classic ESP32 of a DevKitC


def chip(machine_text=None):
    """The chip MicroPython says it runs on ("ESP32", "ESP32S3", ...), or "" if it does not."""
    if machine_text is None:
        import os

        uname = getattr(os, "uname", None)  # every ESP32 port has it; a test build may not
        machine_text = uname().machine if uname else ""  # "Generic ESP32S3 module with ESP32S3"
    mark = machine_text.rfind(" with ")
    return machine_text[mark + 6 :].strip() if mark >= 0 else ""


def wired_for_this_chip(machine_text=None):
    """False on another ESP32 family member (S2, S3, C3...): there GPIO 26-32 of our pinout
    are flash and PSRAM pins, so the box must not touch them; it says so on the serial line."""
    found = chip(machine_text)
    if not found.startswith(WIRED_FOR) or found == WIRED_FOR:
        return True
    print(
        "The box's firmware is wired for an ESP32 DevKitC (hardware/pinout.json); this board"
        f" is an {found}, whose GPIO 26-32 are flash pins. The box does not start."
    )
    return False


def safe_mode():
    """True while seat 1's button is held: boot to the REPL instead of the box."""
    return machine.Pin(pins.BUTTONS[0], machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def run():
    """Run boxes under the supervisor and a watchdog until the host sends STOP (blocks)."""
    wdt = machine.WDT(timeout=WDT_MS)
    Supervisor(lambda: make_box(wdt=wdt), wdt=wdt, reset=machine.reset).run()
    hold_watchdog()


def hold_watchdog():
    """After STOP: give the watchdog (it cannot be stopped) STOPPED_WDT_MS.

    Not a timer that feeds it: mpremote's first command soft-resets the board, which stops
    every machine.Timer but not the watchdog, so the copy would be cut off 5 s later. A new
    machine.WDT() is the same watchdog with a new timeout, and a soft reset keeps it.
    `mpremote reset` or a power cycle brings the box back at once."""
    machine.WDT(timeout=STOPPED_WDT_MS).feed()
