"""A short host session on the box's port, driven step by step (the first-plug check's wire).

The bridge's Link on an open port, read in the caller's thread: HELLO until the box names our
nonce, SET/ARM/DISARM resent until acknowledged, the box's PRESSes recorded and acknowledged.
Nothing of the app: `companion device check` runs it before the box is ever bridged.
"""

import time

from companion_app.bridge import detect
from companion_app.bridge.link import Link, LinkEvents
from firmware import protocol as P

READ_S = 0.02  # the port's read timeout: the session is pumped this often
HELLO_S = 5.0  # a running box answers our HELLO in ms; a booting one within seconds
SETTLE_S = 3.0  # a command the box does not acknowledge within this long failed
ALL_SEATS = "1,2,3,4,5,6"


class NoBox(OSError):
    """Nothing on the port answered like a box; the message says what was heard."""

    heard = b""  # the first bytes the port gave (the check tells a garbled line by them)


class Probe(LinkEvents):
    """One open port, one session: `open()`, `show()`, `arm()`, `presses`, `close()`."""

    def __init__(self, path, open_port=detect.open_port, clock=time.monotonic):
        self.path = path
        self.clock = clock
        self.port = open_port(path, READ_S)
        self.link = Link(self.port.write, events=self, clock=clock)
        self.presses = []  # (when, reveal id, seat 1..6) as the box reported them
        self.heard = b""  # the first bytes from the port (to say what answered, if not a box)
        self._reveal_id = 0

    def open(self, timeout=HELLO_S):
        """HELLO until the box answers naming our nonce; its HELLO fields (NoBox if none)."""
        self.link.start()
        if not self.pump_until(lambda: self.link.ready, timeout):
            heard = self.heard.decode("ascii", "replace").strip()[:80]
            silent = NoBox(
                f"no box answered on {self.path}" + (f" (it said {heard!r})" if heard else "")
            )
            silent.heard = self.heard
            raise silent
        return dict(self.link.hello)

    def pump(self, seconds):
        """Read and answer for `seconds`."""
        self.pump_until(lambda: False, seconds)

    def pump_until(self, done, timeout):
        """Read, answer and resend until done() or `timeout` s passed; done()'s last value."""
        deadline = self.clock() + timeout
        while True:
            if done():
                return True
            if self.clock() >= deadline:
                return False
            data = self.port.read(self.port.in_waiting or 1)
            if data:
                if len(self.heard) < 200:
                    self.heard += data
                self.link.data_received(data)
            self.link.poll()
            if self.link.failed is not None:
                raise self.link.failed

    def command(self, kind, payload=""):
        """Send a reliable command and wait for its ACK; False if none came."""
        self.link.command(kind, payload, force=True)
        return self.pump_until(lambda: not self.link.pending(), SETTLE_S)

    def settle(self, timeout):
        """Go on resending until the box acknowledged every command; False if `timeout` passed."""
        return self.pump_until(lambda: not self.link.pending(), timeout)

    def show(self, police=0, limit=7, rnd=0, rounds=5, seats=0):
        """SET the display state; False if the box did not acknowledge it."""
        return self.command(
            P.SET, f"police={police} limit={limit} round={rnd} rounds={rounds} seats={seats}"
        )

    def arm(self, seats=ALL_SEATS):
        """ARM a fresh reveal for `seats` ("1,3"); False if the box did not acknowledge it."""
        self._reveal_id += 1
        return self.command(P.ARM, f"id={self._reveal_id} seats={seats}")

    def disarm(self):
        """DISARM: every seat idle."""
        return self.command(P.DISARM)

    @property
    def reveal_id(self):
        """The id of the last reveal armed."""
        return self._reveal_id

    def on_press(self, token, reveal_id, seat):
        """A seat button: note it and acknowledge it (the box stops retrying)."""
        self.presses.append((self.clock(), reveal_id, seat))
        self.link.answer(token)

    def on_reveal(self, token, reveal_id, seats):
        """The box revealed (not asked for by the check, but acknowledged)."""
        self.link.answer(token)

    def close(self):
        """Close the port (the box shows "disconnected" after 3 s)."""
        self.link.close(self.port.close)
