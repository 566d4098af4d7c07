"""`time` for the simulated board: MicroPython's own clock; sleeping lets the world go on."""

import time as _time

import simhost

ticks_ms = _time.ticks_ms
ticks_us = _time.ticks_us
ticks_add = _time.ticks_add
ticks_diff = _time.ticks_diff
ticks_cpu = getattr(_time, "ticks_cpu", _time.ticks_us)
time = _time.time
time_ns = getattr(_time, "time_ns", None)
localtime = getattr(_time, "localtime", None)
gmtime = getattr(_time, "gmtime", None)
mktime = getattr(_time, "mktime", None)


def sleep_ms(ms):
    """Block like the board does, while UART, buttons, timers and watchdog carry on."""
    simhost.wait_ms(int(ms))


def sleep_us(us):
    simhost.wait_ms(int(us) // 1000)


def sleep(seconds):
    simhost.wait_ms(int(seconds * 1000))
