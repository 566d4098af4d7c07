"""`neopixel` for the simulated board: the real module's GRB buffer, each write sent to the host."""

import binascii

import simhost


class NeoPixel:
    """Keeps the frame in `buf`; `write()` hands it to the host, which paints the strip."""

    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)

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
        for i in range(self.n):
            self[i] = v

    def write(self):
        """Send the buffer to the strip (the host)."""
        simhost.leds(binascii.hexlify(self.buf).decode())
