"""Reveals on their own: arm, press and disarm, each one durable write transaction.

The rules (which seats may press, when everyone has locked in) are `scoring.reveal`; this
module loads the table's current reveal, asks the rules and stores the answer, so a press
that was acknowledged survives a crash like a move does (WAL, synchronous=FULL). Each write
wakes the waiting long polls (`companion_app.store.changes`).
"""

from datetime import datetime, timedelta

from companion_app.store import db
from companion_app.store.changes import notify_app
from companion_app.store.model import Table, TableAbandoned
from companion_app.store.reveal_gate import (
    DISARMED,
    NEVER_ARMED,
    Reveal,
    insert_reveal,
    latest_row,
    mark_disarmed,
    now_text,
    reveal_from_row,
    write_locked,
)
from companion_app.store.tables import get_store
from scoring import reveal as rules
from scoring.games import get_game

__all__ = ["Reveal", "arm", "current", "current_and_tag", "disarm", "press", "seat_count"]


def seat_count(table: Table) -> int:
    """How many seats the table has, as its game shows them on the box."""
    return get_game(table.game).device_display(table.state)["seats"]


def current(table_id: str) -> Reveal | None:
    """The table's current reveal, or None (no check that the table exists)."""
    return reveal_from_row(latest_row(db.get_db(), table_id))


def current_and_tag(table_id: str) -> tuple[Reveal | None, str]:
    """The current reveal and a tag that changes with every arm, press and disarm."""
    row = latest_row(db.get_db(), table_id)
    if row is None:
        return None, NEVER_ARMED
    found = reveal_from_row(row)
    if found is None:
        return None, f"{row['id']}:{DISARMED}"
    return found, f"{found.id}:{len(found.locked)}"


def _open_table(table_id: str) -> Table:
    """The table, refusing with TableAbandoned if its host gave it up."""
    table = get_store().get(table_id)
    if table.abandoned:
        raise TableAbandoned()
    return table


def arm(table_id: str, seats: object) -> Reveal:
    """Arm a new reveal for `seats` with the next id; it replaces any current one."""
    conn = db.get_db()
    with db.write_transaction(conn):
        fresh = insert_reveal(conn, table_id, seats, seat_count(_open_table(table_id)))
    notify_app()
    return fresh


def press(table_id: str, reveal_id: object, seat: object, age_ms: int = 0) -> tuple[Reveal, bool]:
    """Lock `seat` in reveal `reveal_id`: (the reveal after it, True if it was already locked).
    `age_ms`: the box's button locked it that long ago, so a reveal it completes began then
    (the box's countdown runs from that moment, and the panel's must too)."""
    conn = db.get_db()
    with db.write_transaction(conn):
        table = _open_table(table_id)
        stored = current(table_id)
        after, duplicate = rules.press(
            None if stored is None else stored.as_json(), reveal_id, seat, seat_count(table)
        )
        if duplicate:
            return stored, True
        now = now_text()
        began = (datetime.fromisoformat(now) - timedelta(milliseconds=age_ms)).isoformat(
            timespec="microseconds"
        )
        revealed_at = began if after["revealed"] else None
        write_locked(conn, table_id, after, began)
    notify_app()
    when = None if revealed_at is None else datetime.fromisoformat(revealed_at)
    return Reveal(after["id"], after["seats"], after["locked"], when), False


def disarm(table_id: str) -> None:
    """No reveal on this table any more (nothing to do when none is armed)."""
    conn = db.get_db()
    with db.write_transaction(conn):
        get_store().get(table_id)
        mark_disarmed(conn, table_id)
    notify_app()
