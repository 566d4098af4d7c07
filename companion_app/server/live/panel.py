"""What the hub sends to pages with the box panel besides the page: frames and the status.

- `event: frame`: after every change of a table, the hub reads its frame
  (`GET /api/tables/<id>/device/frame`) once for all its viewers and pushes it. The frame
  carries the strip's timeline (device/frame.py): every step of a raid or a countdown with
  the moment it shows, so the panel (static/device/device.js) paints each step at its
  moment on the box's 125 ms grid, not when a push happens to arrive.
- `event: status`: the bridge's mode and link and the table the box follows, read every
  STATUS_S and after every write, pushed when they change. When the box's drawn anchors
  (`drawn`: the moments its raid began and its countdown ends; issue 34 item 4) move, the
  followed table's frame is read again and pushed: the panel draws them, not its own guess.
  A change of them wakes the hub at once (device/status.py's `on_drawn`).

Both are read through the app as a plain viewer (`live/pages.internal_get`).
"""

import json
import time

from companion_app.server.live import pages
from companion_app.server.live.groups import Watch
from companion_app.server.live.stream import sse_event

#: Seconds between checks of the bridge status (its report expires after 3 s).
STATUS_S = 1.0
#: Loopback host and language of the hub's own JSON reads.
INTERNAL_HOST = "127.0.0.1"
INTERNAL_LANG = "en"
OK = 200


class PanelFeed:
    """Frames and bridge status for the box-panel pages of one hub."""

    def __init__(self, hub) -> None:
        """For `hub` (a LiveHub: its app, threads, groups and watches); nothing read yet."""
        self.hub = hub
        self.status: bytes | None = None
        self.status_payload: dict | None = None
        self.last_status = 0.0

    def _json(self, path: str) -> dict | None:
        """A JSON GET through the app as a viewer (in a thread); None unless 200."""
        status, body, _ = pages.internal_get(
            self.hub.app, path, lang=INTERNAL_LANG, host=INTERNAL_HOST
        )
        return json.loads(body) if status == OK else None

    def _path(self, endpoint: str, **args: str) -> str:
        """The URL path of an app endpoint."""
        return self.hub.app.url_map.bind("localhost").build(endpoint, args)

    def _offer(self, table_id: str | None, kind: str, event: bytes) -> None:
        """Queue `event` for every subscriber of a box-panel page (of one table, or all)."""
        for group in self.hub.groups_of(table_id, panel_only=True):
            for subscriber in group.subscribers:
                subscriber.offer(kind, event)

    async def check_frame(self, table_id: str, watch: Watch) -> None:
        """Read the table's frame (with its timeline) and push it to the table's panels."""
        path = self._path("api_device.table_frame", table_id=table_id)
        watch.frame_reads += 1
        number = watch.frame_reads
        frame = await self.hub.in_threads(self._json, path)
        if frame is None or self.hub.closed or self.hub.watches.get(table_id) is not watch:
            return
        if number < watch.frame_read:  # a read started later went out first: it is newer
            return
        watch.frame_read = number
        watch.frame = sse_event("frame", frame)
        self._offer(table_id, "frame", watch.frame)

    def _read_status(self) -> dict | None:
        """The bridge's mode and link, and the followed table (in a thread)."""
        status = self._json(self._path("api_device.get_device_status"))
        followed = self._json(self._path("api_device.get_followed"))
        if status is None or followed is None:
            return None
        return {
            "mode": status.get("mode"),
            "connected": bool(status.get("connected")),
            "problem": status.get("problem"),  # why not, if the bridge knows (issue 25)
            "holders": status.get("holders") or [],
            "fault": status.get("fault"),  # the badge names the box's fault (issue 34 item 2)
            "drawn": status.get("drawn"),
            "followed": followed.get("table"),
        }

    def status_due(self, woke: bool) -> bool:
        """True if a round should read the status: after a write, or every STATUS_S."""
        return woke or time.monotonic() - self.last_status >= STATUS_S

    async def refresh_status(self) -> None:
        """Push `event: status` to every box-panel page when the bridge or the choice moved."""
        self.last_status = time.monotonic()
        payload = await self.hub.in_threads(self._read_status)
        if payload is None or payload == self.status_payload:
            return
        before = self.status_payload or {}
        self.status_payload = payload
        self.status = sse_event("status", payload)
        self._offer(None, "status", self.status)
        moved = payload["drawn"] != before.get("drawn") or payload["followed"] != before.get(
            "followed"
        )
        watch = self.hub.watches.get(payload["followed"] or "")
        if moved and watch is not None:
            await self.check_frame(payload["followed"], watch)
