"""Byte filters that damage a serial stream line by line: noise, cuts, bad CRCs, repeats, swaps,
lines held back; and the pseudo-terminal man-in-the-middle that applies them."""

import os
import random
import select
import threading
import tty

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


class Mitm:
    """A pseudo-terminal man-in-the-middle: the bridge opens `path`, we open the box's port.

    Bytes are carried both ways by a thread, through `to_box` and `from_box` filters
    (callables bytes -> bytes, e.g. a Mangler). `unplug()` closes our end, so the bridge's
    port fails like a pulled cable; `replug()` opens a new pseudo-terminal at a new path.
    """

    READ_SIZE = 4096

    def __init__(self, box_path, to_box=None, from_box=None):
        self.to_box = to_box or (lambda data: data)
        self.from_box = from_box or (lambda data: data)
        self._box_fd = os.open(box_path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self._box_fd)
        self._lock = threading.RLock()
        self._stop_r, self._stop_w = os.pipe()
        self._master = self._slave = None
        self.path = None
        self._open()
        self._thread = threading.Thread(target=self._carry, name="mitm", daemon=True)
        self._thread.start()

    def _open(self):
        """A fresh pseudo-terminal for the bridge."""
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave, self.path = master, slave, os.ttyname(slave)

    def unplug(self):
        """The cable is pulled: the bridge's port fails; nothing passes. (Our slave stays open
        until the replug, so the new port gets another path, as a re-enumerated USB port.)"""
        with self._lock:
            if self._master is not None:
                os.close(self._master)
            self._master = None
            self.path = None

    def replug(self):
        """The cable is back, at a new path."""
        with self._lock:
            old_slave = self._slave
            self._open()
            if old_slave is not None:
                os.close(old_slave)

    def inject(self, data):
        """Bytes to the box now, as if they had been on their way all along (a late line)."""
        with self._lock:
            _write(self._box_fd, data)

    def close(self):
        """Stop carrying and close everything."""
        os.write(self._stop_w, b"x")
        self._thread.join()
        with self._lock:
            self.unplug()
            if self._slave is not None:
                os.close(self._slave)
        for fd in (self._box_fd, self._stop_r, self._stop_w):
            os.close(fd)

    def _carry(self):
        """Forward both ways until closed."""
        while True:
            master = self._master
            fds = [self._box_fd, self._stop_r] + ([master] if master is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], 0.05)
            except (OSError, ValueError):  # unplugged while we waited
                continue
            if self._stop_r in ready:
                return
            with self._lock:
                if self._box_fd in ready:
                    data = _read(self._box_fd)
                    if data and self._master is not None:  # unplugged: the box's bytes are lost
                        _write(self._master, self.from_box(data))
                if master in ready and master == self._master:
                    data = _read(master)
                    if data:
                        _write(self._box_fd, self.to_box(data))


def _read(fd):
    """What is waiting on `fd` (b"" if nothing or the other end is gone)."""
    try:
        return os.read(fd, Mitm.READ_SIZE)
    except (BlockingIOError, OSError):
        return b""


def _write(fd, data):
    """All of `data` to `fd`, as far as it takes it."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            select.select([], [fd], [], 0.05)
        except OSError:
            return


class LineDropper:
    """A filter that damages (flips one byte of) the next `count` lines containing `word`."""

    def __init__(self, word, count=1):
        self.word = word
        self.count = count
        self.done = 0
        self._buf = bytearray()

    def __call__(self, data):
        self._buf.extend(data)
        out = bytearray()
        while b"\n" in self._buf:
            cut = self._buf.index(b"\n") + 1
            line = bytes(self._buf[:cut])
            del self._buf[:cut]
            if self.done < self.count and self.word in line:
                self.done += 1
                line = line[:2] + bytes([line[2] ^ 0x01]) + line[3:]  # the CRC fails
            out.extend(line)
        return bytes(out)


class LineHolder:
    """A filter that, while `holding`, keeps back every line containing `word` (a command and
    its identical retries) instead of passing it; `take()` gives the first one kept."""

    def __init__(self, word):
        self.word = word
        self.holding = False
        self.held = []
        self._buf = bytearray()

    def __call__(self, data):
        self._buf.extend(data)
        out = bytearray()
        while b"\n" in self._buf:
            cut = self._buf.index(b"\n") + 1
            line = bytes(self._buf[:cut])
            del self._buf[:cut]
            if self.holding and self.word in line:
                self.held.append(line)
            else:
                out.extend(line)
        return bytes(out)

    def take(self):
        """The first line held back (the later ones are its retries), forgetting them all."""
        first, self.held = self.held[0], []
        return first
