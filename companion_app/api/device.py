"""The app <-> table box API (docs/device-api.md): device view, followed table, reveals, status.

Views check the request's shape and call `device.feed`, `store.reveals` and
`device.status`; the rules of a reveal live in `scoring.reveal`. Errors are the API's usual
`{"error": "<sentence>"}` with a 4xx (companion_app/server/errors.py); a press for a reveal
that is over is a 409. Every successful write wakes the waiting long polls and the live
pages. The two `?wait=` views are declared with `store.changes.long_poll`, so the server
front (`server/asgi.py`) holds their polls without a thread; elsewhere they wait themselves.
"""

import time

from flask import Blueprint, Response, current_app, request

from companion_app.api.tables import object_body
from companion_app.device import feed as device_feed
from companion_app.device.status import REMOTE_TTL_S, get_status
from companion_app.server import rights
from companion_app.server.errors import ApiError
from companion_app.store import reveals
from companion_app.store.changes import MAX_ETAG, long_poll, notify_app, wait_for_change
from scoring.reveal import StaleReveal

bp = Blueprint("api_device", __name__, url_prefix="/api")

BAD_REQUEST, CONFLICT, CREATED = 400, 409, 201
MS_PER_S = 1000
#: A press older than this is a retry of long ago: its countdown is over on the box anyway.
MAX_PRESS_AGE_MS = 60_000
STATUS_FIELDS = (
    "mode",
    "connected",
    "problem",
    "holders",
    "fault",
    "drawn",
    "port",
    "hello",
    "last_seen_ms",
)
FOLLOW_EXAMPLE = 'Send {"table": "<table id>"}, or {"table": null} for the default.'
PRESS_EXAMPLE = '{"id": <reveal id>, "seat": <seat>}'
ARM_EXAMPLE = "seats: missing; send the seats that must choose, like [0, 2, 3]."
#: Request methods that write; a successful one wakes every waiting poll.
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Statuses below this are successes (a refused write changed nothing).
FIRST_ERROR_STATUS = 400
#: Writes that never change what the box shows (a remote bridge PUTs its status every second).
QUIET_ENDPOINTS = frozenset({"api_device.put_device_status", "web.language"})


@bp.record_once
def declare_long_polls(state) -> None:
    """The two `?wait=` views, so the server front can hold their polls without a thread."""
    long_poll(state.app, "api_device.table_device", device_feed.table_etag)
    long_poll(state.app, "api_device.followed_device", device_feed.followed_etag)


@bp.after_app_request
def notify_after_write(response: Response) -> Response:
    """After-request hook: a successful write request may have changed what the box shows."""
    if (
        request.method in WRITE_METHODS
        and response.status_code < FIRST_ERROR_STATUS
        and request.endpoint not in QUIET_ENDPOINTS
    ):
        notify_app()
    return response


@bp.errorhandler(StaleReveal)
def stale_reveal(error: StaleReveal) -> tuple[dict, int]:
    """A press for a reveal that is no longer current: 409, the sender should drop it."""
    return {"error": str(error)}, CONFLICT


def _wait_etag() -> str | None:
    """The etag the client already has (?wait=), or None for an immediate answer."""
    seen = request.args.get("wait")
    if seen is not None and len(seen) > MAX_ETAG:
        raise ApiError(
            BAD_REQUEST,
            f"wait must be an etag from an earlier answer (at most {MAX_ETAG} characters).",
        )
    return seen


@bp.get("/tables/<table_id>/device")
def table_device(table_id: str) -> dict:
    """What the box shows for this table; `?wait=<etag>` long-polls for a change."""
    seen = _wait_etag()
    if seen is not None:
        wait_for_change(lambda: device_feed.table_etag(table_id), seen)
    return device_feed.device_body(table_id)


@bp.get("/device")
def followed_device() -> dict:
    """The device view of the table the box follows; `?wait=<etag>` long-polls."""
    seen = _wait_etag()
    if seen is not None:
        wait_for_change(device_feed.followed_etag, seen)
    return device_feed.followed_body()


@bp.get("/tables/<table_id>/device/frame")
def table_frame(table_id: str) -> dict:
    """The 18 pixels the firmware's renderer draws for this table now, and the timeline."""
    return device_feed.panel_frame(table_id, get_status(current_app).snapshot())


@bp.get("/device/clock")
def device_clock() -> dict:
    """The server's clock (epoch ms), for panels that play the strip's timeline in step."""
    return {"now": time.time() * MS_PER_S}


@bp.get("/device/table")
def get_followed() -> dict:
    """Which table the box follows: the chosen one, else the latest unfinished table."""
    return device_feed.followed_table()


@bp.put("/device/table")
def put_followed() -> dict:
    """Follow {"table": "<id>"}; {"table": null} goes back to the default."""
    body = object_body()
    table_id = body.get("table")
    if "table" not in body or not (table_id is None or isinstance(table_id, str)):
        raise ApiError(BAD_REQUEST, FOLLOW_EXAMPLE)
    if not rights.is_box():
        _require_follow_rights(table_id)
    return device_feed.follow(table_id)


def _require_follow_rights(table_id: str | None) -> None:
    """Pointing the box takes edit rights on the table it goes to and on the game in play it
    shows now, pointed at or not (the box belongs to its table: a stranger's new table, whose
    host the stranger is, cannot take it from a game in play)."""
    if table_id is not None:
        rights.require_edit(table_id)
    leaving = device_feed.followed_table()["table"]
    if leaving is not None and leaving != table_id and device_feed.in_play(leaving):
        rights.require_edit(leaving)


@bp.post("/tables/<table_id>/reveal")
def arm_reveal(table_id: str) -> tuple[dict, int]:
    """Arm a new reveal for {"seats": [0, 2, 3]}; 201 with the device view."""
    body = object_body()
    if "seats" not in body:
        raise ApiError(BAD_REQUEST, ARM_EXAMPLE)
    reveals.arm(table_id, body["seats"])
    return device_feed.device_body(table_id), CREATED


@bp.post("/tables/<table_id>/reveal/press")
def press_reveal(table_id: str) -> dict:
    """Lock a seat: {"id": 7, "seat": 2}; pressing again answers "duplicate": true. A bridge
    adds "age_ms": how long ago the box's button locked it (the box's countdown began then)."""
    body = object_body()
    for field in ("id", "seat"):
        if field not in body:
            raise ApiError(BAD_REQUEST, f"{field}: missing; send {PRESS_EXAMPLE}.")
    age = body.get("age_ms", 0)
    if type(age) is not int or not 0 <= age <= MAX_PRESS_AGE_MS:
        raise ApiError(
            BAD_REQUEST, f"age_ms must be a whole number of milliseconds, 0 to {MAX_PRESS_AGE_MS}."
        )
    _, duplicate = reveals.press(table_id, body["id"], body["seat"], age_ms=age)
    return {**device_feed.device_body(table_id), "duplicate": duplicate}


@bp.delete("/tables/<table_id>/reveal")
def disarm_reveal(table_id: str) -> dict:
    """No reveal any more (answers the same when none was armed)."""
    reveals.disarm(table_id)
    return device_feed.device_body(table_id)


@bp.get("/device/status")
def get_device_status() -> dict:
    """The bridge's report: mode, connected, port, hello, last_seen_ms."""
    return get_status(current_app).snapshot()


@bp.put("/device/status")
def put_device_status() -> dict:
    """A bridge in another process reports (every second; stale after REMOTE_TTL_S)."""
    body = object_body()
    unknown = sorted(set(body) - set(STATUS_FIELDS))
    if unknown:
        raise ApiError(
            BAD_REQUEST, f"Unknown field {unknown[0][:40]!r}; send {', '.join(STATUS_FIELDS)}."
        )
    try:
        get_status(current_app).update(**body, ttl_s=REMOTE_TTL_S)
    except ValueError as refused:
        raise ApiError(BAD_REQUEST, str(refused)) from None
    return get_status(current_app).snapshot()
