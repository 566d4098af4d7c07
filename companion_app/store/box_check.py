"""The box check's one row (device/check.py is its logic), and this server run's boot id.

Every process of a server (`serve --workers`) reads and writes the same row, so the box page
and the bridge see one check whichever worker each reaches. The row carries the boot id of
the server run that wrote it: one made in `init_app`, before any worker is forked, so the
parent and its workers share it; a row of an earlier run is no check (a restart forgets one).
The row never leaves the computer: portable exports list what they carry, and this is not in it.
"""

import json
import secrets
import sqlite3

from flask import Flask, current_app

_BOOT = "companion_boot"
_ROW = 1


def init_app(app: Flask) -> None:
    """Give `app` its boot id (before any fork: every worker of this run shares it)."""
    app.extensions[_BOOT] = secrets.token_hex(8)


def boot() -> str:
    """The current app's boot id."""
    return current_app.extensions[_BOOT]


def head(conn: sqlite3.Connection) -> tuple[bool, int, str, int] | None:
    """(written by this run?, number, state, version) of the row, None if there is none: one
    primary-key read and no JSON, for the etag every held poll asks for on every change."""
    row = conn.execute(
        "SELECT boot, number, state, version FROM box_check WHERE id = ?", (_ROW,)
    ).fetchone()
    if row is None:
        return None
    return (row["boot"] == boot(), row["number"], row["state"], row["version"])


def read(conn: sqlite3.Connection) -> dict | None:
    """The whole row, or None if there is none; `current`: this run wrote it."""
    row = conn.execute("SELECT * FROM box_check WHERE id = ?", (_ROW,)).fetchone()
    if row is None:
        return None
    return {
        "current": row["boot"] == boot(),
        "number": row["number"],
        "state": row["state"],
        "table": row["table_id"],
        "question": _loads(row["question_json"]),
        "answer": _loads(row["answer_json"]),
        "report": _loads(row["report_json"]),
        "version": row["version"],
    }


def write(conn: sqlite3.Connection, check: dict) -> None:
    """Put `check` (the keys `read` gives) in the row as this run's, in the caller's transaction."""
    conn.execute(
        "INSERT INTO box_check (id, boot, number, state, table_id, question_json, answer_json,"
        " report_json, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET boot = excluded.boot, number = excluded.number,"
        " state = excluded.state, table_id = excluded.table_id,"
        " question_json = excluded.question_json, answer_json = excluded.answer_json,"
        " report_json = excluded.report_json, version = excluded.version",
        (
            _ROW,
            boot(),
            check["number"],
            check["state"],
            check["table"],
            _dumps(check["question"]),
            _dumps(check["answer"]),
            _dumps(check["report"]),
            check["version"],
        ),
    )


def _dumps(value: object) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _loads(text: str | None) -> object:
    return None if text is None else json.loads(text)
