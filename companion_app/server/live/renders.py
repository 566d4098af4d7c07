"""The rendering hand-off: each group's page rendered once per change, pushed to its streams.

Renders run in the hub's threads (`live/pages.render`, as a plain viewer); the same bytes go
to every subscriber of the group as `event: update` with `{"version", "html"}`. A table that
changes while its groups render is rendered again once they are done, never twice at once.
"""

import asyncio
import logging

from companion_app.server.live import pages, parts
from companion_app.server.live.groups import Group, Watch
from companion_app.server.live.pages import PANEL_PAGES, Rendered
from companion_app.server.live.relay import caught_up
from companion_app.server.live.stream import Refused, sse_event

log = logging.getLogger(__name__)
NOT_FOUND = 404


class Renders:
    """Renders and pushes the pages of one hub's groups."""

    def __init__(self, hub) -> None:
        """For `hub` (a LiveHub: its app, threads, box panel feed and task spawner)."""
        self.hub = hub

    async def render(self, group: Group) -> Rendered:
        """Render the group's page once, in the hub's threads."""
        return await self.hub.in_threads(
            pages.render, self.hub.app, group.table_id, group.page, group.lang, group.host
        )

    def accept(self, group: Group, rendered: Rendered) -> None:
        """Push a render to the group's subscribers if it is newer than the last one."""
        if rendered.html is None or rendered.version is None:
            return
        version = pages.version_key(rendered.version)
        if group.version is not None and version <= group.version:
            return
        group.version = version
        group.event = sse_event("update", {"version": rendered.version, "html": rendered.html})
        if pages.room_number(group.page) is not None:
            self._offer_parts(group, rendered)
            return
        for subscriber in group.subscribers:
            subscriber.offer("update", group.event)

    def _offer_parts(self, group: Group, rendered: Rendered) -> None:
        """The room display: push only the tiles that changed, and the layout if tables came
        or went (issue 33 item 6); the whole page stays the first event of a new stream."""
        before, group.cut = group.cut, parts.cut(rendered.html)
        if before is None:
            for subscriber in group.subscribers:
                subscriber.offer("update", group.event)
            return
        changed, layout = parts.changed(before, group.cut)
        events = [
            ("part", sse_event("part", {"version": rendered.version, "id": key, "html": html}), key)
            for key, html in changed.items()
        ]
        if layout is not None:
            events.append(
                ("layout", sse_event("layout", {"version": rendered.version, "html": layout}), "")
            )
        for subscriber in group.subscribers:
            for kind, event, key in events:
                subscriber.offer(kind, event, key)

    def refresh(self, table_id: str, watch: Watch) -> None:
        """Re-render every group of a changed table (again after, if it changes meanwhile)."""
        if watch.refreshing:
            watch.again = True
            return
        watch.refreshing = True
        self.hub.spawn(self._refresh_loop(table_id, watch))

    async def _refresh_loop(self, table_id: str, watch: Watch) -> None:
        """Render each group once per change, push, then look at the box's animation."""
        try:
            while not self.hub.closed:
                watch.again = False
                groups = list(watch.groups.values())
                if any(group.page in PANEL_PAGES for group in groups):  # first: a countdown's
                    self.hub.spawn(self.hub.panel.check_frame(table_id, watch))  # steps are due
                groups = await self._left_to_render(table_id, watch, groups)
                results = await asyncio.gather(
                    *(self.render(group) for group in groups), return_exceptions=True
                )
                for group, rendered in zip(groups, results, strict=True):
                    if isinstance(rendered, Rendered):
                        self.accept(group, rendered)
                        for worker in list(group.remote):  # a send may drop a worker
                            self.send_to(worker, group, watch)
                    else:
                        log.error("live render of %s failed", table_id, exc_info=rendered)
                if not watch.again:
                    break
        finally:
            watch.refreshing = False

    async def _left_to_render(self, table_id: str, watch: Watch, groups: list) -> list:
        """The groups this worker renders itself: all of them, unless another worker owns
        the table (live/relay.py); then those whose update has not come from it in time,
        asked for again (the owner may have missed the first ask)."""
        relay = self.hub.relay
        if relay is None or not relay.remote(table_id) or watch.version is None:
            return groups
        target = pages.version_key(watch.version)
        own = [group for group in groups if group.own]
        waiting = [group for group in groups if not group.own]
        late = await caught_up(lambda: [g for g in waiting if not _has(g, target)], relay)
        for group in late:
            relay.want(group.key)
        return own + late

    def send_to(self, worker: int, group: Group, watch: Watch) -> None:
        """Send another worker the group's update (this worker owns the table)."""
        if group.version is not None:
            version = ".".join(str(part) for part in group.version)
            if not self.hub.relay.render(worker, group.key, version, group.event):
                group.remote.discard(worker)  # it renders this group itself from now on
        elif watch.version is not None:  # rendered, nothing to show (an unfinished game's
            self.hub.relay.render(worker, group.key, watch.version, None)  # results)

    def relayed(self, group_id, version: object, event: bytes, own: bool = False) -> None:
        """The owner's update of a group this worker's viewers follow (on the loop)."""
        table_id, page, lang, host = group_id
        watch = self.hub.watches.get(table_id)
        group = watch.groups.get((page, lang, host)) if watch else None
        if group is None or not isinstance(version, str):
            return
        if own:  # the owner cannot pass this page on: render it here from now on
            group.own = True
            return
        try:
            key = pages.version_key(version)
        except ValueError:
            return
        if group.relayed is None or key > group.relayed:
            group.relayed = key
        if not event or (group.version is not None and key <= group.version):
            return
        group.version, group.event = key, event
        for subscriber in group.subscribers:
            subscriber.offer("update", event)

    async def first(self, watch: Watch, group: Group) -> None:
        """A new group's first page (refuses the stream if the page is not there to follow)."""
        rendered = await self.render(group)
        if rendered.status == NOT_FOUND:
            raise Refused(NOT_FOUND, f"There is no table {group.table_id[:40]}.")
        if rendered.html is None or rendered.version is None:
            raise Refused(rendered.status, f"This page cannot be followed ({rendered.status}).")
        self.accept(group, rendered)
        if watch.version is None:
            watch.version = rendered.version
        if group.page in PANEL_PAGES:
            self.hub.spawn(self.hub.panel.check_frame(group.table_id, watch))


def _has(group: Group, version: tuple[int, ...]) -> bool:
    """True once the group shows `version` or newer, or its owner said it has nothing to."""
    return any(seen is not None and seen >= version for seen in (group.version, group.relayed))
