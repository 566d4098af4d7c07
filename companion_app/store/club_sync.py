"""Keeps the club's rows (seats, evenings, placings) in step with the tables, and migrates.

Called inside the store's write transactions: a new table's seats are linked to people and
the table to its evening; a state that is finished records the game's placings, one that is
no longer finished (its end undone) forgets them. `sync` runs when the app opens a database:
it links every table that has no seats or evening yet and records every finished game that
has no placings (a database from before the roster, or one an older companion wrote to), so
old tables keep working and their names map to people. Whether a new table counts for the
club (store/counted.py) is decided in the same transaction that creates it.
"""

import sqlite3
from collections.abc import Collection
from datetime import datetime

from flask import Flask

from companion_app.store import counted, db, finished, league, roster, stored_json
from scoring.errors import RuleError
from scoring.games import get_game


def follow_create(
    conn: sqlite3.Connection,
    table_id: str,
    game: str,
    state: dict,
    now: str,
    new_people: Collection[str] | None = None,
) -> None:
    """Seat a new table's people (refusing unconfirmed near-duplicates when `new_people` is
    given), put it into today's evening and count it if its creator is trusted."""
    roster.seat_people(conn, table_id, seat_names(game, state), now, new_people=new_people)
    league.assign_evening(conn, table_id, datetime.fromisoformat(now))
    counted.follow_create(conn, table_id, now)


def seat_names(game: str, state: dict) -> list[str]:
    """The names in seat order: from the results where the game has them, else its summary."""
    final = _final(game, state)
    if final is not None:
        return [str(player["name"]) for player in final["players"]]
    return [str(name) for name in get_game(game).summary(state).get("players", [])]


def follow_state(conn: sqlite3.Connection, table_id: str, game: str, state: dict, now: str) -> None:
    """Record the placings of a finished state; forget them when the state is not finished."""
    final = _final(game, state)
    if final is not None and final["finished"]:
        finished.record(conn, table_id, game, final, now)
    else:
        finished.clear(conn, table_id)


def _final(game: str, state: dict) -> dict | None:
    """The rules' final results of a state (None for a game without them)."""
    rules = get_game(game)
    return rules.results(state) if hasattr(rules, "results") else None


def sync(conn: sqlite3.Connection) -> None:
    """Link and record whatever tables lack (a migration that is safe to run every time)."""
    unseated = conn.execute(
        "SELECT id, game, version, created_at FROM tables"
        " WHERE id NOT IN (SELECT table_id FROM seats) ORDER BY created_at, id"
    ).fetchall()
    for row in unseated:
        names = _names(conn, row)
        if names is not None:
            roster.seat_people(conn, row["id"], names, row["created_at"], strict=False)
    for row in conn.execute(
        "SELECT id, created_at FROM tables WHERE id NOT IN (SELECT table_id FROM table_evenings)"
    ).fetchall():
        league.assign_evening(conn, row["id"], datetime.fromisoformat(row["created_at"]))
    conn.execute(
        "DELETE FROM placings WHERE table_id IN (SELECT id FROM tables WHERE finished = 0)"
    )
    conn.execute(
        "DELETE FROM finished_games WHERE table_id IN (SELECT id FROM tables WHERE finished = 0)"
    )
    for row in conn.execute(
        "SELECT id, game, version, updated_at FROM tables"
        " WHERE finished = 1 AND id NOT IN (SELECT table_id FROM finished_games)"
    ).fetchall():
        state = _state(conn, row)
        final = None if state is None else _safe_final(row["game"], state)
        if final is not None and final["finished"]:
            finished.record(conn, row["id"], row["game"], final, row["updated_at"])


def _state(conn: sqlite3.Connection, row: sqlite3.Row) -> dict | None:
    """A table's latest state from its snapshot."""
    if row["version"] == 0:
        found = conn.execute("SELECT state_json FROM tables WHERE id = ?", (row["id"],))
    else:
        found = conn.execute(
            "SELECT state_json FROM log WHERE table_id = ? AND seq = ?", (row["id"], row["version"])
        )
    text = found.fetchone()
    return None if text is None else stored_json.loads(text["state_json"])


def _names(conn: sqlite3.Connection, row: sqlite3.Row) -> list[str] | None:
    """The seat names of a stored table (None when its game is no longer known)."""
    state = _state(conn, row)
    try:
        return (
            None
            if state is None
            else [str(n) for n in get_game(row["game"]).summary(state)["players"]]
        )
    except RuleError:
        return None


def _safe_final(game: str, state: dict) -> dict | None:
    """`_final`, or None for a game this companion no longer knows."""
    try:
        return _final(game, state)
    except RuleError:
        return None


def init_app(app: Flask) -> None:
    """Bring the club's rows of the app's database up to date with its tables."""
    conn = db.connect(db.database_path(app))
    try:
        with db.write_transaction(conn):
            sync(conn)
    finally:
        conn.close()
