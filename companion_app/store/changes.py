"""Wake-ups for whoever waits on a change: long polls and the live pages' hub.

Writes made through HTTP in this process (moves, undos, reveals, the followed table) notify
after their response is ready (`companion_app.api.device`'s after-request hook), and the
store's reveal functions notify on their own. A notification wakes every `wait()`er and calls
every listener (`add_listener`: the live hub of `companion_app.server.live` registers one that
hands the news to its event loop). Writes from other processes (a second app process, a CLI)
are seen by periodic re-checks of the database: the waiter's own every `DEVICE_RECHECK_S`, the
hub's likewise.

`long_poll` registers which endpoints long-poll with `?wait=<etag>` and how their etag is
computed, so the asynchronous server front (`companion_app.server.asgi`) can hold such a poll
without a thread and hand the request to Flask once the etag moved. Under any other server
(Flask's test client, a plain WSGI server) the view waits itself (`wait_for_change`), bounded
by `DEVICE_LONG_POLL_S`.
"""

import threading
import time
from collections.abc import Callable

from flask import Flask, current_app

#: Longest a long poll waits (docs/device-api.md: 20 s).
DEFAULT_LONG_POLL_S = 20.0
#: How often a waiting poll re-reads the database for changes made by other processes.
DEFAULT_RECHECK_S = 0.5
#: Longest etag accepted in ?wait= (ours are far shorter; anything longer is not one of ours).
MAX_ETAG = 200
_EXTENSION = "companion_device_changes"
_LONG_POLLS = "companion_long_polls"

Listener = Callable[[bool], None]


class ChangeFeed:
    """A generation counter under a Condition: `notify()` bumps it, `wait()` sleeps on it."""

    def __init__(self) -> None:
        """Generation 0, nobody waiting, no listeners."""
        self._cond = threading.Condition()
        self._generation = 0
        self._closed = False
        self._listeners: list[Listener] = []
        self._nudged: list[Callable[[], None]] = []

    @property
    def generation(self) -> int:
        """The number of notifications so far."""
        with self._cond:
            return self._generation

    def add_listener(self, listener: Listener) -> None:
        """Call `listener(closed)` after every notification (from the notifying thread).

        A listener must be quick and must not raise: it runs inside the writer's request.
        """
        with self._cond:
            self._listeners = [*self._listeners, listener]

    def remove_listener(self, listener: Listener) -> None:
        """Stop calling `listener` (nothing happens if it was not added)."""
        with self._cond:
            self._listeners = [known for known in self._listeners if known != listener]

    def add_nudge_listener(self, listener: Callable[[], None]) -> None:
        """Call `listener()` on every `nudge` (quick, never raising, from the nudging thread)."""
        with self._cond:
            self._nudged = [*self._nudged, listener]

    def remove_nudge_listener(self, listener: Callable[[], None]) -> None:
        """Stop calling `listener` on nudges (nothing happens if it was not added)."""
        with self._cond:
            self._nudged = [known for known in self._nudged if known != listener]

    def nudge(self) -> None:
        """Something the live pages show moved outside the database (the box's drawn anchors
        in the bridge status): wake the live hub for a round now; long polls, backups and the
        generation are left alone (no table changed)."""
        with self._cond:
            listeners = self._nudged
        for listener in listeners:
            listener()

    def notify(self) -> None:
        """Something may have changed: wake every waiter and call every listener."""
        with self._cond:
            self._generation += 1
            self._cond.notify_all()
            listeners = self._listeners
        for listener in listeners:
            listener(False)

    @property
    def closed(self) -> bool:
        """True once the app is shutting down: polls answer at once instead of waiting."""
        return self._closed

    def close(self) -> None:
        """Release every waiting poll for good (the server is stopping); tell the listeners."""
        with self._cond:
            self._closed = True
            self._generation += 1
            self._cond.notify_all()
            listeners = self._listeners
        for listener in listeners:
            listener(True)

    def wait(self, seen: int, timeout_s: float) -> None:
        """Sleep until a notification after generation `seen`, or `timeout_s` seconds."""
        with self._cond:
            self._cond.wait_for(lambda: self._generation != seen, timeout=max(0.0, timeout_s))


def get_feed(app: Flask) -> ChangeFeed:
    """The app's change feed, created on first use."""
    return app.extensions.setdefault(_EXTENSION, ChangeFeed())


def new_feed(app: Flask) -> ChangeFeed:
    """Give the app a fresh change feed (a forked worker: none of the parent's listeners)."""
    feed = app.extensions[_EXTENSION] = ChangeFeed()
    return feed


def notify_app() -> None:
    """Wake the current app's waiting polls and live pages."""
    get_feed(current_app).notify()


def long_poll(app: Flask, endpoint: str, etag: Callable[..., str]) -> None:
    """Declare that GET `endpoint?wait=<etag>` long-polls; `etag(**view_args)` is its etag."""
    app.extensions.setdefault(_LONG_POLLS, {})[endpoint] = etag


def long_poll_etag(app: Flask, endpoint: str) -> Callable[..., str] | None:
    """The etag function of a long-polling endpoint, or None for any other endpoint."""
    return app.extensions.get(_LONG_POLLS, {}).get(endpoint)


def long_poll_limits(app: Flask) -> tuple[float, float]:
    """(longest wait, re-check period) in seconds, from the app config."""
    return (
        float(app.config.get("DEVICE_LONG_POLL_S", DEFAULT_LONG_POLL_S)),
        float(app.config.get("DEVICE_RECHECK_S", DEFAULT_RECHECK_S)),
    )


def wait_for_change(etag: Callable[[], str], seen_etag: str) -> str:
    """Block until `etag()` differs from `seen_etag` or the long-poll time is up; the new etag."""
    feed = get_feed(current_app)
    total_s, recheck_s = long_poll_limits(current_app)
    deadline = time.monotonic() + total_s
    while True:
        generation = feed.generation  # read before the check: no notification is missed
        current = etag()
        left = deadline - time.monotonic()
        if current != seen_etag or left <= 0 or feed.closed:
            return current
        feed.wait(generation, min(recheck_s, left))
