"""`asyncio` for the simulated board: a blocking `run()` as on the ESP32 port.

The WebAssembly build's own asyncio runs tasks on JavaScript's event loop and has no
`run()`; this one runs the firmware's tasks in order of their wake-up times and lets the
simulated world go on while they sleep (simhost.wait_ms). Enough for sleep/sleep_ms tasks.
"""

from time import ticks_add, ticks_diff, ticks_ms

import simhost


class _Sleep:
    """What a task yields to ask for a nap."""

    def __init__(self, ms):
        self.ms = ms

    def __iter__(self):
        yield self


class Task:
    """A coroutine and when it wakes next."""

    def __init__(self, coro):
        self.coro = coro
        self.wake = ticks_ms()


_tasks = []


def sleep_ms(ms):
    return _Sleep(max(0, int(ms)))


def sleep(seconds):
    return _Sleep(max(0, int(seconds * 1000)))


def create_task(coro):
    task = Task(coro)
    _tasks.append(task)
    return task


def _next():
    """The task that wakes first."""
    first = _tasks[0]
    for task in _tasks:
        if ticks_diff(task.wake, first.wake) < 0:
            first = task
    return first


def run(coro):
    """Run `coro` (and the tasks it creates) until it returns; its value. Blocks."""
    main = create_task(coro)
    while True:
        task = _next()
        simhost.wait_ms(max(0, ticks_diff(task.wake, ticks_ms())))
        try:
            asked = task.coro.send(None)
        except StopIteration as stop:
            _tasks.remove(task)
            if task is main:
                return stop.value
            continue
        except BaseException:
            _tasks.remove(task)
            if task is main:
                raise
            continue
        task.wake = ticks_add(ticks_ms(), asked.ms if isinstance(asked, _Sleep) else 0)
