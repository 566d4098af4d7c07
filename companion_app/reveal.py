"""Reveals in the database: arm, press and disarm, each one durable write transaction.

The rules (which seats may press, when everyone has locked in) are `scoring.reveal`; this
module loads the table's current reveal, asks the rules and stores the answer, so a press
that was acknowledged survives a crash like a move does (WAL, synchronous=FULL). The latest
row of a table is its current reveal unless it was disarmed; ids only grow.
"""

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from companion_app import db
from companion_app.device_changes import notify_app
from companion_app.store import Table, get_store
from scoring import reveal as rules
from scoring.errors import N_, IllegalMove
from scoring.games import get_game

#: Reveal tags (part of the device etag): no reveal was ever armed; the latest was disarmed.
NEVER_ARMED = "0"
DISARMED = "off"


@dataclass(frozen=True)
class Reveal:
    """A stored reveal: the rules' dict plus when every seat had locked in (None before)."""

    id: int
    seats: list
    locked: list
    revealed_at: datetime | None

    @property
    def revealed(self) -> bool:
        """True once every armed seat has locked in."""
        return self.locked == self.seats

    def as_json(self) -> dict:
        """The reveal as the API and the rules see it."""
        return {
            "id": self.id,
            "seats": list(self.seats),
            "locked": list(self.locked),
            "revealed": self.revealed,
        }


def _now() -> str:
    """The current UTC time as sortable ISO text."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def seat_count(table: Table) -> int:
    """How many seats the table has, as its game shows them on the box."""
    return get_game(table.game).device_display(table.state)["seats"]


def _latest(conn: sqlite3.Connection, table_id: str) -> sqlite3.Row | None:
    """The table's newest reveal row, disarmed or not."""
    return conn.execute(
        "SELECT id, seats_json, locked_json, disarmed, revealed_at FROM reveals"
        " WHERE table_id = ? ORDER BY id DESC LIMIT 1",
        (table_id,),
    ).fetchone()


def _from_row(row: sqlite3.Row | None) -> Reveal | None:
    """The current reveal a row stands for (None for no row or a disarmed one)."""
    if row is None or row["disarmed"]:
        return None
    revealed_at = row["revealed_at"]
    return Reveal(
        id=row["id"],
        seats=json.loads(row["seats_json"]),
        locked=json.loads(row["locked_json"]),
        revealed_at=None if revealed_at is None else datetime.fromisoformat(revealed_at),
    )


def current(table_id: str) -> Reveal | None:
    """The table's current reveal, or None (no check that the table exists)."""
    return _from_row(_latest(db.get_db(), table_id))


def current_and_tag(table_id: str) -> tuple[Reveal | None, str]:
    """The current reveal and a tag that changes with every arm, press and disarm."""
    row = _latest(db.get_db(), table_id)
    if row is None:
        return None, NEVER_ARMED
    found = _from_row(row)
    if found is None:
        return None, f"{row['id']}:{DISARMED}"
    return found, f"{found.id}:{len(found.locked)}"


def arm(table_id: str, seats: object) -> Reveal:
    """Arm a new reveal for `seats` with the next id; it replaces any current one."""
    conn = db.get_db()
    with db.write_transaction(conn):
        fresh = _insert(conn, table_id, seats, seat_count(get_store().get(table_id)))
    notify_app()
    return fresh


def _insert(conn: sqlite3.Connection, table_id: str, seats: object, seats_at_table: int) -> Reveal:
    """Store a new reveal for `seats` with the next id (inside the caller's transaction)."""
    latest = _latest(conn, table_id)
    fresh = rules.arm(0 if latest is None else latest["id"], seats, seats_at_table)
    now = _now()
    conn.execute(
        "INSERT INTO reveals (table_id, id, seats_json, locked_json, created_at, updated_at)"
        " VALUES (?, ?, ?, '[]', ?, ?)",
        (table_id, fresh["id"], json.dumps(fresh["seats"]), now, now),
    )
    return Reveal(fresh["id"], fresh["seats"], [], None)


def press(table_id: str, reveal_id: object, seat: object) -> tuple[Reveal, bool]:
    """Lock `seat` in reveal `reveal_id`: (the reveal after it, True if it was already locked)."""
    conn = db.get_db()
    with db.write_transaction(conn):
        table = get_store().get(table_id)
        stored = current(table_id)
        after, duplicate = rules.press(
            None if stored is None else stored.as_json(), reveal_id, seat, seat_count(table)
        )
        if duplicate:
            return stored, True
        now = _now()
        revealed_at = now if after["revealed"] else None
        conn.execute(
            "UPDATE reveals SET locked_json = ?, revealed_at = ?, updated_at = ?"
            " WHERE table_id = ? AND id = ?",
            (json.dumps(after["locked"]), revealed_at, now, table_id, after["id"]),
        )
    notify_app()
    when = None if revealed_at is None else datetime.fromisoformat(revealed_at)
    return Reveal(after["id"], after["seats"], after["locked"], when), False


def disarm(table_id: str) -> None:
    """No reveal on this table any more (nothing to do when none is armed)."""
    conn = db.get_db()
    with db.write_transaction(conn):
        get_store().get(table_id)
        _disarm(conn, table_id)
    notify_app()


def _disarm(conn: sqlite3.Connection, table_id: str) -> None:
    """Mark the table's reveal disarmed (inside the caller's transaction)."""
    conn.execute(
        "UPDATE reveals SET disarmed = 1, updated_at = ? WHERE table_id = ? AND disarmed = 0",
        (_now(), table_id),
    )


# -- the reveal gate: games whose rules have `reveal_seats(state)` (docs/device-api.md) ----


def pending_seats(game_rules: object, state: dict) -> list[int]:
    """The seats that must choose at the same time now (none for a game without the hook)."""
    hook = getattr(game_rules, "reveal_seats", None)
    return list(hook(state)) if hook is not None else []


def require_locked_in(conn: sqlite3.Connection, table_id: str, game_rules, state: dict) -> None:
    """Refuse a move while a simultaneous choice is pending and not every seat has locked in."""
    seats = pending_seats(game_rules, state)
    if not seats:
        return
    found = _from_row(_latest(conn, table_id))
    # A current reveal that arms every choosing seat counts (e.g. one the panel armed for all
    # seats); one that leaves a choosing seat out, or a disarmed one, counts as nobody locked in.
    covers = found is not None and all(seat in found.seats for seat in seats)
    locked = found.locked if covers else []
    if all(seat in locked for seat in seats):
        return
    names = [state["players"][seat]["name"] for seat in seats if seat not in locked]
    raise IllegalMove(
        N_("Not everyone has locked in yet: waiting for {names}."), names=", ".join(names)
    )


def follow_move(conn: sqlite3.Connection, table_id: str, game_rules, before: dict, after: dict):
    """After a move: arm a reveal for the seats of a simultaneous choice that just began."""
    seats = pending_seats(game_rules, after)
    if seats and seats != pending_seats(game_rules, before):
        _insert(conn, table_id, seats, game_rules.device_display(after)["seats"])


def follow_undo(conn: sqlite3.Connection, table_id: str, game_rules, after: dict) -> None:
    """After an undo: keep the reveal that matches the restored choice, else arm or disarm."""
    if getattr(game_rules, "reveal_seats", None) is None:
        return
    seats = pending_seats(game_rules, after)
    found = _from_row(_latest(conn, table_id))
    if seats and (found is None or found.seats != seats):
        _insert(conn, table_id, seats, game_rules.device_display(after)["seats"])
    elif not seats and found is not None:
        _disarm(conn, table_id)
