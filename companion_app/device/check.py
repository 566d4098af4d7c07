"""The first-plug check run from the box page: the app's side of it, kept in the database.

The page asks for a check (`request`); the bridge sees the request in the device view it
follows (`pending`), closes its session and runs the same check as `companion device check`
(bridge/check.py) with the page as the builder: it puts each question here (`ask`) and waits
for the page's answer (`answer`), then puts the report (`finish`). `version` changes with
every step, so both long-poll `GET /api/device/check?wait=<etag>`. The check is one row of
the database (store/box_check.py), each step read and written in one write transaction, so
every worker process of `serve --workers` sees the same check and two steps never interleave
(issue 33 item 7). A row written by an earlier server run reads as no check: a restart forgets
a check, and the bridge's next question finds it gone and stops. The check's number goes on
from the forgotten one's, so a step of the old check can never pass for one of the new.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask

from companion_app.bridge.checkreport import COLOURS, FAIL, FINDINGS, ITEMS, PASS, WARN
from companion_app.store import box_check, db

IDLE, ASKED, RUNNING, DONE, CANCELLED = "idle", "asked", "running", "done", "cancelled"
QUESTION_KINDS = ("led", "press", "beep")
#: Which answer each question kind waits for (a press is answered by the box itself).
ANSWERED = ("led", "beep")
_EXTENSION = "companion_box_check"
SEGMENTS = ("police", "round", "seat")
LEDS, SEATS = 18, 6
MAX_TEXT = 20_000  # characters of a report's text
MAX_WORD = 200  # characters of one number or word in a finding
ANOTHER_TABLE = "The box is being checked from another table's box page; answer or stop it there."
#: The check of a database no server run has asked one of yet.
NO_CHECK = {
    "current": True,
    "number": 0,
    "state": IDLE,
    "table": None,
    "question": None,
    "answer": None,
    "report": None,
    "version": 0,
}


class CheckRefused(ValueError):
    """Something put to the check that is malformed; the sentence says why."""


class CheckConflict(CheckRefused):
    """A check step that does not fit the check's state (one runs, none runs, stopped)."""


def _seen(row: dict | None) -> dict:
    """The check a row stands for: an earlier run's row is no check, its number kept."""
    if row is None:
        return dict(NO_CHECK)
    if not row["current"]:
        return {**NO_CHECK, "current": False, "number": row["number"], "version": row["version"]}
    return row


def _etag(current: bool, number: int, version: int) -> str:
    # An earlier run's row shows version 0, which no check of a number above 0 ever had:
    # a page that held the old check's etag sees the change.
    return f"check:{number}:{version if current else 0}"


@contextmanager
def _step() -> Iterator[dict]:
    """The check, read and (if the step changed it) written back with the next version, in
    one write transaction: steps from every thread and process take turns. A step that
    changes nothing (stopping no check, the same answer again) keeps the version."""
    conn = db.get_db()
    with db.write_transaction(conn):
        check = _seen(box_check.read(conn))
        before = dict(check)
        yield check
        if check != before:
            check["version"] += 1
            box_check.write(conn, check)


class BoxCheckRun:
    """The app's box check: its state, the question on screen, the answer and the report
    (in the database's one row; every method needs an app context)."""

    def request(self, table_id: str) -> None:
        """The box page of `table_id` asks for a check (CheckRefused while one runs)."""
        with _step() as check:
            if check["state"] in (ASKED, RUNNING):
                raise CheckConflict("A check of the box is already running.")
            check.update(
                number=check["number"] + 1,
                state=ASKED,
                table=table_id,
                question=None,
                answer=None,
                report=None,
            )

    def pending(self) -> int | None:
        """The number of a check asked for and not started yet (the bridge starts it)."""
        head = box_check.head(db.get_db())
        if head is None:
            return None
        current, number, state, _version = head
        return number if current and state == ASKED else None

    def start(self, number: int) -> None:
        """The bridge starts check `number`."""
        with _step() as check:
            if number != check["number"] or check["state"] != ASKED:
                raise CheckConflict("That check was not asked for, or was stopped.")
            check["state"] = RUNNING

    def ask(self, number: int, question: dict) -> int:
        """The bridge puts a question on the page; its id."""
        with _step() as check:
            _running(check, number)
            check["question"] = {**question, "id": check["version"] + 1}
            check["answer"] = None
        return check["question"]["id"]

    def answer(self, table_id: str, question_id: object, yes: object) -> None:
        """The box page of `table_id` answers the question on screen."""
        with _step() as check:
            _own(check, table_id)
            question = check["question"]
            if check["state"] != RUNNING or question is None:
                raise CheckConflict("No question of the box check is waiting for an answer.")
            if question_id != question["id"] or question["kind"] not in ANSWERED:
                raise CheckConflict("That question is no longer on screen; answer the one shown.")
            if type(yes) is not bool:
                raise CheckRefused("yes must be true or false.")
            check["answer"] = {"question": question_id, "yes": yes}

    def finish(self, number: int, report: dict) -> None:
        """The bridge puts the report: the check is over."""
        with _step() as check:
            _running(check, number)
            check.update(state=DONE, report=report, question=None)

    def cancel(self, table_id: str) -> None:
        """The box page of `table_id` stops its check (the bridge gives the box back)."""
        with _step() as check:
            if check["state"] in (ASKED, RUNNING):
                _own(check, table_id)
                check.update(state=CANCELLED, question=None)

    def snapshot(self, table_id: str | None = None) -> dict:
        """The check as JSON, with its etag; for another table's box page (`table_id`), a
        running check shows only that it runs, not its questions, answers or report."""
        check = _seen(box_check.read(db.get_db()))
        shown = table_id is None or check["table"] == table_id
        return {
            "number": check["number"],
            "state": check["state"],
            "table": check["table"],
            "question": check["question"] if shown else None,
            "answer": check["answer"] if shown else None,
            "report": check["report"] if shown else None,
            "etag": _etag(check["current"], check["number"], check["version"]),
        }

    def etag(self) -> str:
        """What changes with every step of the check (one row read, no JSON)."""
        head = box_check.head(db.get_db())
        if head is None:
            return _etag(True, 0, 0)
        current, number, _state, version = head
        return _etag(current, number, version)


def _own(check: dict, table_id: str) -> None:
    # Rights on one table must not reach another table's check (issue 33, item 4).
    if check["state"] in (ASKED, RUNNING) and check["table"] != table_id:
        raise CheckConflict(ANOTHER_TABLE)


def _running(check: dict, number: int) -> None:
    if number != check["number"] or check["state"] != RUNNING:
        raise CheckConflict("That check is not running (it was stopped).")


def get_check(app: Flask) -> BoxCheckRun:
    """The app's box check, created on first use."""
    return app.extensions.setdefault(_EXTENSION, BoxCheckRun())


# ----- what the bridge may put here --------------------------------------------------------


def _whole(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def checked_question(question: object) -> dict:
    """The bridge's question, checked field by field (CheckRefused names what is wrong)."""
    if not isinstance(question, dict) or question.get("kind") not in QUESTION_KINDS:
        raise CheckRefused(f"question.kind must be one of {', '.join(QUESTION_KINDS)}.")
    kind = question["kind"]
    if kind == "press":
        if not _whole(question.get("seat"), 1, SEATS):
            raise CheckRefused(f"question.seat must be 1 to {SEATS}.")
        return {"kind": kind, "seat": question["seat"]}
    if kind == "beep":
        return {"kind": kind}
    led = question.get("led")
    if not (
        isinstance(led, dict)
        and _whole(led.get("index"), 0, LEDS - 1)
        and led.get("segment") in SEGMENTS
        and _whole(led.get("number"), 1, LEDS)
    ):
        raise CheckRefused("question.led must be {index, segment, number} of a strip LED.")
    if question.get("colour") not in COLOURS:
        raise CheckRefused(f"question.colour must be one of {', '.join(COLOURS)}.")
    return {
        "kind": kind,
        "led": {k: led[k] for k in ("index", "segment", "number")},
        "colour": question["colour"],
    }


def checked_report(report: object) -> dict:
    """The bridge's report, checked (findings by known codes, short words, bounded text)."""
    if not isinstance(report, dict) or type(report.get("passed")) is not bool:
        raise CheckRefused("report must be an object with passed true or false.")
    results = report.get("results")
    if not isinstance(results, list) or not all(_finding(r) for r in results):
        raise CheckRefused("report.results must be findings with a known verdict, item and code.")
    text = report.get("text")
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise CheckRefused(f"report.text must be text of at most {MAX_TEXT} characters.")
    hello = report.get("hello", {})
    if not isinstance(hello, dict) or not all(_word(v) for v in hello.values()):
        raise CheckRefused("report.hello must be the box's HELLO fields.")
    return {
        "passed": report["passed"],
        "results": results,
        "text": text,
        "hello": {str(k)[:MAX_WORD]: v for k, v in hello.items()},
    }


def _finding(result: object) -> bool:
    return (
        isinstance(result, dict)
        and result.get("verdict") in (PASS, FAIL, WARN)
        and result.get("item") in ITEMS
        and result.get("code") in FINDINGS
        and isinstance(result.get("params"), dict)
        and all(_word(v) or k == "led" and _led(v) for k, v in result["params"].items())
    )


def _word(value: object) -> bool:
    return (isinstance(value, str) and len(value) <= MAX_WORD) or (
        type(value) is int and abs(value) < 10**9
    )


def _led(value: object) -> bool:
    return isinstance(value, dict) and all(_word(v) for v in value.values())
