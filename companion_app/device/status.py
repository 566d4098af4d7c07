"""The table box's bridge status, kept in-process (docs/device-api.md, "Bridge status").

The bridge in the `companion serve` process imports this module and reports into the app's
`DeviceStatus`; a bridge in another process PUTs the same fields to /api/device/status every
second. The table view reads `snapshot()` to show the connection badge.

    status = get_status(app)
    status.update(mode="serial", connected=True, port="/dev/ttyUSB0", hello={...})
    status.update(last_seen_ms=0)          # heard the box just now
    status.snapshot()                      # the JSON body of GET /api/device/status

`last_seen_ms` is an age: milliseconds since the bridge last heard the box. The object keeps
the moment it stands for, so a later `snapshot()` reports the age as of then. A report given
with `ttl_s` (the PUT view uses REMOTE_TTL_S) expires: when it is not refreshed in time the
snapshot says `connected: false`, so a remote bridge that died shows the grey badge.

One bridge speaks for a box: the one that has its port open. A bridge that cannot open the
port because another program holds it reports `problem: port_busy`; that report is kept apart
(it expires after REMOTE_TTL_S like a PUT) and is the status only while no other bridge's
report stands, so a second bridge retrying a held port never turns the badge grey (issue 34).

`drawn` is what the box reports it draws (issue 34 item 4): `{"raid_at", "countdown_end"}`,
epoch ms (the bridge's clock) when its raid began and when its countdown ends, each null when
it draws none; null as a whole when no box reports them (the virtual box, older firmware).
The panel draws the followed table's raid and countdown from them (device/frame.py). A change
of `drawn` calls the status's listeners at once (`add_listener`: the live hub wakes for a
round), so the panel redraws from the box's moments then, not on the next status tick; the
app's change feed is only nudged (`get_status` wires it: nothing in the database changed, so
no long poll wakes and no backup looks).
"""

import math
import threading
import time
from collections.abc import Callable

from flask import Flask

from companion_app.store.changes import get_feed

MODES = ("serial", "simulator", "virtual", "remote")
#: Why a box is not connected, when the bridge knows: the box sends nothing (box_silent), the
#: box hears nothing from us though we hear it (box_deaf), another program has the port open
#: and reads the box's lines away (port_shared, with `holders`), this bridge cannot open the
#: port because another program holds it (port_busy, with `holders`: that bridge waits), the
#: box holds back a state that made its firmware fail (box_fault, with `fault`: the error's
#: text; issue 34).
PORT_BUSY = "port_busy"
PROBLEMS = ("box_silent", "box_deaf", "port_shared", PORT_BUSY, "box_fault")
MAX_FAULT = 200  # characters of the box's fault text kept
MAX_HOLDERS = 8  # other programs named in a report at most
MAX_NAME = 64  # characters of a program name kept
DRAWN_KEYS = ("raid_at", "countdown_end")
#: What runs a simulated box's firmware (`companion serve --simulate[=ENGINE]`).
SIMULATORS = ("micropython", "cpython")
#: Mode with no box: the on-screen panel is the device.
VIRTUAL = "virtual"
#: A report PUT by a bridge in another process is trusted this long without a refresh.
REMOTE_TTL_S = 3.0
#: A worker process trusts the owner's last copy this long (an owner gone quiet: grey badge).
MIRROR_TTL_S = 3.0
MS_PER_S = 1000
_EXTENSION = "companion_device_status"
_KEEP = object()


class DeviceStatus:
    """What the bridge last said about the box; thread-safe."""

    def __init__(self, clock=time.monotonic) -> None:
        """No bridge yet: virtual mode, not connected; `clock` returns seconds (for tests)."""
        self._clock = clock
        self._listeners: list = []  # called (outside the lock) when `drawn` changes
        self._lock = threading.Lock()
        self._mode = VIRTUAL
        self._connected = False
        self._port: str | None = None
        self._hello: dict | None = None
        self._seen_at: float | None = None
        self._expires_at: float | None = None
        self._simulator: str | None = None
        self._problem: str | None = None
        self._holders: list[dict] = []
        self._waiting: dict | None = None  # a port_busy report: a bridge waiting for the port
        self._waiting_until = 0.0
        self._fault: str | None = None
        self._drawn: dict | None = None

    def update(
        self,
        *,
        mode: object = _KEEP,
        connected: object = _KEEP,
        port: object = _KEEP,
        hello: object = _KEEP,
        last_seen_ms: object = _KEEP,
        ttl_s: float | None = None,
        simulator: object = _KEEP,
        problem: object = _KEEP,
        holders: object = _KEEP,
        fault: object = _KEEP,
        drawn: object = _KEEP,
    ) -> None:
        """Change the given fields (others keep their value); ValueError for a bad value."""
        _check(mode, connected, port, hello, last_seen_ms)
        _check_problem(problem, holders)
        _check_fault(fault)
        _check_drawn(drawn)
        if simulator is not _KEEP and simulator is not None and simulator not in SIMULATORS:
            raise ValueError(f"simulator must be one of {', '.join(SIMULATORS)}, or null.")
        if problem == PORT_BUSY:
            self._wait(mode, port, holders)
            return
        with self._lock:
            if simulator is not _KEEP:
                self._simulator = simulator
            now = self._clock()
            if mode is not _KEEP:
                self._mode = mode
            if connected is not _KEEP:
                self._connected = connected
            if problem is not _KEEP:
                self._problem = problem
            if holders is not _KEEP:
                self._holders = [dict(h) for h in holders or ()]
            if fault is not _KEEP:
                self._fault = fault  # type: ignore[assignment]  # checked above
            if port is not _KEEP:
                self._port = port
            if hello is not _KEEP:
                self._hello = None if hello is None else dict(hello)
            if last_seen_ms is not _KEEP:
                self._seen_at = None if last_seen_ms is None else now - last_seen_ms / MS_PER_S
            self._expires_at = None if ttl_s is None else now + ttl_s
            moved = drawn is not _KEEP and drawn != self._drawn
            if moved:
                self._drawn = None if drawn is None else dict(drawn)  # type: ignore[call-overload]
            listeners = self._listeners
        if moved:
            for listener in listeners:
                listener()

    def add_listener(self, listener) -> None:
        """Call `listener()` (from the reporting thread: quick, never raising) whenever the
        box's drawn anchors change."""
        with self._lock:
            self._listeners = [*self._listeners, listener]

    def remove_listener(self, listener) -> None:
        """Stop calling `listener` (nothing happens if it was not added)."""
        with self._lock:
            self._listeners = [known for known in self._listeners if known != listener]

    def _wait(self, mode: object, port: object, holders: object) -> None:
        """Keep a waiting bridge's report apart from the box's status (it never replaces it);
        it expires like a PUT whether it came in-process or not: the bridge repeats it."""
        with self._lock:
            self._waiting = {
                "mode": "remote" if mode is _KEEP else mode,
                "port": None if port is _KEEP else port,
                "holders": [dict(h) for h in (() if holders is _KEEP else holders or ())],
            }
            self._waiting_until = self._clock() + REMOTE_TTL_S

    def _speaks(self, now: float) -> bool:
        """True while a bridge's report on the box stands (a bridge reported, not expired)."""
        expired = self._expires_at is not None and now > self._expires_at
        return self._mode != VIRTUAL and not expired

    def snapshot(self) -> dict:
        """The status as JSON: mode, connected, problem (PROBLEMS or None), holders (other
        programs with the port open: pid, name), fault (the error the box holds a state back
        for, or None), drawn (the box's animation anchors, or None), port, hello,
        last_seen_ms (an age, or None), and `simulator`
        (micropython or cpython) while a simulated box runs in-process."""
        with self._lock:
            now = self._clock()
            if self._waiting is not None and now <= self._waiting_until and not self._speaks(now):
                return {
                    **self._waiting,
                    "connected": False,
                    "problem": PORT_BUSY,
                    "fault": None,
                    "drawn": None,
                    "hello": None,
                    "last_seen_ms": None,
                }
            expired = self._expires_at is not None and now > self._expires_at
            seen = None if self._seen_at is None else round((now - self._seen_at) * MS_PER_S)
            body = {
                "mode": self._mode,
                "connected": self._connected and not expired,
                "problem": None if expired else self._problem,
                "holders": [] if expired else [dict(h) for h in self._holders],
                "fault": None if expired else self._fault,
                "drawn": None if expired or not self._connected else _copy(self._drawn),
                "port": self._port,
                "hello": None if self._hello is None else dict(self._hello),
                "last_seen_ms": seen,
            }
            if self._simulator is not None:
                body["simulator"] = self._simulator
            return body

    def reset(self) -> None:
        """Back to "no bridge": virtual mode, not connected (a bridge that stops calls it)."""
        self.update(
            mode=VIRTUAL,
            connected=False,
            port=None,
            hello=None,
            last_seen_ms=None,
            simulator=None,
            problem=None,
            holders=[],
            fault=None,
            drawn=None,
        )


def _copy(drawn: dict | None) -> dict | None:
    """A copy of the drawn anchors (None stays None)."""
    return None if drawn is None else dict(drawn)


def strip_connected(snapshot: dict) -> bool:
    """False while a bridge runs without its box answering: the strip (and the panel) shows
    the disconnected dot; the virtual box is always connected to the app."""
    return snapshot["mode"] == VIRTUAL or bool(snapshot["connected"])


def _check(mode, connected, port, hello, last_seen_ms) -> None:
    """Refuse values of the wrong type with a sentence naming the field."""
    if mode is not _KEEP and mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}.")
    if connected is not _KEEP and type(connected) is not bool:
        raise ValueError("connected must be true or false.")
    if port is not _KEEP and port is not None and not isinstance(port, str):
        raise ValueError("port must be a device path like /dev/ttyUSB0, or null.")
    if hello is not _KEEP and hello is not None and not isinstance(hello, dict):
        raise ValueError("hello must be an object (the box's HELLO fields), or null.")
    if last_seen_ms is not _KEEP and last_seen_ms is not None:
        if type(last_seen_ms) is not int or last_seen_ms < 0:
            raise ValueError("last_seen_ms must be a whole number of milliseconds (0 or more).")


def _check_problem(problem, holders) -> None:
    """Refuse an unknown problem or a malformed holders list with a sentence naming it."""
    if problem is not _KEEP and problem is not None and problem not in PROBLEMS:
        raise ValueError(f"problem must be one of {', '.join(PROBLEMS)}, or null.")
    if holders is _KEEP:
        return
    shape = "holders must be a list of at most 8 objects with a pid (number) and a name."
    if not isinstance(holders, list) or len(holders) > MAX_HOLDERS:
        raise ValueError(shape)
    for holder in holders:
        ok = isinstance(holder, dict) and set(holder) == {"pid", "name"}
        if not ok or type(holder["pid"]) is not int or not isinstance(holder["name"], str):
            raise ValueError(shape)
        if len(holder["name"]) > MAX_NAME or not holder["name"].isprintable():
            raise ValueError(shape)


def _check_fault(fault) -> None:
    """Refuse a fault text that is not a short printable string (or null)."""
    if fault is _KEEP or fault is None:
        return
    if not isinstance(fault, str) or len(fault) > MAX_FAULT or not fault.isprintable():
        raise ValueError(f"fault must be the box's error text (at most {MAX_FAULT}), or null.")


def _check_drawn(drawn) -> None:
    """Refuse drawn anchors that are not {"raid_at", "countdown_end"} of epoch ms or null."""
    if drawn is _KEEP or drawn is None:
        return
    shape = 'drawn must be {"raid_at": ms or null, "countdown_end": ms or null}, or null.'
    if not isinstance(drawn, dict) or set(drawn) != set(DRAWN_KEYS):
        raise ValueError(shape)
    for value in drawn.values():
        if value is None:
            continue
        if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
            raise ValueError(shape)


class MirroredStatus(DeviceStatus):
    """A worker process's bridge status (`serve --workers`): the owner's copy, and reports a
    bridge PUTs to this worker sent on to the owner (the parent, where the bridge runs)."""

    def __init__(self, send: Callable[[dict], None]) -> None:
        """Virtual until the owner's first copy; reports go to `send`."""
        super().__init__()
        self.send = send

    def update(self, **fields) -> None:
        """A report reached this worker (ValueError if bad): keep it, and send it to the owner."""
        super().update(**fields)
        self.send(fields)

    def mirror(self, snapshot: dict) -> None:
        """Take the owner's copy (trusted MIRROR_TTL_S unless a newer one comes)."""
        fields = (
            "mode",
            "connected",
            "port",
            "hello",
            "last_seen_ms",
            "problem",
            "holders",
            "fault",
            "drawn",  # the box's anchors: the worker's panels draw from them too
        )
        DeviceStatus.update(
            self,
            **{name: snapshot.get(name) for name in fields},
            simulator=snapshot.get("simulator"),
            ttl_s=MIRROR_TTL_S,
        )


def worker_status(app: Flask, send: Callable[[dict], None]) -> Callable[[dict], None]:
    """In a worker process: a mirrored status whose reports go to `send`; its copy taker."""
    mirrored = MirroredStatus(send)
    real = _real_app(app)
    mirrored.add_listener(lambda: get_feed(real).nudge())  # the worker's own feed, when it runs
    set_status(app, mirrored)
    return mirrored.mirror


def owner_status(app: Flask) -> tuple[Callable[[], dict], Callable[[dict], None]]:
    """In the owner (the parent): (a copy of the status, keep a report sent by a worker)."""
    status = get_status(app)
    return status.snapshot, lambda fields: status.update(**fields)


def set_status(app: Flask, status: DeviceStatus) -> None:
    """Give the app its bridge status object (a worker mirrors the owner: server/workers.py)."""
    app.extensions[_EXTENSION] = status


def _real_app(app: Flask) -> Flask:
    """The app itself, also when given the `current_app` proxy."""
    real = getattr(app, "_get_current_object", None)
    return app if real is None else real()


def get_status(app: Flask) -> DeviceStatus:
    """The app's bridge status object, created on first use; a change of the box's drawn
    anchors nudges the app's change feed (the live hub reads the panel's frame again)."""
    status = app.extensions.get(_EXTENSION)
    if status is None:
        made = DeviceStatus()
        status = app.extensions.setdefault(_EXTENSION, made)
        if status is made:  # one listener, however many threads raced to make it
            real = _real_app(app)  # current_app is only a proxy: the bridge's thread has none
            status.add_listener(lambda: get_feed(real).nudge())
    return status
