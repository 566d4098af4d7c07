"""Wake-ups for long polls: a Condition every write in this process notifies.

Writes made through HTTP in this process (moves, undos, reveals, the followed table) notify
after their response is ready (`companion_app.api.device`'s after-request hook), so a
waiting `?wait=` poll answers at once. Writes from other processes (a second app process, a
CLI) are seen by the waiter's own database re-check every `DEVICE_RECHECK_S` seconds.
Waiting is bounded by `DEVICE_LONG_POLL_S`, so a waitress thread is never held for longer.
"""

import threading
import time
from collections.abc import Callable

from flask import Flask, current_app

#: Longest a long poll holds its worker thread (docs/device-api.md: 20 s).
DEFAULT_LONG_POLL_S = 20.0
#: How often a waiting poll re-reads the database for changes made by other processes.
DEFAULT_RECHECK_S = 0.5
_EXTENSION = "companion_device_changes"


class ChangeFeed:
    """A generation counter under a Condition: `notify()` bumps it, `wait()` sleeps on it."""

    def __init__(self) -> None:
        """Generation 0, nobody waiting."""
        self._cond = threading.Condition()
        self._generation = 0
        self._closed = False

    @property
    def generation(self) -> int:
        """The number of notifications so far."""
        with self._cond:
            return self._generation

    def notify(self) -> None:
        """Something may have changed: wake every waiter."""
        with self._cond:
            self._generation += 1
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        """True once the app is shutting down: polls answer at once instead of waiting."""
        return self._closed

    def close(self) -> None:
        """Release every waiting poll for good (the server is stopping)."""
        with self._cond:
            self._closed = True
            self._generation += 1
            self._cond.notify_all()

    def wait(self, seen: int, timeout_s: float) -> None:
        """Sleep until a notification after generation `seen`, or `timeout_s` seconds."""
        with self._cond:
            self._cond.wait_for(lambda: self._generation != seen, timeout=max(0.0, timeout_s))


def get_feed(app: Flask) -> ChangeFeed:
    """The app's change feed, created on first use."""
    return app.extensions.setdefault(_EXTENSION, ChangeFeed())


def notify_app() -> None:
    """Wake the current app's waiting polls."""
    get_feed(current_app).notify()


def wait_for_change(etag: Callable[[], str], seen_etag: str) -> str:
    """Block until `etag()` differs from `seen_etag` or the long-poll time is up; the new etag."""
    feed = get_feed(current_app)
    total_s = current_app.config.get("DEVICE_LONG_POLL_S", DEFAULT_LONG_POLL_S)
    recheck_s = current_app.config.get("DEVICE_RECHECK_S", DEFAULT_RECHECK_S)
    deadline = time.monotonic() + total_s
    while True:
        generation = feed.generation  # read before the check: no notification is missed
        current = etag()
        left = deadline - time.monotonic()
        if current != seen_etag or left <= 0 or feed.closed:
            return current
        feed.wait(generation, min(recheck_s, left))
