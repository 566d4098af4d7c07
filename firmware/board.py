"""Builds the box from the real pins (pins.py) and runs it: the only module that opens hardware."""

import machine
import neopixel
import pins
from box import Box
from buttons import Buttons
from piezo import Piezo
from strip import Strip


def make_box(port=None, piezo=True):
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
    return Box(Strip(np), Buttons(keys), port, uid=uid, piezo=beeper, board=pins.BOARD)


def safe_mode():
    """True while seat 1's button is held: boot to the REPL instead of the box."""
    return machine.Pin(pins.BUTTONS[0], machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def run():
    """Run the box until the host sends STOP (blocks; the board's normal life)."""
    import asyncio

    asyncio.run(make_box().run())
