"""A serial port in memory: the test feeds what the host sends and reads what the box wrote."""


class FakePort:
    """`readinto` hands out fed bytes (nothing allocated when idle); `write` collects output."""

    def __init__(self, chunk=64):
        self._rx = bytearray()
        self.out = bytearray()
        self.chunk = chunk  # at most this many bytes per readinto, like a UART FIFO

    def feed(self, data):
        """Bytes (or str) arriving from the host."""
        self._rx.extend(data.encode() if isinstance(data, str) else data)

    def waiting(self):
        """Bytes fed but not read yet."""
        return len(self._rx)

    def readinto(self, buf):
        """Copy waiting bytes into buf; return how many."""
        if not self._rx:
            return 0
        n = min(len(buf), len(self._rx), self.chunk)
        buf[:n] = self._rx[:n]
        self._rx = self._rx[n:]
        return n

    def write(self, data):
        """Bytes from the box."""
        self.out.extend(data)

    def take_lines(self):
        """The complete lines written since the last call (str, without the newline)."""
        text = bytes(self.out).decode()
        cut = text.rfind("\n") + 1
        self.out = bytearray(self.out[cut:])
        return [line for line in text[:cut].split("\n") if line]
