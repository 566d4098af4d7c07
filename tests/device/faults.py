"""Byte filters that damage a serial stream line by line: noise, cuts, bad CRCs, repeats, swaps."""

import random
import threading

KINDS = ("garbage", "truncate", "crc", "duplicate", "reorder")


class Mangler:
    """A simulator filter for one direction; while `on`, damages about `rate` of the lines."""

    def __init__(self, kinds=KINDS, rate=0.3, seed=1):
        self.kinds = kinds
        self.rate = rate
        self.on = True
        self.rng = random.Random(seed)
        self.done = {kind: 0 for kind in KINDS}
        self._buf = bytearray()
        self._held = None
        self._lock = threading.Lock()

    def __call__(self, data):
        """Bytes in, damaged bytes out (whole lines only; a partial line waits for its end)."""
        with self._lock:
            self._buf.extend(data)
            out = bytearray()
            while b"\n" in self._buf:
                cut = self._buf.index(b"\n") + 1
                line = bytes(self._buf[:cut])
                del self._buf[:cut]
                out.extend(self._line(line))
            if not self.on and self._held is not None:
                out.extend(self._held)
                self._held = None
            return bytes(out)

    def _line(self, line):
        """One line, maybe damaged; a held (reordered) line goes out after the next one."""
        if not self.on or self.rng.random() >= self.rate:
            return self._release(line)
        kind = self.rng.choice(self.kinds)
        self.done[kind] += 1
        if kind == "garbage":
            noise = bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 40)))
            return self._release(noise + line)
        if kind == "truncate":
            cut = line[: self.rng.randrange(1, len(line) - 1)]
            return self._release(cut if self.rng.random() < 0.5 else cut + b"\n")
        if kind == "crc":
            i = self.rng.randrange(len(line) - 12)
            return self._release(line[:i] + bytes([line[i] ^ 0x01]) + line[i + 1 :])
        if kind == "duplicate":
            return self._release(line + line)
        if self._held is None:  # reorder: hold this one back
            self._held = line
            return b""
        return self._release(line)

    def _release(self, data):
        """`data`, then the held line if there is one."""
        if self._held is None:
            return data
        held, self._held = self._held, None
        return data + held
