"""Device long polls (`?wait=<etag>`) held on the event loop instead of in a thread.

The hub (`live/hub.py`) reads the etag of every distinct (endpoint, arguments) once per
round, however many polls wait for it, and `release`s the polls whose etag moved; a poll
also ends after DEVICE_LONG_POLL_S or when the server stops. The request then goes to Flask
without `wait`, which answers at once (docs/device-api.md is unchanged).
"""

import asyncio
from collections.abc import Awaitable, Callable

from companion_app.server.live.stream import Refused

UNAVAILABLE = 503
#: Most long polls held at once; more get 503 (the bridge retries).
DEFAULT_MAX_POLLS = 500

PollKey = tuple[str, tuple]


def poll_key(endpoint: str, args: dict) -> PollKey:
    """The key polls with the same etag share: the endpoint and its URL arguments."""
    return endpoint, tuple(sorted(args.items()))


class HeldPolls:
    """The polls waiting for an etag to move, by key."""

    def __init__(self, long_poll_s: float, max_polls: int = DEFAULT_MAX_POLLS) -> None:
        """Nobody waiting; each poll waits at most `long_poll_s` seconds."""
        self.long_poll_s = long_poll_s
        self.max_polls = max_polls
        self.waiting: dict[PollKey, dict[asyncio.Future, str]] = {}
        self.held = 0
        self.closed = False

    def keys(self) -> list[PollKey]:
        """Every key some poll waits on."""
        return list(self.waiting)

    def release(self, etags: dict[PollKey, str | None]) -> None:
        """Answer the polls whose etag is no longer the one they have (None: an error)."""
        for key, etag in etags.items():
            for future, seen in list(self.waiting.get(key, {}).items()):
                if (etag is None or etag != seen) and not future.done():
                    future.set_result(None)

    async def hold(
        self,
        key: PollKey,
        seen: str,
        etag_now: Callable[[], Awaitable[str | None]],
        registered: Callable[[], None],
    ) -> None:
        """Return once the etag of `key` is not `seen`, time is up or the server stops.

        `etag_now()` reads the etag (in a thread); `registered()` is called once the poll
        waits, so the caller can look again for a change that landed during the read.
        """
        if self.closed:
            return
        if self.held >= self.max_polls:
            raise Refused(UNAVAILABLE, "Too many long polls are waiting; try again shortly.")
        etag = await etag_now()
        if etag is None or etag != seen or self.closed:
            return
        future = asyncio.get_running_loop().create_future()
        waiting = self.waiting.setdefault(key, {})
        waiting[future] = seen
        self.held += 1
        registered()
        try:
            async with asyncio.timeout(self.long_poll_s):
                await future
        except TimeoutError:
            pass
        finally:
            self.held -= 1
            waiting.pop(future, None)
            if not waiting and self.waiting.get(key) is waiting:
                del self.waiting[key]

    def close(self) -> None:
        """Answer every waiting poll now (the server is stopping)."""
        self.closed = True
        for waiting in self.waiting.values():
            for future in waiting:
                if not future.done():
                    future.set_result(None)
