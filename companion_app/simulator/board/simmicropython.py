"""`micropython` for the simulated board: the real module, with `kbd_intr` acting on the
simulated UART (simhost), which is where the board's Ctrl-C comes from."""

import micropython as _real
import simhost

const = _real.const
mem_info = _real.mem_info
opt_level = _real.opt_level
qstr_info = _real.qstr_info
stack_use = _real.stack_use
heap_lock = _real.heap_lock
heap_unlock = _real.heap_unlock
schedule = _real.schedule


def kbd_intr(char):
    """Which byte on the line interrupts running code (-1: none, so 0x03 is data)."""
    simhost.kbd_intr(char)
