"""The first-plug check from the box page (device/check.py; docs/device-api.md "Box check").

The page asks, answers and stops under its table's edit rights; the bridge (the box's rights)
starts it, puts its questions and the report; both follow `GET /api/device/check?wait=`.
"""

from flask import Blueprint, current_app, request

from companion_app.api.tables import object_body
from companion_app.device.check import (
    CheckConflict,
    CheckRefused,
    checked_question,
    checked_report,
)
from companion_app.device.check import get_check as check_of
from companion_app.device.status import get_status
from companion_app.server.errors import ApiError
from companion_app.store.changes import long_poll, notify_app, wait_for_change

bp = Blueprint("api_check", __name__, url_prefix="/api")

BAD_REQUEST, CONFLICT, ACCEPTED = 400, 409, 202
MAX_ETAG = 64
NO_BOX = "No box is connected: plug it in (companion serve finds it), then check it."
ANSWER_EXAMPLE = 'Send {"question": <id>, "yes": true or false}.'
PUT_EXAMPLE = 'Send {"number": <check>, and "start": true, a "question" or the "report"}.'


def _check():
    """This app's box check."""
    return check_of(current_app)


@bp.record_once
def declare_long_poll(state) -> None:
    """`?wait=` on the check is held by the server front, as the device view's are."""
    long_poll(state.app, "api_check.get_check", lambda: check_of(current_app).etag())


@bp.errorhandler(CheckRefused)
def refused(error: CheckRefused) -> tuple[dict, int]:
    """A malformed step: 400; one that does not fit the check's state: 409."""
    return {"error": str(error)}, CONFLICT if isinstance(error, CheckConflict) else BAD_REQUEST


@bp.get("/device/check")
def get_check() -> dict:
    """The check: state, question on screen, answer, report; `?wait=<etag>` long-polls;
    `?table=<id>` (the box page's table) leaves out another table's questions and report."""
    seen = request.args.get("wait")
    table_id = request.args.get("table")
    if table_id is not None and len(table_id) > MAX_ETAG:
        raise ApiError(BAD_REQUEST, "table must be the id of the box page's table.")
    if seen is not None:
        if len(seen) > MAX_ETAG:
            raise ApiError(BAD_REQUEST, "wait must be an etag from an earlier answer.")
        wait_for_change(lambda: _check().etag(), seen)
    return _check().snapshot(table_id)


@bp.post("/tables/<table_id>/box-check")
def request_check(table_id: str) -> tuple[dict, int]:
    """Ask the bridge to check the box (409 without a box, or while a check runs)."""
    status = get_status(current_app).snapshot()
    if status["mode"] == "virtual" or not status["connected"]:
        raise ApiError(CONFLICT, NO_BOX)
    _check().request(table_id)
    notify_app()
    return _check().snapshot(table_id), ACCEPTED


@bp.post("/tables/<table_id>/box-check/answer")
def answer_check(table_id: str) -> dict:
    """The builder's answer to the question on screen."""
    body = object_body()
    if "question" not in body or "yes" not in body:
        raise ApiError(BAD_REQUEST, ANSWER_EXAMPLE)
    _check().answer(table_id, body["question"], body["yes"])
    notify_app()
    return _check().snapshot(table_id)


@bp.post("/tables/<table_id>/box-check/cancel")
def cancel_check(table_id: str) -> dict:
    """Stop this table's check; the bridge gives the box back to the table."""
    _check().cancel(table_id)
    notify_app()
    return _check().snapshot(table_id)


@bp.put("/device/check")
def put_check() -> dict:
    """The bridge: start the check, put a question, or put the report."""
    body = object_body()
    number = body.get("number")
    if type(number) is not int:
        raise ApiError(BAD_REQUEST, PUT_EXAMPLE)
    check = _check()
    if body.get("start") is True:
        check.start(number)
    elif "question" in body:
        check.ask(number, checked_question(body["question"]))
    elif "report" in body:
        check.finish(number, checked_report(body["report"]))
    else:
        raise ApiError(BAD_REQUEST, PUT_EXAMPLE)
    notify_app()
    return check.snapshot()
