"""Fake `neopixel` with the real module's buffer layout (GRB) and a hook on every write."""


class NeoPixel:
    """Keeps the frame in `buf`; `write()` counts and calls `on_write(buf)` if set."""

    ORDER = (1, 0, 2, 3)
    on_write = None  # class-wide hook: the Node runner prints frames through it

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for j in range(self.bpp):
            self.buf[offset + self.ORDER[j]] = v[j]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[j]] for j in range(self.bpp))

    def fill(self, v):
        """Every pixel the same colour."""
        for i in range(self.n):
            self[i] = v

    def write(self):
        """'Send' the buffer."""
        self.writes += 1
        if NeoPixel.on_write is not None:
            NeoPixel.on_write(self.buf)
