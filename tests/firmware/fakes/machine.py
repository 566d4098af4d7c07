"""Fake `machine` for the firmware tests, on CPython and under MicroPython in Node.

Pins share one table of levels, so a test (or the Node runner) presses a seat button with
`press(gpio)` and the firmware's Pin object reads 0. Reading allocates nothing.
"""

_levels = {}


class Pin:
    """A GPIO whose level lives in the shared table; pull-ups read 1 until pressed."""

    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        self.gpio = gpio
        self.mode = mode
        if pull == Pin.PULL_UP and gpio not in _levels:
            _levels[gpio] = 1
        if value is not None:
            _levels[gpio] = value

    def value(self, level=None):
        """Read the level, or drive it."""
        if level is None:
            return _levels.get(self.gpio, 0)
        _levels[self.gpio] = 1 if level else 0
        return None


def press(gpio):
    """Close the switch on `gpio` (to GND)."""
    _levels[gpio] = 0


def release(gpio):
    """Open the switch on `gpio` (the pull-up wins)."""
    _levels[gpio] = 1


def reset_pins():
    """Forget every level (between tests)."""
    _levels.clear()


class PWM:
    """Records frequency and duty instead of making a sound."""

    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16
        self.tones = 0  # beeps started

    def freq(self, value=None):
        """Get or set the frequency."""
        if value is None:
            return self._freq
        self._freq = value
        return None

    def duty_u16(self, value=None):
        """Get or set the duty; a rise from 0 counts as a tone."""
        if value is None:
            return self._duty
        if value and not self._duty:
            self.tones += 1
        self._duty = value
        return None

    def deinit(self):
        """Stop."""
        self._duty = 0


def unique_id():
    """A fixed board id (the MAC of a DevKitC we pretend to be)."""
    return b"\x24\x6f\x28\xa1\xb2\xc3"


class WDT:
    """Counts feeds instead of resetting the board."""

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0

    def feed(self):
        """The loop is alive."""
        self.feeds += 1


class Timer:
    """Remembers its callback; `fire()` runs it as the hardware timer would."""

    PERIODIC = 1
    ONE_SHOT = 0

    def __init__(self, id=0):
        self.id = id
        self.callback = None
        self.period = 0

    def init(self, period=0, mode=PERIODIC, callback=None):
        """Start the timer."""
        self.period = period
        self.callback = callback

    def fire(self):
        """One period passed."""
        self.callback(self)


resets = []


def reset():
    """Record a hard reset (the test decides what happens next)."""
    resets.append(True)
