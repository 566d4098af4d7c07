"""Flask behind the server front: each request runs to its end in a worker thread.

a2wsgi's WSGIMiddleware streams the request body and the response between the event loop
and the worker chunk by chunk: three or four thread <-> loop hand-offs for a small answer,
each waiting for the GIL, which doubled the cost of a request and halved the throughput
(docs/live.md). The companion's requests and answers are small (bodies are capped by
MAX_CONTENT_LENGTH, pages and JSON are kilobytes), so this bridge reads the body on the
loop, runs the app in the pool and writes the whole answer at once: one hand-off. The WSGI
environ is a2wsgi's (`build_environ`, PEP 3333).

Since the whole body is read here, a chunked body (`Transfer-Encoding: chunked`, no
Content-Length) reaches Flask like any other, with its length; a request whose client went
away before its body was complete never reaches Flask (half a move is no move).
"""

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import build_environ
from flask import Flask

#: What a body may hold when the app sets no limit (Flask would read it all anyway).
UNLIMITED = None
#: Methods that only read; every other one may write (a move, a lock-in, a setting).
READS = frozenset({"GET", "HEAD", "OPTIONS"})


class Writes:
    """How many writing requests are being answered now, and a way to wait until none is.

    The live hub's renders wait here (live/renders.py): renders and writes share one GIL,
    and a burst of moves answered while pages render took several times as long (issue 33,
    item 8); rendered after the writes, one round also covers more of them.
    """

    def __init__(self) -> None:
        """None in flight."""
        self.running = 0
        self.none = asyncio.Event()
        self.none.set()

    def started(self) -> None:
        """One more write is being answered (on the loop)."""
        self.running += 1
        self.none.clear()

    def ended(self) -> None:
        """One write was answered (on the loop)."""
        self.running -= 1
        if self.running <= 0:
            self.running = 0
            self.none.set()

    async def settled(self, at_most_s: float) -> None:
        """Return once no write is in flight, or after `at_most_s` (renders never starve)."""
        if self.running:
            try:
                async with asyncio.timeout(at_most_s):
                    await self.none.wait()
            except TimeoutError:
                pass


class ThreadedWSGI:
    """An ASGI app that runs a WSGI app in a pool of `workers` threads, buffered."""

    def __init__(self, app: Flask, workers: int) -> None:
        """Wrap `app` with its own thread pool."""
        self.app = app
        self.executor = ThreadPoolExecutor(workers, thread_name_prefix="flask")
        self.writes = Writes()

    async def _body(self, receive) -> bytes | None:
        """The request body, cut one byte past MAX_CONTENT_LENGTH (Flask answers 413); None
        when the client went away before sending all of it."""
        limit = self.app.config.get("MAX_CONTENT_LENGTH", UNLIMITED)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None  # the client went away (or its body was too slow: server/protocol)
            chunk = message.get("body", b"")
            chunks.append(chunk)
            size += len(chunk)
            if not message.get("more_body") or (limit is not None and size > limit):
                break
        return b"".join(chunks)

    def _run(self, environ: dict) -> tuple[str, list, bytes]:
        """The app's whole answer to one request (in a worker thread)."""
        answer: dict = {}
        written: list[bytes] = []

        def start_response(status: str, headers: list, exc_info=None):
            """WSGI's start_response: nothing is sent before the app is done."""
            answer["status"], answer["headers"] = status, headers
            return written.append

        chunks = self.app(environ, start_response)
        try:
            written.extend(chunks)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
        return answer["status"], answer["headers"], b"".join(written)

    async def __call__(self, scope, receive, send) -> None:
        """Answer one HTTP request through the WSGI app (nothing if its body never came)."""
        body = await self._body(receive)
        if body is None:
            return
        environ = build_environ(scope, io.BytesIO(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)  # read whole here: Flask gets its length
        environ["CONTENT_LENGTH"] = str(len(body))
        loop = asyncio.get_running_loop()
        writing = scope["method"] not in READS
        if writing:
            self.writes.started()
        try:
            status, headers, body = await loop.run_in_executor(self.executor, self._run, environ)
        finally:
            if writing:
                self.writes.ended()
        await send(
            {
                "type": "http.response.start",
                "status": int(status.split(" ", 1)[0]),
                "headers": [
                    (name.lower().encode("latin-1"), value.encode("latin-1"))
                    for name, value in headers
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
