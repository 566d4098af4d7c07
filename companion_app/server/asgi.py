"""The server front: an ASGI app that holds what waits and hands the rest to Flask.

Three roads (docs/live.md):

- `GET /live/tables/<id>?page=table|history|device|results&lang=cs|en`: a page's live
  stream (server-sent events), held on the event loop by the hub (`server/live/hub.py`);
  `GET /live/room?lang=cs|en` the room display's.
- `GET` of a long-polling endpoint with `?wait=<etag>` (`store.changes.long_poll`: the device
  API): the waiting happens here, without a thread; then the request goes to Flask without
  `wait`, so Flask answers at once.
- Everything else: Flask, run to its end in a pool of `threads` threads (`server/wsgi.py`).
"""

import asyncio
import io
import json
import logging
import re
from urllib.parse import parse_qsl, urlencode

from a2wsgi.wsgi import build_environ
from flask import Flask
from werkzeug.exceptions import HTTPException

from companion_app.server import rights
from companion_app.server.guard import canonical_root, refused_host
from companion_app.server.known import is_known
from companion_app.server.live.hub import DEFAULT_MAX_VIEWERS, LiveHub
from companion_app.server.live.pages import (
    ROOM_KEY,
    ROOM_STREAM,
    STREAM_PREFIX,
    TABLE_PAGES,
    is_stream,
    room_page,
    room_page_asked,
)
from companion_app.server.live.polls import DEFAULT_MAX_POLLS
from companion_app.server.live.stream import Refused, Subscriber
from companion_app.server.protocol import RAW_SECURITY_HEADERS
from companion_app.server.room import BOX, EDIT, KNOWN, UNKNOWN_FULL, Refusal, Room, Shares, Ticket
from companion_app.server.wsgi import ThreadedWSGI
from companion_app.store.changes import MAX_ETAG, long_poll_etag

log = logging.getLogger(__name__)

#: Keep-alive comment on an idle stream (proxies and dead phones are noticed by writing).
KEEPALIVE_S = 15.0
#: Milliseconds a browser waits before reconnecting a dropped stream (EventSource's retry).
RECONNECT_MS = 2000
BAD_REQUEST, NOT_FOUND, METHOD_NOT_ALLOWED, UNAVAILABLE = 400, 404, 405, 503
SERVER_ERROR = 500
UNEXPECTED = "Something went wrong on the server; nothing was changed. Please try again."
RETRY_AFTER_S = 5
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_HOST = re.compile(r"[A-Za-z0-9.:\[\]-]{1,255}")
_STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),
    *RAW_SECURITY_HEADERS,
]
_KEEPALIVE = b": keep-alive\n\n"


async def _error(send, status: int, message: str, headers: list | None = None) -> None:
    """Answer `{"error": message}` with `status`, like the API does."""
    body = json.dumps({"error": message}).encode()
    head = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *RAW_SECURITY_HEADERS,
        *(headers or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})


def _address(scope) -> str:
    """The client's address, or '' when the server does not know it."""
    client = scope.get("client")
    return client[0] if client else ""


def _header(scope, name: bytes) -> str:
    """A request header's value (latin-1), or ''."""
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return ""


class Front:
    """The ASGI application `companion serve` runs (one per app)."""

    def __init__(self, app: Flask, threads: int) -> None:
        """Wrap `app`; Flask requests run in a pool of `threads` threads."""
        self.app = app
        self.wsgi = ThreadedWSGI(app, threads)
        self.hub: LiveHub | None = None
        self.room = Room(
            app,
            max_streams=int(app.config.get("LIVE_MAX_VIEWERS", DEFAULT_MAX_VIEWERS)),
            max_polls=int(app.config.get("LIVE_MAX_POLLS", DEFAULT_MAX_POLLS)),
        )

    def _hub(self) -> LiveHub:
        """The hub, made on the running loop at the first request that needs it."""
        if self.hub is None:
            self.hub = LiveHub(self.app, self.wsgi.writes)
            # The room lets tables' own devices past the totals (room.Shares): its ceilings
            # are the hub's last backstop.
            self.hub.max_viewers = self.room.streams.ceiling
            self.hub.polls.max_polls = self.room.polls.ceiling
        return self.hub

    def close(self) -> None:
        """End the live streams and release the held polls (the server is stopping)."""
        if self.hub is not None:
            self.hub.close()

    def stop_threads(self) -> None:
        """Let Flask's threads go once the server has stopped."""
        self.wsgi.executor.shutdown(wait=False)

    async def __call__(self, scope, receive, send) -> None:
        """Route one ASGI connection scope; an unexpected failure is one log line and a 500."""
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        started: list[bool] = []

        async def tracked_send(message: dict) -> None:
            """`send`, noting that the answer has started."""
            started.append(True)
            await send(message)

        try:
            await self._route(scope, receive, tracked_send)
        except Exception:
            self.room.log.note(
                "front:500",
                f"Unexpected error on {scope['method']} {scope['path'][:80]}",
                lambda line: log.exception(line),
            )
            if not started:
                await _error(send, SERVER_ERROR, UNEXPECTED)

    async def _route(self, scope, receive, send) -> None:
        """Streams to the hub, held polls to the loop, the rest to Flask."""
        path = scope["path"]
        held = is_stream(path) or (scope["method"] == "GET" and b"wait=" in scope["query_string"])
        host = _header(scope, b"host")
        refusal = refused_host(self.app, host) if held else None
        if refusal:  # DNS rebinding, or no Host at all: Flask checks the rest (server/guard.py)
            await _error(send, BAD_REQUEST, refusal)
            return
        if not self._first_request(scope):
            close = [*_retry(), (b"connection", b"close")]
            await _error(send, UNAVAILABLE, UNKNOWN_FULL["connection"], close)
            return
        if is_stream(path):
            await self._stream(scope, receive, send)
            return
        if scope["method"] == "GET" and b"wait=" in scope["query_string"]:
            scope, receive = await self._hold(scope, receive, send)
            if scope is None:
                return
        await self.wsgi(scope, receive, send)
        if self.hub is not None:
            self.hub.response_sent()  # a write's live updates start once it is answered

    async def _lifespan(self, receive, send) -> None:
        """Start up at once; on shutdown end the hub (normally already closed by the feed)."""
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    # -- device long polls -----------------------------------------------------------------

    async def _hold(self, scope, receive, send):
        """Wait for a `?wait=` poll's etag to move: (scope, receive) to hand Flask, or
        (None, None) when it was answered here or its client went away."""
        pairs = parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)
        seen = next((value for key, value in pairs if key == "wait"), None)
        if seen is None or len(seen) > MAX_ETAG:
            return scope, receive  # not a poll, or one Flask refuses
        try:
            endpoint, args = self.app.url_map.bind("localhost").match(scope["path"], "GET")
        except HTTPException:
            return scope, receive
        if long_poll_etag(self.app, endpoint) is None or self._revoked_key(scope):
            return scope, receive  # a revoked key: Flask answers 403 at once, nothing held
        try:
            share = self._take(self.room.polls, scope, args.get("table_id"))
        except Refusal as refused:
            await _error(send, refused.status, str(refused), _retry(refused.retry_after))
            return None, None
        try:
            return await self._wait_poll(scope, receive, send, (endpoint, args, seen, pairs))
        finally:
            self.room.polls.give_back(share)

    async def _wait_poll(self, scope, receive, send, poll):
        """Hold a poll whose share is taken: as `_hold`."""
        endpoint, args, seen, pairs = poll
        received: list[dict] = []
        holding = asyncio.ensure_future(self._hub().hold_poll(endpoint, args, seen))
        gone = asyncio.ensure_future(_until_disconnect(receive, received))
        try:
            await asyncio.wait({holding, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (holding, gone):
                task.cancel()
        if not holding.cancelled() and holding.done() and holding.exception() is None:
            rest = urlencode([(key, value) for key, value in pairs if key != "wait"])
            return {**scope, "query_string": rest.encode("latin-1")}, _replay(received, receive)
        if gone.done() and not gone.cancelled():
            return None, None  # the client hung up: the poll no longer holds a place
        refused = holding.exception()
        if not isinstance(refused, Refused):
            raise refused
        await _error(send, refused.status, str(refused), _retry())
        return None, None

    # -- the room's shares -----------------------------------------------------------------

    def _first_request(self, scope) -> bool:
        """False for a connection's first request when the unknown devices' share of the
        connections is full and this one is not a known device's: it is then answered 503
        and closed (issue 33, item 3). Later requests on a connection always pass."""
        peer = scope.get("client")
        if not peer:
            return True
        return self.room.first_request(
            tuple(peer), lambda: self._privileged(scope, self._table_of(scope))
        )

    def _table_of(self, scope) -> str | None:
        """The table a request's URL names, if any."""
        path = scope["path"]
        if path.startswith(STREAM_PREFIX):
            return path[len(STREAM_PREFIX) :] or None
        try:
            _endpoint, args = self.app.url_map.bind("localhost").match(path, scope["method"])
        except HTTPException:
            return None
        table_id = args.get("table_id")
        return table_id if isinstance(table_id, str) else None

    def _take(self, shares: Shares, scope, table_id: str | None) -> Ticket:
        """One of `shares` for the client's address (Refusal past its share or a full room)."""
        return self.room.take(
            shares, _address(scope), lambda: self._privileged(scope, table_id), table_id
        )

    def _revoked_key(self, scope) -> bool:
        """True if the request sends an organiser or device key the organiser revoked."""
        if not any(name == b"authorization" for name, _value in scope["headers"]):
            return False
        with self.app.request_context(build_environ(scope, io.BytesIO())):
            return rights.refuse_revoked() is not None

    def _privileged(self, scope, table_id: str | None) -> str | None:
        """What this request is to the room: BOX for the box's bridge (its key), EDIT for the
        host, a scorer or a seat of the table it follows (both may use the reserved room),
        KNOWN for another device the companion knows (server/known.py), else None."""
        environ = build_environ(scope, io.BytesIO())
        with self.app.request_context(environ):
            if rights.is_box():
                return BOX
            if table_id is not None and table_id != ROOM_KEY:
                if rights.can_edit(table_id) or rights.seat_of(table_id) is not None:
                    return EDIT
            return KNOWN if is_known() else None

    # -- live streams ----------------------------------------------------------------------

    def _stream_request(self, scope) -> tuple[str, str, str, str]:
        """(table or ROOM_KEY, page, language, canonical address) of a stream, or Refused."""
        query = dict(parse_qsl(scope["query_string"].decode("latin-1")))
        if scope["path"] == ROOM_STREAM:  # one page of the room display (issue 33 item 5)
            number = room_page_asked(query.get("page"))
            if number is None:
                raise Refused(BAD_REQUEST, "page must be a whole number from 1.")
            table_id, page = ROOM_KEY, room_page(number)
        else:
            table_id = scope["path"][len(STREAM_PREFIX) :]
            if not _TABLE_ID.fullmatch(table_id):
                raise Refused(NOT_FOUND, f"There is nothing at {scope['path'][:80]}.")
            page = query.get("page", "")
            if page not in TABLE_PAGES:
                raise Refused(BAD_REQUEST, f"page must be one of {', '.join(TABLE_PAGES)}.")
        languages = self.app.config["LANGUAGES"]
        lang = query.get("lang") or self.app.config["BABEL_DEFAULT_LOCALE"]
        if lang not in languages:
            raise Refused(BAD_REQUEST, f"lang must be one of {', '.join(languages)}.")
        host = _header(scope, b"host")
        if not _HOST.fullmatch(host):
            raise Refused(BAD_REQUEST, "The Host header is not a host name.")
        return table_id, page, lang, canonical_root(self.app, host, scope.get("server"))

    async def _stream(self, scope, receive, send) -> None:
        """Hold one live stream: the page now, then every newer version, until it closes."""
        if scope["method"] != "GET":
            allow = [(b"allow", b"GET")]
            await _error(send, METHOD_NOT_ALLOWED, "Live streams are read with GET.", allow)
            return
        try:
            request = self._stream_request(scope)
            share = self._take(self.room.streams, scope, request[0])
        except (Refused, Refusal) as refused:
            await _error(send, refused.status, str(refused), _retry(_retry_after(refused)))
            return
        try:
            await self._follow(request, receive, send)
        finally:
            self.room.streams.give_back(share)

    async def _follow(self, request: tuple[str, str, str, str], receive, send) -> None:
        """Subscribe to the hub and write the stream until it ends."""
        try:
            subscriber = await self._hub().subscribe(*request)
        except Refused as refused:
            await _error(send, refused.status, str(refused), _retry())
            return
        hub = self._hub()
        watcher = hub.loop.create_task(_watch_disconnect(receive, subscriber))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": _STREAM_HEADERS})
            first = f"retry: {RECONNECT_MS}\n\n".encode() + subscriber.take()
            await send({"type": "http.response.body", "body": first, "more_body": True})
            await _pump(subscriber, send)
            await send({"type": "http.response.body", "body": b""})
        finally:
            hub.unsubscribe(subscriber)
            watcher.cancel()


def _retry(seconds: int = RETRY_AFTER_S) -> list[tuple[bytes, bytes]]:
    """The Retry-After header of a refusal that may succeed later."""
    return [(b"retry-after", str(seconds).encode())]


def _retry_after(refused: Exception) -> int:
    """The seconds a refusal asks for (the room's rate says; the rest wait RETRY_AFTER_S)."""
    return getattr(refused, "retry_after", RETRY_AFTER_S)


async def _pump(subscriber: Subscriber, send) -> None:
    """Write the subscriber's events as they come, a keep-alive comment when idle."""
    while not subscriber.closed:
        try:
            async with asyncio.timeout(KEEPALIVE_S):
                await subscriber.wake.wait()
        except TimeoutError:
            await send({"type": "http.response.body", "body": _KEEPALIVE, "more_body": True})
            continue
        chunk = subscriber.take()
        if chunk and not subscriber.closed:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})


async def _until_disconnect(receive, received: list[dict]) -> None:
    """Return when the client goes away; keep the request's messages for Flask."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        received.append(message)


def _replay(received: list[dict], receive):
    """A `receive` that gives the kept request messages first, then the connection's."""
    kept = list(received)

    async def replay() -> dict:
        """The next request message."""
        return kept.pop(0) if kept else await receive()

    return replay


async def _watch_disconnect(receive, subscriber: Subscriber) -> None:
    """End the stream when the client goes away."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            subscriber.end()
            return
