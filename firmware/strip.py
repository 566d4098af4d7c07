"""The WS2812B chain: pushes a rendered GRB frame to a neopixel driver, only when it changed."""


class Strip:
    """Wraps a `neopixel.NeoPixel` (or a fake with `buf` and `write()`), GRB byte order."""

    def __init__(self, np):
        self._np = np
        self._last = bytearray(len(np.buf))
        self._fresh = True  # the strip's content is unknown until the first write
        self.writes = 0  # frames actually sent to the LEDs

    def show(self, frame: bytearray) -> bool:
        """Send `frame` (a bytearray as long as the strip's buffer) if it differs from the last."""
        if not self._fresh and frame == self._last:
            return False
        np = self._np
        np.buf[:] = frame
        np.write()
        self._last[:] = frame
        self._fresh = False
        self.writes += 1
        return True

    def deinit(self) -> None:
        """Turn every pixel off."""
        buf = self._np.buf
        for i in range(len(buf)):
            buf[i] = 0
        self._np.write()
        self._fresh = True
