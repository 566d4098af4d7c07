"""The simulated board's power-up under MicroPython: runner.mjs calls `boot()` and nothing else.

It puts the simulated `time` and `asyncio` in place, tells simhost the seat buttons' GPIOs,
runs the firmware's own main.py and then the REPL. It imports the other modules of this
folder; none of them imports it, so the board's modules form no circle.
"""

import sys

import simhost
from simhost import LOOK_MS, RAW_REPL, STDOUT, UART0, send, wait_ms


def _serial_on_uart0():
    """The firmware's UsbSerial reads this UART0 and writes STDOUT, like sys.stdin/stdout."""
    import usbserial

    real = usbserial.UsbSerial

    class OnUart0(real):
        def __init__(self, stream=None, out=None):
            super().__init__(UART0 if stream is None else stream, STDOUT if out is None else out)

    usbserial.UsbSerial = OnUart0


def _repl():
    """The board at its REPL after main.py: the raw REPL answers Ctrl-A and Ctrl-B only."""
    one = bytearray(1)
    while True:
        wait_ms(LOOK_MS)
        while UART0.readinto(one):
            if one[0] == 1:
                STDOUT.write(RAW_REPL)
            elif one[0] == 2:
                STDOUT.write(b"\r\nMicroPython (simulated box)\r\n>>> ")


def boot(why, held):
    """Power the board up (held buttons stay down: safe mode), run main.py, then the REPL."""
    simhost.cause = why
    import simasyncio
    import simtime

    sys.modules["time"] = simtime
    sys.modules["asyncio"] = simasyncio
    import pins

    pins.BOARD = "simulator"  # the hello says what the host talks to
    simhost.buttons[:] = pins.BUTTONS
    for seat in held:
        simhost.press(seat)
    _serial_on_uart0()
    try:
        import main  # noqa: F401  the firmware's own boot: safe mode, kbd_intr, board.run()

        send("S", "repl")
    except Exception as exc:  # the REPL takes over, as on the board
        sys.print_exception(exc)
        send("S", "crash")
    _repl()
