"""`machine` for the simulated board under MicroPython: pins the host presses, a watchdog.

Only what a DevKitC running the box uses. A watchdog that is not fed in time reboots the
simulated board (simhost checks it), with `reset_cause()` then saying WDT_RESET.
"""

import simhost

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5


class Pin:
    """A GPIO whose level lives in simhost.levels (the host presses buttons there)."""

    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 2
    IRQ_RISING = 1

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        self.gpio = gpio
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        """Set the pull-up (a released button then reads 1) or drive a level."""
        if pull == Pin.PULL_UP and self.gpio not in simhost.levels:
            simhost.levels[self.gpio] = 1
        if value is not None:
            simhost.levels[self.gpio] = 1 if value else 0

    def value(self, level=None):
        """Read the level, or drive it."""
        if level is None:
            return simhost.levels.get(self.gpio, 0)
        simhost.levels[self.gpio] = 1 if level else 0
        return None

    def __call__(self, level=None):
        return self.value(level)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=0):
        """Interrupts are not simulated; the box polls."""
        return None


class PWM:
    """The piezo's PWM: tells the host when it starts and stops sounding (simhost.pwm)."""

    def __init__(self, pin, freq=0, duty_u16=0, duty=None):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._freq = value
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._set(value)
        return None

    def duty(self, value=None):
        if value is None:
            return self._duty >> 6
        self._set(value << 6)
        return None

    def _set(self, duty):
        """A new duty; a change between silent (0) and sounding is reported."""
        if (duty == 0) != (self._duty == 0):
            simhost.pwm(self._freq, duty)
        self._duty = duty

    def deinit(self):
        self._set(0)


class WDT:
    """The ESP32's task watchdog: once started it cannot stop; unfed, the board reboots."""

    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError
        if timeout <= 0:
            raise ValueError("WDT timeout too short")
        simhost.watchdog_start(timeout)

    def feed(self):
        simhost.watchdog_feed()


class Timer:
    """A hardware timer: its callback runs whenever the simulated world is looked at."""

    PERIODIC = 1
    ONE_SHOT = 0

    def __init__(self, id=0):
        self.id = id
        self._callback = None

    def init(self, period=0, mode=PERIODIC, callback=None, freq=None):
        """Start: `callback(timer)` every `period` ms (or once)."""
        import time

        self._period = period if freq is None else max(1, 1000 // freq)
        self._mode = mode
        self._callback = callback
        self._at = time.ticks_add(time.ticks_ms(), self._period)
        if self not in simhost.timers:
            simhost.timers.append(self)

    def due(self, now):
        """Run the callback if its time has come (simhost calls this)."""
        import time

        if self._callback is None or time.ticks_diff(now, self._at) < 0:
            return
        self._at = time.ticks_add(now, self._period)
        if self._mode == Timer.ONE_SHOT:
            self.deinit()
        self._callback(self)

    def deinit(self):
        if self in simhost.timers:
            simhost.timers.remove(self)


class UART:
    """UART0 (the USB-serial bridge's UART), as the board's REPL shares it."""

    def __init__(self, id=0, baudrate=115200, **settings):
        self.id = id

    def init(self, *args, **settings):
        return None

    def any(self):
        return simhost.UART0.waiting()

    def readinto(self, buf, nbytes=-1):
        n = simhost.UART0.readinto(buf)
        return n or None

    def read(self, nbytes=-1):
        waiting = simhost.UART0.waiting()
        if not waiting:
            return None
        buf = bytearray(waiting if nbytes < 0 else min(nbytes, waiting))
        simhost.UART0.readinto(buf)
        return bytes(buf)

    def write(self, data):
        return simhost.STDOUT.write(data)


def unique_id():
    """A fixed board id (the MAC of a DevKitC we pretend to be)."""
    return b"\x24\x6f\x28\xa1\xb2\xc3"


def reset_cause():
    """Why the simulated board last booted (power-on, reset button, watchdog)."""
    return simhost.CAUSES.get(simhost.cause, PWRON_RESET)


def reset():
    """A hard reset: the host reboots the simulated board."""
    simhost.reboot("reset")


def soft_reset():
    """A soft reset, as MicroPython makes it: SystemExit, which the REPL turns into one."""
    raise SystemExit


def freq(hz=None):
    return 240_000_000 if hz is None else None


def idle():
    return None
