"""uvicorn's h11 protocol with the room's deadlines and shares, one instance per connection.

uvicorn closes an idle keep-alive connection, but a connection that never finishes its
request line and headers, or never sends the body it announced, stays open for ever: a few
thousand such sockets filled the open-files limit and the server stopped answering. Here:

- a connection's share is taken when it opens (`room.Room.connections`): past its address's
  share it gets a 429 sentence and is closed at once; when the room is full, the oldest
  connection that has sent nothing yet is closed to make way (none: 503 and closed); its
  first request then decides whether it counts in the unknown devices' share or must be
  a known device's (`room.Room.first_request`, from asgi.Front; issue 33, item 3);
- the request line and headers must arrive within HEAD_TIMEOUT_S of the connection opening
  (or of the previous answer), the announced body within BODY_TIMEOUT_S of the headers;
  an idle keep-alive connection is closed after IDLE_TIMEOUT_S (uvicorn's own timer);
- an answer the client stops reading for WRITE_STALL_S is cut;
- malformed HTTP gets a 400 sentence with the security headers, like every answer;
- every refusal and every deadline is logged at most once per kind every LOG_EVERY_S.
"""

import asyncio
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from companion_app.server.guard import SECURITY_HEADERS
from companion_app.server.room import FULL, Refusal, Room, Ticket, share_of

#: Seconds for the request line and headers (a request head is a few hundred bytes).
HEAD_TIMEOUT_S = 10.0
#: Seconds for the body once the headers are in (bodies are capped at 64 KB).
BODY_TIMEOUT_S = 10.0
#: Seconds an idle keep-alive connection stays open after an answer.
IDLE_TIMEOUT_S = 5.0
#: Seconds an answer may wait for a client that stopped reading.
WRITE_STALL_S = 30.0
BAD_REQUEST_SENTENCE = "The request is not valid HTTP/1.1; nothing was changed."
#: The security headers every answer carries (server/guard.py), as raw ASGI headers.
RAW_SECURITY_HEADERS = [
    (name.lower().encode("latin-1"), value.encode("latin-1"))
    for name, value in SECURITY_HEADERS.items()
]


def raw_answer(status: int, reason: bytes, message: str, extra: list | None = None) -> bytes:
    """A whole HTTP/1.1 answer `{"error": message}` that closes the connection."""
    body = json.dumps({"error": message}).encode()
    head = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *RAW_SECURITY_HEADERS,
        *(extra or []),
    ]
    lines = [b"HTTP/1.1 %d %s" % (status, reason)] + [name + b": " + value for name, value in head]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


class QuietLogger:
    """uvicorn's logger for one connection, each kind of line at most once per LOG_EVERY_S."""

    def __init__(self, logger, room: Room) -> None:
        """Wrap `logger`; `level` is its effective level (uvicorn skips trace lines above it)."""
        self.logger = logger
        self.room = room
        self.level = logger.getEffectiveLevel()

    def log(self, level: int, message: str, *args, **kwargs) -> None:
        """A line, unless this kind was logged a moment ago."""
        text = message % args if args else message
        self.room.log.note(
            f"uvicorn:{message[:40]}", text, lambda line: self.logger.log(level, line, **kwargs)
        )

    def warning(self, message: str, *args, **kwargs) -> None:
        """A warning line (rate-limited)."""
        self.log(30, message, *args, **kwargs)

    def error(self, message: str, *args, **kwargs) -> None:
        """An error line (rate-limited; the traceback too)."""
        self.log(40, message, *args, **kwargs)

    def info(self, message: str, *args, **kwargs) -> None:
        """An info line (rate-limited)."""
        self.log(20, message, *args, **kwargs)


class RoomProtocol(H11Protocol):
    """One connection: uvicorn's h11 protocol plus the room's shares and deadlines."""

    def __init__(self, config, server_state, app_state, _loop=None, *, room: Room) -> None:
        """As uvicorn makes it, with the front's `room`."""
        super().__init__(config, server_state, app_state, _loop)
        self.room = room
        self.logger = QuietLogger(self.logger, room)
        self.share: Ticket | None = None
        self.refused = False
        self.deadline: asyncio.TimerHandle | None = None
        self.deadline_kind: str | None = None
        self.stall: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        """Take the address's share of connections, or answer 503 and close."""
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        try:
            self.share = self._admit(address)
        except Refusal as refused:
            self.refused = True
            reason = b"Too Many Requests" if refused.status == 429 else b"Service Unavailable"
            retry = [(b"retry-after", str(refused.retry_after).encode())]
            transport.write(raw_answer(refused.status, reason, str(refused), retry))
            transport.close()
            return
        self._arm()

    def _admit(self, address: str) -> Ticket:
        """This connection's ticket; when the room is full, the oldest connection that has
        sent nothing yet makes way for this one (idle sockets from many addresses cannot
        keep anyone out: a real client sends its request at once)."""
        room, connections = self.room, self.room.connections
        if connections.count >= connections.total and (
            connections.held.get(share_of(address), 0) < connections.per_address
        ):
            room.make_way()
        ticket = room.take(connections, address, lambda: None)
        if self.client:
            room.idle[tuple(self.client)] = self
        return ticket

    def evict(self) -> None:
        """Make way for a newer connection: give the share back now, say why, close."""
        if self.share is not None:
            self.room.connections.give_back(self.share)
            self.share = None
        if self.transport is not None and not self.transport.is_closing():
            retry = [(b"retry-after", b"5")]
            self.transport.write(raw_answer(503, b"Service Unavailable", FULL["connection"], retry))
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        """Give the share back and stop the timers."""
        if self.client:
            self.room.idle.pop(tuple(self.client), None)
            self.room.unclassified.pop(tuple(self.client), None)
        self._set_deadline(None)
        self._cancel_stall()
        if self.share is not None:
            self.room.connections.give_back(self.share)
            self.share = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does (nothing from a refused connection), then mind the deadline."""
        if self.refused:
            return
        super().data_received(data)
        if self.client and self.conn.their_state is not h11.IDLE:
            # a whole request head is in: no longer idle, its first request decides
            # (asgi.Front); a trickled, unfinished head stays idle and may be pushed out
            peer = tuple(self.client)
            if self.room.idle.pop(peer, None) is not None:
                self.room.unclassified[peer] = self
        self._arm()

    def on_response_complete(self) -> None:
        """As uvicorn does; the next request head then has its deadline."""
        super().on_response_complete()
        self._arm()

    def send_400_response(self, msg: str) -> None:
        """Malformed HTTP: a 400 sentence with the security headers, then close."""
        self.transport.write(raw_answer(400, b"Bad Request", BAD_REQUEST_SENTENCE))
        self.transport.close()

    # -- deadlines ---------------------------------------------------------------------------

    def _arm(self) -> None:
        """The deadline that fits the request's state: its head, its body, or none."""
        if self.transport is None or self.transport.is_closing():
            return
        state = self.conn.their_state
        wanted = "head" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if wanted != self.deadline_kind:
            self._set_deadline(wanted)

    def _set_deadline(self, kind: str | None) -> None:
        """Replace the running deadline with one for `kind` (None: no deadline)."""
        if self.deadline is not None:
            self.deadline.cancel()
        self.deadline, self.deadline_kind = None, kind
        if kind is not None:
            seconds = HEAD_TIMEOUT_S if kind == "head" else BODY_TIMEOUT_S
            seconds = float(self.room.app.config.get(f"ROOM_{kind.upper()}_TIMEOUT_S", seconds))
            self.deadline = self.loop.call_later(seconds, self._expired, kind, seconds)

    def _expired(self, kind: str, seconds: float) -> None:
        """The request's head or body did not arrive in time: close the connection."""
        self.deadline, self.deadline_kind = None, None
        if self.transport.is_closing():
            return
        address = self.client[0] if self.client else "?"
        what = "its request headers" if kind == "head" else "the body it announced"
        self.room.log.note(
            f"deadline:{kind}",
            f"Closed a connection from {address[:64]} that did not send {what} within "
            f"{seconds:g} s",
        )
        self.transport.abort()

    # -- a client that stopped reading -------------------------------------------------------

    def pause_writing(self) -> None:
        """The client reads slower than we write: cut it if it stays so for WRITE_STALL_S."""
        super().pause_writing()
        if self.stall is None:
            seconds = float(self.room.app.config.get("ROOM_WRITE_STALL_S", WRITE_STALL_S))
            self.stall = self.loop.call_later(seconds, self._stalled)

    def resume_writing(self) -> None:
        """The client reads again."""
        super().resume_writing()
        self._cancel_stall()

    def _cancel_stall(self) -> None:
        """Stop the write-stall timer."""
        if self.stall is not None:
            self.stall.cancel()
            self.stall = None

    def _stalled(self) -> None:
        """The client read nothing for WRITE_STALL_S: cut the connection."""
        self.stall = None
        address = self.client[0] if self.client else "?"
        self.room.log.note("stall", f"Cut a connection from {address[:64]} that stopped reading")
        self.transport.abort()
