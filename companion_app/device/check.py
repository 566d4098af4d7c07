"""The first-plug check run from the box page: the app's side of it, kept in memory.

The page asks for a check (`request`); the bridge sees the request in the device view it
follows (`pending`), closes its session and runs the same check as `companion device check`
(bridge/check.py) with the page as the builder: it puts each question here (`ask`) and waits
for the page's answer (`answer`), then puts the report (`finish`). `version` changes with
every step, so both long-poll `GET /api/device/check?wait=<etag>`. Nothing is stored: a
restart forgets a check, and the bridge's next question finds it gone and stops.
"""

import threading

from flask import Flask

from companion_app.bridge.checkreport import COLOURS, FAIL, FINDINGS, ITEMS, PASS, WARN

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


class CheckRefused(ValueError):
    """Something put to the check that is malformed; the sentence says why."""


class CheckConflict(CheckRefused):
    """A check step that does not fit the check's state (one runs, none runs, stopped)."""


class BoxCheckRun:
    """One app's box check: its state, the question on screen, the answer and the report."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.number = 0  # checks asked for since the app started
        self.state = IDLE
        self.table: str | None = None  # the box page that asked
        self.question: dict | None = None
        self.answer_to: dict | None = None  # {"question": id, "yes": bool}
        self.report: dict | None = None
        self.version = 0

    def _changed(self) -> None:
        self.version += 1

    def request(self, table_id: str) -> None:
        """The box page of `table_id` asks for a check (CheckRefused while one runs)."""
        with self._lock:
            if self.state in (ASKED, RUNNING):
                raise CheckConflict("A check of the box is already running.")
            self.number += 1
            self.state, self.table = ASKED, table_id
            self.question = self.answer_to = self.report = None
            self._changed()

    def pending(self) -> int | None:
        """The number of a check asked for and not started yet (the bridge starts it)."""
        with self._lock:
            return self.number if self.state == ASKED else None

    def start(self, number: int) -> None:
        """The bridge starts check `number`."""
        with self._lock:
            if number != self.number or self.state != ASKED:
                raise CheckConflict("That check was not asked for, or was stopped.")
            self.state = RUNNING
            self._changed()

    def ask(self, number: int, question: dict) -> int:
        """The bridge puts a question on the page; its id."""
        with self._lock:
            self._running(number)
            self.question = {**question, "id": self.version + 1}
            self.answer_to = None
            self._changed()
            return self.question["id"]

    def answer(self, table_id: str, question_id: object, yes: object) -> None:
        """The box page of `table_id` answers the question on screen."""
        with self._lock:
            self._own(table_id)
            if self.state != RUNNING or self.question is None:
                raise CheckConflict("No question of the box check is waiting for an answer.")
            if question_id != self.question["id"] or self.question["kind"] not in ANSWERED:
                raise CheckConflict("That question is no longer on screen; answer the one shown.")
            if type(yes) is not bool:
                raise CheckRefused("yes must be true or false.")
            self.answer_to = {"question": question_id, "yes": yes}
            self._changed()

    def finish(self, number: int, report: dict) -> None:
        """The bridge puts the report: the check is over."""
        with self._lock:
            self._running(number)
            self.state, self.report, self.question = DONE, report, None
            self._changed()

    def cancel(self, table_id: str) -> None:
        """The box page of `table_id` stops its check (the bridge gives the box back)."""
        with self._lock:
            if self.state in (ASKED, RUNNING):
                self._own(table_id)
                self.state, self.question = CANCELLED, None
                self._changed()

    def _own(self, table_id: str) -> None:
        # Rights on one table must not reach another table's check (issue 33, item 4).
        if self.state in (ASKED, RUNNING) and self.table != table_id:
            raise CheckConflict(ANOTHER_TABLE)

    def _running(self, number: int) -> None:
        if number != self.number or self.state != RUNNING:
            raise CheckConflict("That check is not running (it was stopped).")

    def snapshot(self, table_id: str | None = None) -> dict:
        """The check as JSON, with its etag; for another table's box page (`table_id`), a
        running check shows only that it runs, not its questions, answers or report."""
        with self._lock:
            if table_id is not None and self.table != table_id:
                return {
                    "number": self.number,
                    "state": self.state,
                    "table": self.table,
                    "question": None,
                    "answer": None,
                    "report": None,
                    "etag": self.etag_locked(),
                }
            return {
                "number": self.number,
                "state": self.state,
                "table": self.table,
                "question": self.question,
                "answer": self.answer_to,
                "report": self.report,
                "etag": self.etag_locked(),
            }

    def etag(self) -> str:
        with self._lock:
            return self.etag_locked()

    def etag_locked(self) -> str:
        return f"check:{self.number}:{self.version}"


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
