"""One live stream: its events and the subscriber that holds them until the front writes them.

Plain data for the hub (`live/hub.py`); every method runs on the event loop.
"""

import asyncio
import json
from dataclasses import dataclass, field

#: The order in which a subscriber's pending events are written: a page, then the parts that
#: changed in it (the room display's tiles, then where they go), then the box panel's news.
EVENT_ORDER = ("update", "part", "layout", "status", "frame")


class Refused(Exception):
    """A stream or poll the hub will not hold: status and sentence for `{"error": ...}`."""

    def __init__(self, status: int, message: str) -> None:
        """The HTTP status and the sentence."""
        self.status = status
        super().__init__(message)


def sse_event(kind: str, payload: object) -> bytes:
    """One server-sent event: `event: <kind>` and the payload as one line of JSON."""
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"event: {kind}\ndata: {data}\n\n".encode()


@dataclass(eq=False)
class Subscriber:
    """One open stream: the latest pending event of each kind (and part) and a wake-up."""

    group: "Group"  # noqa: F821  (live/groups.py; a stream belongs to one group)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    pending: dict[tuple[str, str], bytes] = field(default_factory=dict)
    closed: bool = False

    def offer(self, kind: str, event: bytes, part: str = "") -> None:
        """Queue `event`, replacing an unsent one of the same kind and part (only the latest
        matters); a replaced one moves to the end, so a kind's events stay oldest first."""
        self.pending.pop((kind, part), None)
        self.pending[(kind, part)] = event
        self.wake.set()

    def take(self) -> bytes:
        """Everything pending, in EVENT_ORDER (oldest first within a kind); clear the wake-up."""
        order = sorted(self.pending, key=lambda key: EVENT_ORDER.index(key[0]))
        chunk = b"".join(self.pending[key] for key in order)
        self.pending.clear()
        self.wake.clear()
        return chunk

    def end(self) -> None:
        """Finish the stream (the hub closes, or the client went away)."""
        self.closed = True
        self.wake.set()
