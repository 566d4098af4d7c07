"""How fast one address may open live streams and long polls: a token bucket per address.

The room's shares (room.py) cap what an address holds at once, but not how often it reopens:
16 streams reopened as fast as a script can (about 43 opens a second) made the server render
and subscribe for one address at everyone else's expense, and the host's moves slowed 3 to
20 times (issue 33, item 2). Each address (an IPv6 one by its /64) now has a bucket per kind:
it may open `burst` at once (a phone reloading a few tabs, a browser reconnecting every page
after Wi-Fi came back), then `per_s` a second; past that it gets 429 with a sentence and
`Retry-After` before anything is rendered or any right is read. A browser's EventSource
waits 2 s before reconnecting and the bridge holds one poll at a time, so neither comes near.
"""

import math
import threading
import time
from collections.abc import Callable

#: Streams: a phone with a dozen tabs reconnecting them all at once, then 2 a second.
STREAM_BURST, STREAM_PER_S = 32, 2.0
#: Polls: the bridge and the box page answer a poll per change; 40 at once, then 5 a second.
POLL_BURST, POLL_PER_S = 40, 5.0
#: Addresses remembered at most; full buckets are forgotten first (they hold no debt).
MAX_ADDRESSES = 4096

TOO_FAST = {
    "stream": "This device reopens live pages too often; it may open the next in {seconds} s.",
    "poll": "This device asks for long polls too often; it may ask again in {seconds} s.",
}


class Rate:
    """Token buckets of one kind, one per address: `take(share)` spends a token or says how
    many seconds until the next one."""

    def __init__(
        self, kind: str, burst: int, per_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """Every address starts with a full bucket of `burst` tokens."""
        self.kind, self.burst, self.per_s, self.clock = kind, burst, per_s, clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # share -> (tokens, at)

    def take(self, share: str) -> float:
        """Spend one of `share`'s tokens (0.0), or the seconds until one is there."""
        with self._lock:
            now = self.clock()
            tokens, at = self._buckets.get(share, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - at) * self.per_s)
            if tokens < 1.0:
                self._buckets[share] = (tokens, now)
                return (1.0 - tokens) / self.per_s
            self._buckets[share] = (tokens - 1.0, now)
            if len(self._buckets) > MAX_ADDRESSES:
                self._forget_full(now)
            return 0.0

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled (they are what a new address gets anyway)."""
        full = [
            share
            for share, (tokens, at) in self._buckets.items()
            if tokens + (now - at) * self.per_s >= self.burst
        ]
        for share in full:
            del self._buckets[share]

    def refusal(self, wait_s: float) -> tuple[str, int]:
        """The sentence and the whole seconds of `Retry-After` for a refused open."""
        seconds = max(1, math.ceil(wait_s))
        return TOO_FAST[self.kind].format(seconds=seconds), seconds
