"""The live hub: every open page follows its table through one event stream, held threadless.

Runs on the server front's event loop (`server/asgi.py`). Subscribers are grouped by (table,
page, language, canonical address) (`live/groups.py`; the room display is followed under
`pages.ROOM_KEY`, its version moving with every table's); when a table changes, each group's
page is rendered ONCE, as a plain viewer, in a small thread pool, and the same bytes go to
every subscriber of the group (`live/renders.py`); with workers, by the worker that owns the
table, for every worker whose viewers follow the group (`live/relay.py`). Pages with the box
panel also get frames and the bridge status (`live/panel.py`). This module decides when: it
notices changes and runs the rounds.

Changes are noticed through the app's ChangeFeed (a listener hands each notification to the
loop) and, for writes by other processes, by re-reading every followed table's live version
every DEVICE_RECHECK_S. A change of what the box reports it draws (the bridge status's
`drawn`) wakes a round at once too (the feed's `nudge`), for the box panels' frames. The same
rounds release the device API's long polls (`polls`), which wait here, not in a thread.
docs/live.md explains the choices.
"""

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from flask import Flask

from companion_app.server.live import pages
from companion_app.server.live.groups import Followers, Group, Watch
from companion_app.server.live.pages import PANEL_PAGES
from companion_app.server.live.panel import PanelFeed
from companion_app.server.live.polls import DEFAULT_MAX_POLLS, HeldPolls, PollKey, poll_key
from companion_app.server.live.relay import DROP, RELAY, RENDER, WANT, Relay, group_of
from companion_app.server.live.renders import Renders
from companion_app.server.live.stream import Refused, Subscriber
from companion_app.server.wsgi import Writes
from companion_app.store import TableNotFound
from companion_app.store.changes import get_feed, long_poll_etag, long_poll_limits

log = logging.getLogger(__name__)

#: Threads that render pages and read versions for the hub (never one per viewer).
HUB_THREADS = 2
#: Most live streams the server holds (all its workers); more get 503 and retry later
#: (live.js). A convention is 2,000 phones, and unknown devices may hold 70 % (room.py).
DEFAULT_MAX_VIEWERS = 4000
#: Longest a round waits, after a write, for the front to say the writer's response went.
RESPONSE_WAIT_S = 0.05
#: Longest a render or a round's reads wait for the writes being answered (wsgi.Writes).
YIELD_TO_WRITES_S = 0.5
UNAVAILABLE = 503


class LiveHub:
    """Live streams and held long polls of one app, on the running event loop."""

    def __init__(self, app: Flask, writes: Writes | None = None) -> None:
        """Bind to the running loop and listen to the app's change feed; renders let the
        front's `writes` in flight go first."""
        self.app = app
        self.writes = writes or Writes()
        self.loop = asyncio.get_running_loop()
        self.executor = ThreadPoolExecutor(HUB_THREADS, thread_name_prefix="live")
        long_poll_s, self.recheck_s = long_poll_limits(app)
        self.max_viewers = int(app.config.get("LIVE_MAX_VIEWERS", DEFAULT_MAX_VIEWERS))
        max_polls = int(app.config.get("LIVE_MAX_POLLS", DEFAULT_MAX_POLLS))
        self.polls = HeldPolls(long_poll_s, max_polls)
        self.panel = PanelFeed(self)
        self.followers = Followers()
        self.renders = Renders(self)
        self.generation = 0
        self.rounds = 0
        self.dirty = False
        self.closed = False
        self.wake = asyncio.Event()
        self.runner: asyncio.Task | None = None
        self.tasks: set[asyncio.Task] = set()
        self.feed = get_feed(app)
        self.feed.add_listener(self._on_change)
        self.feed.add_nudge_listener(self._on_drawn)
        #: With workers: the other workers render the groups of the tables they own.
        self.relay: Relay | None = app.extensions.get(RELAY)
        if self.relay is not None:
            self.relay.start(self.loop, self._on_relay)
        if self.feed.closed:
            self.close()

    # -- plumbing --------------------------------------------------------------------------

    def _on_change(self, closed: bool) -> None:
        """ChangeFeed listener (any thread): hand the news to the loop."""
        try:
            self.loop.call_soon_threadsafe(self._changed, closed)
        except RuntimeError:
            pass  # the loop is closed: the server has stopped

    def _on_drawn(self) -> None:
        """Nudge listener (the bridge's thread): the box's anchors moved; a round now (no
        response to wait for: it was no request's write)."""
        try:
            self.loop.call_soon_threadsafe(self.wake.set)
        except RuntimeError:
            pass  # the loop is closed: the server has stopped

    def _changed(self, closed: bool) -> None:
        """On the loop: a write happened (a round follows its response), or the app stops."""
        self.generation += 1
        if closed:
            self.close()
        elif not self.dirty:
            self.dirty = True
            self.loop.call_later(RESPONSE_WAIT_S, self.response_sent)

    def response_sent(self) -> None:
        """A Flask response went out (the front says so): run the round a write asked for.

        Renders hold the GIL for tens of milliseconds; started while the writer's own
        response is still on its way, they made the move's POST wait for them.
        """
        if self.dirty:
            self.dirty = False
            self.wake.set()

    def spawn(self, coroutine) -> asyncio.Task:
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
            self.runner = self.spawn(self._run())

    async def in_threads(self, function: Callable, *args):
        """`function(*args)` in the hub's threads, once the writes in flight are answered."""
        await self.writes.settled(YIELD_TO_WRITES_S)
        return await self.loop.run_in_executor(self.executor, function, *args)

    def _in_app(self, function: Callable, *args):
        """`function(*args)` inside an app context (called in the hub's threads)."""
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
            if self.watches or self.polls.waiting:
                try:
                    await self._round(woke)
                except Exception:  # a failed round must not end live updates for good
                    log.exception("live update round failed")

    def _read(self, tables: list[str], keys: list[PollKey]) -> tuple[dict, dict]:
        """(live version of each table or None, etag of each poll key or None); in a thread."""
        versions: dict[str, str | None] = {}
        for table_id in tables:
            try:
                versions[table_id] = pages.watched_version(table_id)
            except TableNotFound:
                versions[table_id] = None
        etags: dict[PollKey, str | None] = {}
        for key in keys:
            endpoint, args = key
            etag = long_poll_etag(self.app, endpoint)
            try:
                etags[key] = None if etag is None else etag(**dict(args))
            except Exception:  # e.g. no such table: let the view answer the error now
                etags[key] = None
        return versions, etags

    async def _round(self, woke: bool) -> None:
        """Re-read versions and etags; refresh changed tables, release moved polls."""
        self.rounds += 1
        versions, etags = await self.in_threads(
            self._in_app, self._read, list(self.watches), self.polls.keys()
        )
        for table_id, version in versions.items():
            watch = self.watches.get(table_id)
            if watch is not None and version is not None and version != watch.version:
                watch.version = version
                self.renders.refresh(table_id, watch)
        self.polls.release(etags)
        if self.panel.status_due(woke) and self.followers.panel_followed():
            await self.panel.refresh_status()

    # -- subscribing -----------------------------------------------------------------------

    @property
    def watches(self) -> dict[str, Watch]:
        """The followed tables, by id."""
        return self.followers.watches

    @property
    def viewers(self) -> int:
        """How many streams are open."""
        return self.followers.viewers

    def groups_of(self, table_id: str | None, panel_only: bool) -> list[Group]:
        """The groups of one table (None: every table), only the box-panel pages if asked."""
        return self.followers.groups_of(table_id, panel_only)

    async def subscribe(self, table_id: str, page: str, lang: str, host: str) -> Subscriber:
        """A new stream of `page` of the table; its first event is the page as it is now.

        `host` is the canonical address the page links to (`guard.canonical_root`), never a
        raw Host header: the front computes it, so variants share one group.
        """
        if self.closed:
            raise Refused(UNAVAILABLE, "The companion is stopping.")
        if self.viewers >= self.max_viewers:
            raise Refused(UNAVAILABLE, "Too many live pages are open; trying again shortly.")
        watch, group, new = self.followers.join(table_id, page, lang, host)
        if new:
            group.ready = self.spawn(self.renders.first(watch, group))
            if self.relay is not None and self.relay.remote(table_id):
                self.relay.want(group.key)  # its owner sends each change's update
        subscriber = Subscriber(group)
        self.followers.add(subscriber)
        try:
            await asyncio.shield(group.ready)
        except BaseException:
            self.unsubscribe(subscriber)
            raise
        if group.event is not None:
            subscriber.offer("update", group.event)
        if page in PANEL_PAGES:
            if self.panel.status is not None:
                subscriber.offer("status", self.panel.status)
            else:
                self.wake.set()  # a round reads the status for the first panel
            if watch.frame is not None:
                subscriber.offer("frame", watch.frame)
        self._ensure_running()
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Forget a stream; a group, then a table, without subscribers is dropped."""
        group = subscriber.group
        if self.followers.leave(subscriber) and self.relay is not None:
            if self.relay.remote(group.table_id):
                self.relay.drop(group.key)

    # -- other workers' groups (live/relay.py) ---------------------------------------------

    def _on_relay(self, kind: bytes, sender: int, header: dict, event: bytes) -> None:
        """A message from another worker (on the loop)."""
        group_id = group_of(header)
        if group_id is None or self.closed:
            return
        if kind == WANT:
            self.spawn(self._render_for(sender, group_id))
        elif kind == DROP:
            self.followers.unfollow_for(sender, *group_id)
        elif kind == RENDER:
            self.renders.relayed(group_id, header.get("v"), event, header.get("own") is True)

    async def _render_for(self, worker: int, group_id) -> None:
        """Render a group of a table this worker owns for `worker`'s viewers, from now on."""
        watch, group, new = self.followers.follow_for(worker, *group_id)
        if new:
            group.ready = self.spawn(self.renders.first(watch, group))
        try:
            await asyncio.shield(group.ready)
        except Exception:  # no such table or page: the other worker's own first render said so
            self.followers.unfollow_for(worker, *group_id)
            return
        self.renders.send_to(worker, group, watch)
        self._ensure_running()

    # -- device long polls -----------------------------------------------------------------

    async def hold_poll(self, endpoint: str, args: dict, seen: str) -> None:
        """Return once the endpoint's etag differs from `seen`, time is up or the hub stops."""
        key = poll_key(endpoint, args)
        generation = self.generation

        async def etag_now() -> str | None:
            """The key's etag now."""
            return (await self.in_threads(self._in_app, self._read, [], [key]))[1][key]

        def registered() -> None:
            """The poll waits: start the rounds; look again if a write landed meanwhile."""
            self._ensure_running()
            if self.generation != generation:
                self.wake.set()

        await self.polls.hold(key, seen, etag_now, registered)

    # -- stopping --------------------------------------------------------------------------

    def close(self) -> None:
        """End every stream and release every poll (the server is stopping)."""
        if self.closed:
            return
        self.closed = True
        self.feed.remove_listener(self._on_change)
        self.feed.remove_nudge_listener(self._on_drawn)
        for group in self.groups_of(None, panel_only=False):
            for subscriber in list(group.subscribers):
                subscriber.end()
        self.polls.close()
        if self.relay is not None:
            self.relay.stop(self.loop)
        self.wake.set()
        self.executor.shutdown(wait=False, cancel_futures=True)
