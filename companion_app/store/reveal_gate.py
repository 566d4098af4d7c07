"""The reveal rows and the gate every move passes, inside the caller's write transaction.

The store calls the gate in a move's own transaction (a move is refused while a simultaneous
choice is pending and not every seat has locked in; a move or undo that starts or ends such
a choice arms or disarms its reveal), so the web form and the API behave the same. The latest
row of a table is its current reveal unless it was disarmed; ids only grow. Arming, pressing
and disarming on their own are `companion_app.store.reveals`.
"""

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from scoring import reveal as rules
from scoring.errors import N_, IllegalMove

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


def now_text() -> str:
    """The current UTC time as sortable ISO text."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def latest_row(conn: sqlite3.Connection, table_id: str) -> sqlite3.Row | None:
    """The table's newest reveal row, disarmed or not."""
    return conn.execute(
        "SELECT id, seats_json, locked_json, disarmed, revealed_at FROM reveals"
        " WHERE table_id = ? ORDER BY id DESC LIMIT 1",
        (table_id,),
    ).fetchone()


def reveal_from_row(row: sqlite3.Row | None) -> Reveal | None:
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


def insert_reveal(
    conn: sqlite3.Connection, table_id: str, seats: object, seats_at_table: int
) -> Reveal:
    """Store a new reveal for `seats` with the next id (inside the caller's transaction)."""
    latest = latest_row(conn, table_id)
    fresh = rules.arm(0 if latest is None else latest["id"], seats, seats_at_table)
    now = now_text()
    conn.execute(
        "INSERT INTO reveals (table_id, id, seats_json, locked_json, created_at, updated_at)"
        " VALUES (?, ?, ?, '[]', ?, ?)",
        (table_id, fresh["id"], json.dumps(fresh["seats"]), now, now),
    )
    return Reveal(fresh["id"], fresh["seats"], [], None)


def write_locked(conn: sqlite3.Connection, table_id: str, after: dict, revealed_at: str) -> None:
    """Store the seats locked in a reveal (`after`, the rules' dict), and when it completed
    (`revealed_at`, used once every seat has locked in), inside the caller's transaction."""
    conn.execute(
        "UPDATE reveals SET locked_json = ?, revealed_at = ?, updated_at = ?"
        " WHERE table_id = ? AND id = ?",
        (
            json.dumps(after["locked"]),
            revealed_at if after["revealed"] else None,
            now_text(),
            table_id,
            after["id"],
        ),
    )


def mark_disarmed(conn: sqlite3.Connection, table_id: str) -> None:
    """Mark the table's reveal disarmed (inside the caller's transaction)."""
    conn.execute(
        "UPDATE reveals SET disarmed = 1, updated_at = ? WHERE table_id = ? AND disarmed = 0",
        (now_text(), table_id),
    )


def pending_seats(game_rules: object, state: dict) -> list[int]:
    """The seats that must choose at the same time now (none for a game without the hook)."""
    hook = getattr(game_rules, "reveal_seats", None)
    return list(hook(state)) if hook is not None else []


def pending_step(game_rules: object, state: dict) -> list:
    """Which simultaneous choice is pending, for a game with several in a row (else [])."""
    hook = getattr(game_rules, "reveal_step", None)
    return list(hook(state)) if hook is not None else []


def require_locked_in(conn: sqlite3.Connection, table_id: str, game_rules, state: dict) -> None:
    """Refuse a move while a simultaneous choice is pending and not every seat has locked in."""
    seats = pending_seats(game_rules, state)
    if not seats:
        return
    found = reveal_from_row(latest_row(conn, table_id))
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
    """After a move: arm a reveal for the seats of a simultaneous choice that just began.

    A game whose choices follow each other for the same seats (Adel Verpflichtet: location,
    then action card) names each with `reveal_step`, so the second choice arms its own reveal.
    """
    seats = pending_seats(game_rules, after)
    step_changed = pending_step(game_rules, after) != pending_step(game_rules, before)
    if seats and (seats != pending_seats(game_rules, before) or step_changed):
        insert_reveal(conn, table_id, seats, game_rules.device_display(after)["seats"])


def follow_create(conn: sqlite3.Connection, table_id: str, game_rules, state: dict) -> None:
    """A new table whose first step is already a simultaneous choice arms its reveal at once."""
    seats = pending_seats(game_rules, state)
    if seats:
        insert_reveal(conn, table_id, seats, game_rules.device_display(state)["seats"])


def follow_undo(conn: sqlite3.Connection, table_id: str, game_rules, after: dict) -> None:
    """After an undo: keep the reveal that matches the restored choice, else arm or disarm."""
    if getattr(game_rules, "reveal_seats", None) is None:
        return
    seats = pending_seats(game_rules, after)
    found = reveal_from_row(latest_row(conn, table_id))
    if seats and (found is None or found.seats != seats):
        insert_reveal(conn, table_id, seats, game_rules.device_display(after)["seats"])
    elif not seats and found is not None:
        mark_disarmed(conn, table_id)
