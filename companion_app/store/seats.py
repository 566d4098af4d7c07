"""Seats on the players' phones: who holds each seat's link, and the choices they sealed.

A seat's link carries a key for the seat's current generation (`server/rights.seat_key`);
taking it gives the phone a fresh random token, stored here and kept in the phone's session,
so a later join replaces the earlier phone and the host's drop (a new generation, no token)
makes both the phone and the old link worthless.

A sealed choice waits in `sealed_choices`, read by nobody but its own seat, until every seat
that chooses has locked in. Sealing locks the seat in (the box shows it like a button press);
the seal that completes the reveal, when every choosing seat sealed, applies the move their
choices make in the same transaction, so the reveal is one logged move and a crash between
two seals keeps the first and reveals nothing. A seat that locked in on the box or the tablet
leaves its choice to the scorer, whose form then shows the sealed choices (`revealed`).
"""

import json
import secrets
import sqlite3
from dataclasses import dataclass

from companion_app.store import db
from companion_app.store.changes import notify_app
from companion_app.store.model import Table
from companion_app.store.reveal_gate import (
    Reveal,
    latest_row,
    now_text,
    reveal_from_row,
    write_locked,
)
from companion_app.store.tables import get_store
from scoring import reveal as reveal_rules
from scoring import sealed
from scoring.errors import N_, IllegalMove
from scoring.games import get_game

#: Random bytes of a phone's token (base64 in the session cookie).
TOKEN_BYTES = 16


@dataclass(frozen=True)
class SealResult:
    """What a seal did: the table after it, and whether it made the move everyone chose."""

    table: Table
    moved: bool


def generation(table_id: str, seat: int) -> int:
    """The seat link's current generation (0 until the host first drops a phone)."""
    row = _row(db.get_db(), table_id, seat)
    return 0 if row is None else row["generation"]


def phones(table_id: str) -> dict[int, str]:
    """Seats held by a phone now -> when it joined (ISO text)."""
    rows = db.get_db().execute(
        "SELECT seat, joined_at FROM seat_phones WHERE table_id = ? AND token IS NOT NULL",
        (table_id,),
    )
    return {row["seat"]: row["joined_at"] for row in rows}


def holds(table_id: str, seat: int, token: object) -> bool:
    """True if `token` is the phone that holds the seat now."""
    row = _row(db.get_db(), table_id, seat)
    return (
        isinstance(token, str)
        and row is not None
        and row["token"] is not None
        and secrets.compare_digest(row["token"].encode(), token.encode())
    )


def join(table_id: str, seat: int, seen_generation: int) -> str:
    """Give the seat to a new phone (the link of `seen_generation`); its token, or refuse."""
    conn = db.get_db()
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with db.write_transaction(conn):
        get_store().open_head(conn, table_id)
        row = _row(conn, table_id, seat)
        if (0 if row is None else row["generation"]) != seen_generation:
            raise IllegalMove(N_("This seat link was replaced; ask the host for the new one."))
        conn.execute(
            "INSERT INTO seat_phones (table_id, seat, generation, token, joined_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, seat)"
            " DO UPDATE SET token = excluded.token, joined_at = excluded.joined_at",
            (table_id, seat, seen_generation, token, now_text()),
        )
    notify_app()
    return token


def drop(table_id: str, seat: int) -> None:
    """The host takes the seat from its phone: a new link generation, no phone."""
    conn = db.get_db()
    with db.write_transaction(conn):
        get_store().get(table_id)
        conn.execute(
            "INSERT INTO seat_phones (table_id, seat, generation) VALUES (?, ?, 1)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET generation = generation + 1,"
            " token = NULL, joined_at = NULL",
            (table_id, seat),
        )
    notify_app()


def _step(conn: sqlite3.Connection, table: Table, rules) -> tuple[str | None, Reveal | None]:
    """Where the seals of now are kept: the current reveal's, or the table version's for an
    entry no reveal gates; (None, None) while a gated choice has no reveal armed."""
    if not sealed.gated_seats(rules, table.state):
        return f"version:{table.version}", None
    found = reveal_from_row(latest_row(conn, table.id))
    return (None, None) if found is None else (f"reveal:{found.id}", found)


def _last_reveal(conn: sqlite3.Connection, table_id: str) -> tuple[str | None, Reveal | None]:
    """The latest reveal's step once every seat locked in (its choices are no secret now)."""
    found = reveal_from_row(latest_row(conn, table_id))
    if found is None or not found.revealed:
        return None, None
    return f"reveal:{found.id}", found


def own_choice(table: Table, seat: int, now_only: bool = False) -> object | None:
    """What this seat sealed now, else in the reveal that just ended (None: nothing).

    `now_only`: the seat chooses again now (an exhibitor's cards right after the action cards'
    reveal), so the reveal that ended is not its choice of now."""
    conn = db.get_db()
    rules = get_game(table.game)
    steps = [_step(conn, table, rules)] + ([] if now_only else [_last_reveal(conn, table.id)])
    for step, _found in steps:
        mine = None if step is None else _sealed(conn, table.id, step).get(seat)
        if mine is not None:
            return mine
    return None


def revealed(table: Table) -> dict[int, object]:
    """The sealed choices the scorer may see: a reveal's once all locked in, entries once every
    entering seat that a phone holds has entered (they are laid out at once, as an Adel
    Verpflichtet exhibition is: nobody sees the first before the last is down)."""
    conn = db.get_db()
    rules = get_game(table.game)
    step, found = _step(conn, table, rules)
    if step is not None and found is None:
        entered = _sealed(conn, table.id, step)
        held = phones(table.id)
        still = [s for s in sealed.choosing_seats(rules, table.state) if s in held]
        return entered if all(s in entered for s in still) else {}
    step, _found = _last_reveal(conn, table.id)
    return {} if step is None else _sealed(conn, table.id, step)


def sealed_seats(table: Table) -> list[int]:
    """The seats that sealed at the current step (who, never what)."""
    conn = db.get_db()
    step, _found = _step(conn, table, get_game(table.game))
    return [] if step is None else sorted(_sealed(conn, table.id, step))


def seal(table_id: str, seat: int, choice: object) -> SealResult:
    """Seal `seat`'s choice (or change it) and lock the seat in; the last seal reveals them all."""
    conn = db.get_db()
    store = get_store()
    with db.write_transaction(conn):
        head = store.open_head(conn, table_id)
        rules = get_game(head["game"])
        table = store.table_of(conn, head)
        choice = sealed.check(rules, table.state, seat, choice)
        step, found = _step(conn, table, rules)
        if step is None or (found is not None and found.revealed):
            raise IllegalMove(N_("Everyone has already chosen; the choices are revealed."))
        conn.execute(
            "INSERT INTO sealed_choices (table_id, step, seat, choice_json, sealed_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, step, seat)"
            " DO UPDATE SET choice_json = excluded.choice_json, sealed_at = excluded.sealed_at",
            (table_id, step, seat, json.dumps(choice), now_text()),
        )
        ready = True
        if found is not None:
            seats = rules.device_display(table.state)["seats"]
            ready = _lock(conn, table_id, found.as_json(), seat, seats)
        move = sealed.move(rules, table.state, _sealed(conn, table_id, step))
        after = store.apply_in(conn, head, move) if ready and move is not None else None
    if after is None:
        notify_app()
        return SealResult(table, moved=False)
    store.remember(after)
    notify_app()
    return SealResult(after, moved=True)


def _lock(conn: sqlite3.Connection, table_id: str, reveal: dict, seat: int, seats: int) -> bool:
    """Lock `seat` in the reveal, as a press on the box would; True once every seat has."""
    after, duplicate = reveal_rules.press(reveal, reveal["id"], seat, seats)
    if not duplicate:
        write_locked(conn, table_id, after, now_text())
    return after["revealed"]


def _sealed(conn: sqlite3.Connection, table_id: str, step: str) -> dict[int, object]:
    """Seat -> sealed choice at `step`."""
    rows = conn.execute(
        "SELECT seat, choice_json FROM sealed_choices WHERE table_id = ? AND step = ?",
        (table_id, step),
    )
    return {row["seat"]: json.loads(row["choice_json"]) for row in rows}


def _row(conn: sqlite3.Connection, table_id: str, seat: int) -> sqlite3.Row | None:
    """The seat's phone row, if it ever had one."""
    return conn.execute(
        "SELECT generation, token, joined_at FROM seat_phones WHERE table_id = ? AND seat = ?",
        (table_id, seat),
    ).fetchone()
