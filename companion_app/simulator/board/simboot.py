"""The simulated board's power-up under MicroPython: runner.mjs calls `boot()` and nothing else.

It is the ESP32 port's main.c for the simulated DevKitC: mount the flash at "/", then soft
reset after soft reset: run boot.py, run main.py unless the REPL is in raw mode, run the
REPL (simrepl.py) until it asks for a soft reset, then stop every timer and say
`MPY: soft reboot`. A soft reset forgets every module and name the code made; the watchdog,
the pins and the flash stay. It imports the other modules of this folder; none of them
imports it, so the board's modules form no circle.
"""

import gc
import sys

import simhost
import simrepl
from simhost import STDOUT, UART0, send

FLASH = "/flash"  # the runner's copy of the flash folder, mounted as the board's "/"
BOARD_MODULES = "/sim"  # this folder: the board's built-in modules (machine, neopixel, ...)
SYS_PATH = ["", ".frozen", "/lib", BOARD_MODULES]  # the ESP32's, and the built-ins last


def _serial_on_uart0():
    """The firmware's UsbSerial reads this UART0 and writes STDOUT, like sys.stdin/stdout."""
    try:
        import usbserial
    except Exception:  # no firmware on the flash (main.py will say what is wrong)
        return
    real = usbserial.UsbSerial

    class OnUart0(real):
        def __init__(self, stream=None, out=None):
            super().__init__(UART0 if stream is None else stream, STDOUT if out is None else out)

    usbserial.UsbSerial = OnUart0


def _name_the_board():
    """The firmware's HELLO says `board=simulator`, so the host knows what it talks to."""
    try:
        import pins
    except Exception:  # no firmware on the flash (main.py will say what is wrong)
        return
    pins.BOARD = "simulator"


def _mount_flash():
    """The flash folder as "/" and the board's built-ins beside it; the working folder "/"."""
    import os

    import vfs

    vfs.umount("/")
    vfs.mount(vfs.VfsPosix(FLASH), "/")
    vfs.mount(vfs.VfsPosix(BOARD_MODULES), BOARD_MODULES)
    os.chdir("/")


def _install_board():
    """The board's own `time`, `asyncio`, `micropython`, `os` and `open` (simulated)."""
    import builtins

    import simasyncio
    import simmicropython
    import simos
    import simtime

    sys.modules["time"] = simtime
    sys.modules["asyncio"] = simasyncio
    sys.modules["micropython"] = simmicropython
    sys.modules["os"] = simos
    builtins.open = simos.open_file
    import machine  # noqa: F401  built into the board: it stays across soft resets
    import neopixel  # noqa: F401


def _run_file(name, globals_):
    """pyexec_file_if_exists: run a file of the flash; NORMAL when it is not there."""
    try:
        with open(name) as file:
            source = file.read()
    except OSError:
        return simrepl.NORMAL
    return simrepl.execute(source, globals_, name=name)


def _forget(builtin):
    """A soft reset: every module the code imported is gone, sys.path is the board's again."""
    for name in list(sys.modules):
        if name not in builtin:
            del sys.modules[name]
    sys.path[:] = SYS_PATH
    gc.collect()


def _main_py(globals_):
    """main.py, as the box's boot; tells the host when it ends (S repl, or S crash)."""
    _name_the_board()
    _serial_on_uart0()
    send("S", "run")
    ret = _run_file("main.py", globals_)
    send("S", "repl" if ret == simrepl.NORMAL else "crash")
    return ret


def boot(why, held, buttons):
    """Power the board up (held buttons stay down: safe mode) and run it until it resets."""
    simhost.cause = why
    simhost.buttons[:] = buttons
    for seat in held:
        simhost.press(seat)
    _mount_flash()
    _install_board()
    builtin = set(sys.modules)
    while True:  # soft_reset:
        _forget(builtin)
        globals_ = {"__name__": "__main__"}
        ret = _run_file("boot.py", globals_)
        if not ret & simrepl.FORCED_EXIT and simrepl.mode[0] == simrepl.FRIENDLY and ret:
            ret = _main_py(globals_)
        if not ret & simrepl.FORCED_EXIT:
            simrepl.run(globals_)
        simhost.soft_reset()  # soft_reset_exit:
        STDOUT.write(b"MPY: soft reboot\r\n")
