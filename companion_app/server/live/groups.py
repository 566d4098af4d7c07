"""Who follows what: followed tables (watches), their groups of streams, and the count.

A group is every stream of one page of one table in one language reached at one canonical
address (`guard.canonical_root`: the address the page links to, never the raw Host header,
so a port or spelling variant of Host cannot make a group of its own): the hub renders its
page once per change for all of them (`live/renders.py`). Plain bookkeeping on the event
loop; nothing here renders or waits.
"""

import asyncio
from dataclasses import dataclass, field

from companion_app.server.live.pages import PANEL_PAGES
from companion_app.server.live.parts import Cut
from companion_app.server.live.stream import Subscriber

GroupKey = tuple[str, str, str]  # (page, language, canonical address)


@dataclass(eq=False)
class Group:
    """Subscribers of one page of one table in one language at one canonical address."""

    table_id: str
    page: str
    lang: str
    host: str
    subscribers: set[Subscriber] = field(default_factory=set)
    version: tuple[int, ...] | None = None
    event: bytes | None = None
    ready: "asyncio.Task | None" = None
    #: The last render cut into parts (the room display): a change sends what differs.
    cut: Cut | None = None
    #: Other workers this one renders the group for (it owns the table: live/relay.py).
    remote: set[int] = field(default_factory=set)
    #: The newest version the owner's update was for (another worker owns the table), shown
    #: or not (a page with nothing to show, like an unfinished game's results).
    relayed: tuple[int, ...] | None = None
    #: Rendered here although another worker owns the table (its pages are too big to pass).
    own: bool = False

    @property
    def key(self) -> tuple[str, str, str, str]:
        """The group as the relay names it: (table id, page, language, address)."""
        return self.table_id, self.page, self.lang, self.host


@dataclass(eq=False)
class Watch:
    """A followed table: its groups, the last version seen, and what runs for it."""

    groups: dict[GroupKey, Group] = field(default_factory=dict)
    version: str | None = None
    refreshing: bool = False
    again: bool = False
    frame: bytes | None = None
    frame_reads: int = 0  # frame reads started...
    frame_read: int = 0  # ...and the number of the newest pushed (an older one is dropped)


class Followers:
    """Every followed table of one hub, by id, and how many streams are open."""

    def __init__(self) -> None:
        """Nobody follows anything."""
        self.watches: dict[str, Watch] = {}
        self.viewers = 0

    def join(self, table_id: str, page: str, lang: str, host: str) -> tuple[Watch, Group, bool]:
        """A new stream's table and group (the group is new: True), counted as a viewer."""
        watch = self.watches.setdefault(table_id, Watch())
        key = (page, lang, host)
        group = watch.groups.get(key)
        new = group is None
        if group is None:
            group = Group(table_id, page, lang, host)
            watch.groups[key] = group
        return watch, group, new

    def add(self, subscriber: Subscriber) -> None:
        """Count a stream of its group."""
        subscriber.group.subscribers.add(subscriber)
        self.viewers += 1

    def leave(self, subscriber: Subscriber) -> bool:
        """Forget a stream; a group, then a table, followed by nobody is dropped: dropped?"""
        group = subscriber.group
        if subscriber not in group.subscribers:
            return False
        group.subscribers.discard(subscriber)
        self.viewers -= 1
        return self._drop_if_unfollowed(group)

    def follow_for(self, worker: int, table_id: str, page: str, lang: str, host: str):
        """Another worker's viewers follow a group this worker renders: (watch, group, new)."""
        watch, group, new = self.join(table_id, page, lang, host)
        group.remote.add(worker)
        return watch, group, new

    def unfollow_for(self, worker: int, table_id: str, page: str, lang: str, host: str) -> None:
        """Another worker's viewers no longer follow the group."""
        watch = self.watches.get(table_id)
        group = watch.groups.get((page, lang, host)) if watch else None
        if group is not None and worker in group.remote:
            group.remote.discard(worker)
            self._drop_if_unfollowed(group)

    def _drop_if_unfollowed(self, group: Group) -> bool:
        """Drop a group nobody follows here or elsewhere (then its table if that was the
        last): dropped?"""
        watch = self.watches.get(group.table_id)
        if group.subscribers or group.remote or watch is None:
            return False
        key = (group.page, group.lang, group.host)
        if watch.groups.get(key) is group:
            del watch.groups[key]
        if not watch.groups:
            del self.watches[group.table_id]
        return True

    def groups_of(self, table_id: str | None, panel_only: bool) -> list[Group]:
        """The groups of one table (None: every table), only the box-panel pages if asked."""
        watches = [self.watches.get(table_id)] if table_id else list(self.watches.values())
        return [
            group
            for watch in watches
            if watch is not None
            for group in watch.groups.values()
            if group.page in PANEL_PAGES or not panel_only
        ]

    def panel_followed(self) -> bool:
        """True if any open page shows the box panel."""
        return any(group.subscribers for group in self.groups_of(None, panel_only=True))
