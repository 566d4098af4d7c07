"""The USB serial link on the board: non-blocking reads from the REPL's stdin, raw writes.

The DevKitC's USB-UART bridge is UART0, which MicroPython also uses for its REPL; main.py
turns off Ctrl-C (`micropython.kbd_intr(-1)`) so a 0x03 byte is data, not an interrupt.
`ipoll(0)` is the allocation-free way to ask whether a byte is waiting.
"""

import select
import sys


class UsbSerial:
    """Port for the box: `readinto(buf)` never blocks, `write(data)` sends bytes unchanged."""

    def __init__(self, stream=None, out=None):
        self._in = stream if stream is not None else sys.stdin.buffer
        self._out = out if out is not None else sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._one = bytearray(1)

    def _ready(self) -> bool:
        """True if at least one byte can be read without waiting."""
        for _ in self._poll.ipoll(0):
            return True
        return False

    def readinto(self, buf: bytearray) -> int:
        """Copy the waiting bytes (at most len(buf)) into buf; return how many."""
        n = 0
        size = len(buf)
        while n < size and self._ready():
            if not self._in.readinto(self._one):  # type: ignore[union-attr]  # stdio has it
                break
            buf[n] = self._one[0]
            n += 1
        return n

    def write(self, data: bytes) -> None:
        """Send `data` as is."""
        self._out.write(data)

    def deinit(self) -> None:
        """Stop polling stdin."""
        self._poll.unregister(self._in)
