"""Key guesses slowed per address: after a few wrong keys, one try every few seconds.

Keys are 128-bit HMACs, so guessing one is hopeless; but nothing stopped a device from trying
300 a second, each a request the server works for. A request presents a key when it sends
`Authorization: Bearer <key>` or opens a link with a key in its URL (scorer, seat, organiser,
club tablet). A key is wrong when the request is then refused for rights (403) and the key is
no organiser or device key still in force (a revoked one counts as wrong). Past FREE_GUESSES
wrong keys, an address (an IPv6 one by its /64, like the room's shares) may present a key
once every EVERY_S seconds; earlier tries get 429 with a sentence and `Retry-After`, before
any key is compared. FORGET_S after its last wrong key an address starts afresh. This
computer (loopback, while it hosts every table) is never slowed. Issue 33, item 10.
"""

import math
import threading
import time
from collections.abc import Callable

from flask import Flask, Response, current_app, request

from companion_app.server import rights
from companion_app.server.errors import refuse
from companion_app.server.room import RefusalLog, share_of
from scoring.errors import N_

#: Wrong keys an address may present before it is slowed.
FREE_GUESSES = 5
#: Seconds between two tries once slowed.
EVERY_S = 5.0
#: Seconds after the last wrong key when an address is forgotten.
FORGET_S = 900.0
#: Addresses remembered at most (the oldest are forgotten first).
MAX_ADDRESSES = 4096
TOO_MANY, FORBIDDEN = 429, 403
_EXTENSION = "companion_key_guesses"

SLOWED = N_("This device sent too many wrong keys or links; it may try again in {seconds} s.")


class KeyGuesses:
    """Wrong keys per address, and when each may present a key again."""

    def __init__(
        self,
        free: int = FREE_GUESSES,
        every_s: float = EVERY_S,
        forget_s: float = FORGET_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Nobody slowed yet."""
        self.free, self.every_s, self.forget_s, self.clock = free, every_s, forget_s, clock
        self._lock = threading.Lock()
        self._wrong: dict[str, tuple[int, float]] = {}  # share -> (wrong keys, last wrong at)
        self.log = RefusalLog()

    def wait_s(self, share: str) -> float:
        """Seconds before `share` may present a key again (0: now)."""
        with self._lock:
            count, last = self._wrong.get(share, (0, 0.0))
            now = self.clock()
            if count and now - last >= self.forget_s:
                self._wrong.pop(share, None)
                return 0.0
            if count < self.free:
                return 0.0
            return max(0.0, last + self.every_s - now)

    def wrong(self, share: str) -> None:
        """`share` presented a wrong key."""
        with self._lock:
            count, _last = self._wrong.pop(share, (0, 0.0))
            self._wrong[share] = (count + 1, self.clock())  # re-inserted: the newest is last
            while len(self._wrong) > MAX_ADDRESSES:
                self._wrong.pop(next(iter(self._wrong)))


def get_guesses(app: Flask) -> KeyGuesses:
    """The app's record of wrong keys (made on first use, sized from the config)."""
    guesses = app.extensions.get(_EXTENSION)
    if guesses is None:
        config = app.config
        guesses = app.extensions.setdefault(
            _EXTENSION,
            KeyGuesses(
                int(config.get("KEY_FREE_GUESSES", FREE_GUESSES)),
                float(config.get("KEY_GUESS_EVERY_S", EVERY_S)),
            ),
        )
    return guesses


def _presented_key() -> str | None:
    """The key this request presents: a link's in the URL, else the bearer's, else None."""
    key = (request.view_args or {}).get("key")
    if isinstance(key, str):
        return key
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def slow_guessers() -> Response | None:
    """Before-request hook: an address past its free wrong keys waits (429, Retry-After)."""
    if _presented_key() is None or rights.is_local():
        return None
    share = share_of(request.remote_addr or "")
    wait = get_guesses(current_app).wait_s(share)
    if wait <= 0:
        return None
    seconds = max(1, math.ceil(wait))
    get_guesses(current_app).log.note(
        "guesses", f"Slowed key guesses from {(request.remote_addr or '?')[:64]}"
    )
    response = refuse(TOO_MANY, SLOWED, seconds=seconds)
    response.headers["Retry-After"] = str(seconds)
    return response


def count_wrong_keys(response: Response) -> Response:
    """After-request hook: a key refused for rights counts as a wrong guess."""
    key = _presented_key() if response.status_code == FORBIDDEN else None
    if key is None or rights.is_local() or rights.is_live_key(key):
        return response
    get_guesses(current_app).wrong(share_of(request.remote_addr or ""))
    return response


def init_app(app: Flask) -> None:
    """Slow key guesses before the rights are checked; count the wrong ones after."""
    app.before_request(slow_guessers)
    app.after_request(count_wrong_keys)
