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
"""

import threading
import time
from collections.abc import Callable

from flask import Flask

MODES = ("serial", "simulator", "virtual", "remote")
#: Why a box is not connected, when the bridge knows: the box sends nothing (box_silent), the
#: box hears nothing from us though we hear it (box_deaf), another program has the port open
#: and reads the box's lines away (port_shared, with `holders`).
PROBLEMS = ("box_silent", "box_deaf", "port_shared")
MAX_HOLDERS = 8  # other programs named in a report at most
MAX_NAME = 64  # characters of a program name kept
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
    ) -> None:
        """Change the given fields (others keep their value); ValueError for a bad value."""
        _check(mode, connected, port, hello, last_seen_ms)
        _check_problem(problem, holders)
        if simulator is not _KEEP and simulator is not None and simulator not in SIMULATORS:
            raise ValueError(f"simulator must be one of {', '.join(SIMULATORS)}, or null.")
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
            if port is not _KEEP:
                self._port = port
            if hello is not _KEEP:
                self._hello = None if hello is None else dict(hello)
            if last_seen_ms is not _KEEP:
                self._seen_at = None if last_seen_ms is None else now - last_seen_ms / MS_PER_S
            self._expires_at = None if ttl_s is None else now + ttl_s

    def snapshot(self) -> dict:
        """The status as JSON: mode, connected, problem (PROBLEMS or None), holders (other
        programs with the port open: pid, name), port, hello, last_seen_ms (an age, or None),
        and `simulator` (micropython or cpython) while a simulated box runs in-process."""
        with self._lock:
            now = self._clock()
            expired = self._expires_at is not None and now > self._expires_at
            seen = None if self._seen_at is None else round((now - self._seen_at) * MS_PER_S)
            body = {
                "mode": self._mode,
                "connected": self._connected and not expired,
                "problem": None if expired else self._problem,
                "holders": [] if expired else [dict(h) for h in self._holders],
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
        )


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
        fields = ("mode", "connected", "port", "hello", "last_seen_ms", "problem", "holders")
        DeviceStatus.update(
            self,
            **{name: snapshot.get(name) for name in fields},
            simulator=snapshot.get("simulator"),
            ttl_s=MIRROR_TTL_S,
        )


def worker_status(app: Flask, send: Callable[[dict], None]) -> Callable[[dict], None]:
    """In a worker process: a mirrored status whose reports go to `send`; its copy taker."""
    mirrored = MirroredStatus(send)
    set_status(app, mirrored)
    return mirrored.mirror


def owner_status(app: Flask) -> tuple[Callable[[], dict], Callable[[dict], None]]:
    """In the owner (the parent): (a copy of the status, keep a report sent by a worker)."""
    status = get_status(app)
    return status.snapshot, lambda fields: status.update(**fields)


def set_status(app: Flask, status: DeviceStatus) -> None:
    """Give the app its bridge status object (a worker mirrors the owner: server/workers.py)."""
    app.extensions[_EXTENSION] = status


def get_status(app: Flask) -> DeviceStatus:
    """The app's bridge status object, created on first use."""
    return app.extensions.setdefault(_EXTENSION, DeviceStatus())
