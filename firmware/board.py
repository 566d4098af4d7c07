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
