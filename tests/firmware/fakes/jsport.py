"""The box's serial port inside the Node runner: Node feeds bytes in, `write` goes to Node."""


class JsPort:
    """Like FakePort, but output is handed to a JS function (the runner's stdout)."""

    def __init__(self, write):
        self._rx = bytearray()
        self._write = write

    def feed(self, text):
        """Called from JS with a latin-1 string: one char per received byte."""
        for ch in text:
            self._rx.append(ord(ch) & 255)

    def readinto(self, buf):
        """Copy waiting bytes into buf; return how many (0 allocates nothing)."""
        if not self._rx:
            return 0
        n = min(len(buf), len(self._rx))
        buf[:n] = self._rx[:n]
        self._rx = self._rx[n:]
        return n

    def write(self, data):
        """Bytes from the box go to the runner's stdout."""
        self._write(bytes(data).decode())
