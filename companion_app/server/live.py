"""The live hub: every open page follows its table through one event stream, held threadless.

Runs on the server front's event loop (`server/asgi.py`). Subscribers are grouped by (table,
page, language, host); when a table changes, each group's page is rendered ONCE, as a plain
viewer, in a small thread pool (`live_pages.render`), and the same bytes go to every
subscriber of the group as `event: update` with `{"version", "html"}`. Pages with the box
panel also get `event: frame` (the strip while a raid or a countdown animates, one frame
computed per table every FRAME_S) and `event: status` (bridge mode and the followed table).

Changes are noticed through the app's ChangeFeed (a listener hands each notification to the
loop) and, for writes by other processes, by re-reading every followed table's live version
every DEVICE_RECHECK_S. The same rounds release the device API's long polls (`hold_poll`),
which wait here, not in a thread. docs/live.md explains the choices.
"""

import asyncio
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from flask import Flask

from companion_app.server import live_pages
from companion_app.server.live_pages import PANEL_PAGES, Rendered
from companion_app.store import TableNotFound
from companion_app.store.changes import get_feed, long_poll_etag, long_poll_limits

log = logging.getLogger(__name__)

#: Threads that render pages and read versions for the hub (never one per viewer).
HUB_THREADS = 2
#: Most live streams one process holds; more get 503 and retry later (live.js).
DEFAULT_MAX_VIEWERS = 1000
#: Most device long polls held at once; more get 503 (the bridge retries).
DEFAULT_MAX_POLLS = 500
#: Seconds between two frames of a running animation (the panel's old poll rate).
FRAME_S = 0.1
#: Seconds between checks of the bridge status (its report expires after 3 s).
STATUS_S = 1.0
#: The order in which a subscriber's pending events are written.
EVENT_ORDER = ("update", "status", "frame")
#: Loopback host of the hub's own JSON reads (frames, status).
INTERNAL_HOST = "127.0.0.1"
INTERNAL_LANG = "en"
NOT_FOUND, UNAVAILABLE = 404, 503


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
    """One open stream: the latest pending event of each kind and a wake-up."""

    group: "Group"
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    pending: dict[str, bytes] = field(default_factory=dict)
    closed: bool = False

    def offer(self, kind: str, event: bytes) -> None:
        """Queue `event`, replacing an unsent one of the same kind (only the latest matters)."""
        self.pending[kind] = event
        self.wake.set()

    def take(self) -> bytes:
        """Everything pending, in EVENT_ORDER, and clear the wake-up."""
        chunk = b"".join(self.pending[kind] for kind in EVENT_ORDER if kind in self.pending)
        self.pending.clear()
        self.wake.clear()
        return chunk

    def end(self) -> None:
        """Finish the stream (the hub closes, or the client went away)."""
        self.closed = True
        self.wake.set()


@dataclass(eq=False)
class Group:
    """Subscribers of one page of one table in one language through one host."""

    table_id: str
    page: str
    lang: str
    host: str
    subscribers: set[Subscriber] = field(default_factory=set)
    version: tuple[int, ...] | None = None
    event: bytes | None = None
    ready: "asyncio.Task | None" = None


@dataclass(eq=False)
class Watch:
    """A followed table: its groups, the last version seen, and what runs for it."""

    groups: dict[tuple[str, str, str], Group] = field(default_factory=dict)
    version: str | None = None
    refreshing: bool = False
    again: bool = False
    animating: bool = False
    frame: bytes | None = None


class LiveHub:
    """Live streams and held long polls of one app, on the running event loop."""

    def __init__(self, app: Flask) -> None:
        """Bind to the running loop and listen to the app's change feed."""
        self.app = app
        self.loop = asyncio.get_running_loop()
        self.executor = ThreadPoolExecutor(HUB_THREADS, thread_name_prefix="live")
        self.long_poll_s, self.recheck_s = long_poll_limits(app)
        self.max_viewers = int(app.config.get("LIVE_MAX_VIEWERS", DEFAULT_MAX_VIEWERS))
        self.max_polls = int(app.config.get("LIVE_MAX_POLLS", DEFAULT_MAX_POLLS))
        self.watches: dict[str, Watch] = {}
        self.polls: dict[tuple, dict[asyncio.Future, str]] = {}
        self.viewers = 0
        self.held = 0
        self.generation = 0
        self.closed = False
        self.wake = asyncio.Event()
        self.status: bytes | None = None
        self.status_payload: dict | None = None
        self.last_status = 0.0
        self.runner: asyncio.Task | None = None
        self.tasks: set[asyncio.Task] = set()
        self.feed = get_feed(app)
        self.feed.add_listener(self._on_change)
        if self.feed.closed:
            self.close()

    # -- change notifications ------------------------------------------------------------

    def _on_change(self, closed: bool) -> None:
        """ChangeFeed listener (any thread): hand the news to the loop."""
        try:
            self.loop.call_soon_threadsafe(self._changed, closed)
        except RuntimeError:
            pass  # the loop is closed: the server has stopped

    def _changed(self, closed: bool) -> None:
        """On the loop: a write happened (run a round now), or the app is stopping."""
        self.generation += 1
        if closed:
            self.close()
        else:
            self.wake.set()

    def _spawn(self, coroutine) -> asyncio.Task:
        """Run `coroutine` as a task the hub keeps a reference to (and whose failure it logs)."""
        task = self.loop.create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task) -> None:
        """Done callback: forget the task; log an unexpected failure (a refusal is not one)."""
        self.tasks.discard(task)
        if task.cancelled():
            return
        failure = task.exception()
        if failure is not None and not isinstance(failure, Refused) and not self.closed:
            log.error("live hub task failed", exc_info=failure)

    def _ensure_running(self) -> None:
        """Start the loop of rounds (once)."""
        if self.runner is None and not self.closed:
            self.runner = self._spawn(self._run())

    async def _call(self, function: Callable, *args):
        """`function(*args)` in the hub's threads, inside an app context."""
        return await self.loop.run_in_executor(self.executor, self._in_app, function, args)

    def _in_app(self, function: Callable, args: tuple):
        """Worker-thread side of `_call`."""
        with self.app.app_context():
            return function(*args)

    # -- rounds: what changed? -------------------------------------------------------------

    async def _run(self) -> None:
        """Wake on every notification, and every recheck period for other processes."""
        while not self.closed:
            try:
                async with asyncio.timeout(self.recheck_s):
                    await self.wake.wait()
            except TimeoutError:
                pass
            woke = self.wake.is_set()
            self.wake.clear()
            if self.closed:
                break
            if self.watches or self.polls:
                try:
                    await self._round(woke)
                except Exception:  # a failed round must not end live updates for good
                    log.exception("live update round failed")

    def _read(self, tables: list[str], poll_keys: list[tuple]) -> tuple[dict, dict]:
        """(live version of each table or None, etag of each poll key or None); in a thread."""
        versions: dict[str, str | None] = {}
        for table_id in tables:
            try:
                versions[table_id] = live_pages.live_version(table_id)
            except TableNotFound:
                versions[table_id] = None
        etags: dict[tuple, str | None] = {}
        for key in poll_keys:
            endpoint, args = key
            etag = long_poll_etag(self.app, endpoint)
            try:
                etags[key] = None if etag is None else etag(**dict(args))
            except Exception:  # e.g. no such table: let the view answer the error now
                etags[key] = None
        return versions, etags

    async def _round(self, woke: bool) -> None:
        """Re-read versions and etags; refresh changed tables, release moved polls."""
        versions, etags = await self._call(self._read, list(self.watches), list(self.polls))
        for table_id, version in versions.items():
            watch = self.watches.get(table_id)
            if watch is not None and version is not None and version != watch.version:
                watch.version = version
                self._refresh(table_id, watch)
        for key, etag in etags.items():
            for future, seen in list(self.polls.get(key, {}).items()):
                if (etag is None or etag != seen) and not future.done():
                    future.set_result(None)
        due = time.monotonic() - self.last_status >= STATUS_S
        if (woke or due) and self._panel_subscribers():
            self.last_status = time.monotonic()
            await self._refresh_status()

    # -- pages -----------------------------------------------------------------------------

    async def _render(self, group: Group) -> Rendered:
        """Render the group's page once, in the hub's threads."""
        return await self.loop.run_in_executor(
            self.executor,
            live_pages.render,
            self.app,
            group.table_id,
            group.page,
            group.lang,
            group.host,
        )

    def _accept(self, group: Group, rendered: Rendered) -> None:
        """Push a render to the group's subscribers if it is newer than the last one."""
        if rendered.html is None or rendered.version is None:
            return
        version = live_pages.version_key(rendered.version)
        if group.version is not None and version <= group.version:
            return
        group.version = version
        group.event = sse_event("update", {"version": rendered.version, "html": rendered.html})
        for subscriber in group.subscribers:
            subscriber.offer("update", group.event)

    def _refresh(self, table_id: str, watch: Watch) -> None:
        """Re-render every group of a changed table (again after, if it changes meanwhile)."""
        if watch.refreshing:
            watch.again = True
            return
        watch.refreshing = True
        self._spawn(self._refresh_loop(table_id, watch))

    async def _refresh_loop(self, table_id: str, watch: Watch) -> None:
        """Render each group once per change, push, then look at the box's animation."""
        try:
            while not self.closed:
                watch.again = False
                groups = list(watch.groups.values())
                results = await asyncio.gather(
                    *(self._render(group) for group in groups), return_exceptions=True
                )
                for group, rendered in zip(groups, results, strict=True):
                    if isinstance(rendered, Rendered):
                        self._accept(group, rendered)
                    else:
                        log.error("live render of %s failed", table_id, exc_info=rendered)
                if any(group.page in PANEL_PAGES for group in groups):
                    await self._check_frame(table_id, watch)
                if not watch.again:
                    break
        finally:
            watch.refreshing = False

    async def _first_render(self, watch: Watch, group: Group) -> None:
        """A new group's first page (refuses the stream if the page is not there to follow)."""
        rendered = await self._render(group)
        if rendered.status == NOT_FOUND:
            raise Refused(NOT_FOUND, f"There is no table {group.table_id[:40]}.")
        if rendered.html is None or rendered.version is None:
            raise Refused(rendered.status, f"This page cannot be followed ({rendered.status}).")
        self._accept(group, rendered)
        if watch.version is None:
            watch.version = rendered.version
        if group.page in PANEL_PAGES and not watch.animating:
            self._spawn(self._check_frame(group.table_id, watch))

    def _groups_of(self, table_id: str | None, panel_only: bool) -> list[Group]:
        """The groups of one table (None: every table), only the box-panel pages if asked."""
        watches = [self.watches.get(table_id)] if table_id else list(self.watches.values())
        return [
            group
            for watch in watches
            if watch is not None
            for group in watch.groups.values()
            if group.page in PANEL_PAGES or not panel_only
        ]

    def _panel_subscribers(self) -> bool:
        """True if any open page shows the box panel."""
        return any(group.subscribers for group in self._groups_of(None, panel_only=True))

    # -- the box panel: frames and status --------------------------------------------------

    def _json(self, path: str) -> dict | None:
        """A JSON GET through the app as a viewer (in a thread); None unless 200."""
        status, body, _ = live_pages.internal_get(
            self.app, path, lang=INTERNAL_LANG, host=INTERNAL_HOST
        )
        return json.loads(body) if status == 200 else None

    def _path(self, endpoint: str, **args: str) -> str:
        """The URL path of an app endpoint."""
        return self.app.url_map.bind("localhost").build(endpoint, args)

    async def _check_frame(self, table_id: str, watch: Watch) -> None:
        """Fetch the table's frame; while the box animates, push frames every FRAME_S."""
        if watch.animating:
            return
        watch.animating = True
        try:
            path = self._path("api_device.table_frame", table_id=table_id)
            while not self.closed and self.watches.get(table_id) is watch:
                frame = await self.loop.run_in_executor(self.executor, self._json, path)
                if frame is None:
                    break
                animating = bool(frame.get("animation"))
                if animating or watch.frame is not None:
                    watch.frame = sse_event("frame", frame)
                    for group in self._groups_of(table_id, panel_only=True):
                        for subscriber in group.subscribers:
                            subscriber.offer("frame", watch.frame)
                if not animating:
                    watch.frame = None
                    break
                await asyncio.sleep(FRAME_S)
        finally:
            watch.animating = False

    def _read_status(self) -> dict | None:
        """The bridge's mode and link, and the followed table (in a thread)."""
        status = self._json(self._path("api_device.get_device_status"))
        followed = self._json(self._path("api_device.get_followed"))
        if status is None or followed is None:
            return None
        return {
            "mode": status.get("mode"),
            "connected": bool(status.get("connected")),
            "followed": followed.get("table"),
        }

    async def _refresh_status(self) -> None:
        """Push `event: status` to every box-panel page when the bridge or the choice moved."""
        payload = await self.loop.run_in_executor(self.executor, self._read_status)
        if payload is None or payload == self.status_payload:
            return
        self.status_payload = payload
        self.status = sse_event("status", payload)
        for group in self._groups_of(None, panel_only=True):
            for subscriber in group.subscribers:
                subscriber.offer("status", self.status)

    # -- subscribing -----------------------------------------------------------------------

    async def subscribe(self, table_id: str, page: str, lang: str, host: str) -> Subscriber:
        """A new stream of `page` of the table; its first event is the page as it is now."""
        if self.closed:
            raise Refused(UNAVAILABLE, "The companion is stopping.")
        if self.viewers >= self.max_viewers:
            raise Refused(UNAVAILABLE, "Too many live pages are open; trying again shortly.")
        watch = self.watches.setdefault(table_id, Watch())
        group = watch.groups.get((page, lang, host))
        if group is None:
            group = Group(table_id, page, lang, host)
            watch.groups[(page, lang, host)] = group
            group.ready = self._spawn(self._first_render(watch, group))
        subscriber = Subscriber(group)
        group.subscribers.add(subscriber)
        self.viewers += 1
        try:
            await asyncio.shield(group.ready)
        except BaseException:
            self.unsubscribe(subscriber)
            raise
        if group.event is not None:
            subscriber.offer("update", group.event)
        if page in PANEL_PAGES:
            if self.status is not None:
                subscriber.offer("status", self.status)
            else:
                self.wake.set()  # a round fetches the status for the new panel
            if watch.frame is not None:
                subscriber.offer("frame", watch.frame)
        self._ensure_running()
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Forget a stream; a group, then a table, without subscribers is dropped."""
        group = subscriber.group
        if subscriber not in group.subscribers:
            return
        group.subscribers.discard(subscriber)
        self.viewers -= 1
        watch = self.watches.get(group.table_id)
        if group.subscribers or watch is None:
            return
        key = (group.page, group.lang, group.host)
        if watch.groups.get(key) is group:
            del watch.groups[key]
        if not watch.groups:
            del self.watches[group.table_id]

    # -- device long polls -----------------------------------------------------------------

    async def hold_poll(self, endpoint: str, args: dict, seen: str) -> None:
        """Return once the endpoint's etag differs from `seen`, time is up or the hub stops."""
        if self.closed:
            return
        if self.held >= self.max_polls:
            raise Refused(UNAVAILABLE, "Too many long polls are waiting; try again shortly.")
        key = (endpoint, tuple(sorted(args.items())))
        generation = self.generation
        etag = (await self._call(self._read, [], [key]))[1][key]
        if etag is None or etag != seen or self.closed:
            return
        future = self.loop.create_future()
        waiting = self.polls.setdefault(key, {})
        waiting[future] = seen
        self.held += 1
        if self.generation != generation:
            self.wake.set()  # a write landed while we read: look again
        self._ensure_running()
        try:
            async with asyncio.timeout(self.long_poll_s):
                await future
        except TimeoutError:
            pass
        finally:
            self.held -= 1
            waiting.pop(future, None)
            if not waiting and self.polls.get(key) is waiting:
                del self.polls[key]

    # -- stopping --------------------------------------------------------------------------

    def close(self) -> None:
        """End every stream and release every poll (the server is stopping)."""
        if self.closed:
            return
        self.closed = True
        self.feed.remove_listener(self._on_change)
        for group in self._groups_of(None, panel_only=False):
            for subscriber in list(group.subscribers):
                subscriber.end()
        for waiting in self.polls.values():
            for future in waiting:
                if not future.done():
                    future.set_result(None)
        self.wake.set()
        self.executor.shutdown(wait=False, cancel_futures=True)
