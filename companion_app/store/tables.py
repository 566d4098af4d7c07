"""Event-sourced tables: a setup plus an append-only log of moves and undos, state is the fold.

Every log row carries the state after it (a snapshot), so a move costs one snapshot load,
one `apply` and one insert however long the game is. Writers serialize with BEGIN IMMEDIATE
and an optimistic version check; SQLite runs in WAL with synchronous=FULL, so a move that was
acknowledged survives a crash or power loss. States are plain JSON dicts: treat them as
read-only (they may be shared through the in-process cache).
"""

import json
import math
import random
import secrets
import sqlite3
from collections.abc import Collection
from datetime import UTC, datetime, timedelta

from flask import Flask, current_app

from companion_app.store import box_check, club_sync, db, labels, reveal_gate, stored_json
from companion_app.store.model import (
    LogEntry,
    RoomFull,
    StaleVersion,
    Table,
    TableAbandoned,
    TableNotFound,
    TooManyTables,
)
from companion_app.store.state_cache import StateCache
from companion_app.store.windows import playing_since
from scoring.errors import N_, IllegalMove, InvalidSetup, RuleError
from scoring.games import get_game

__all__ = ["Store", "get_store", "init_app"]

_EXTENSION = "companion_store"
#: Table ids: lowercase letters and digits that cannot be misread (no 0/o, 1/l/i).
ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
ID_LENGTH = 8
#: Fresh ids tried before giving up (a clash is ~1 in 10^11 per try).
ID_ATTEMPTS = 5
DEFAULT_CACHE_SIZE = 512
#: Tables one device may start within TABLES_WINDOW (TABLES_PER_DEVICE overrides): a club
#: table starts a game every 20 minutes or so; ten covers setup mistakes and short games.
TABLES_PER_DEVICE = 10
#: Tables all devices together may start within TABLES_WINDOW (TABLES_PER_SERVER overrides):
#: a convention of 100 tables starts about 300 games an hour; many addresses, each within its
#: own share, cannot fill the database and the room display past that (issue 33 item 5).
TABLES_PER_SERVER = 300
TABLES_WINDOW = timedelta(hours=1)
#: A table nobody moved on within this long leaves the home page (kept; its host restores it).
STALE_AFTER = timedelta(days=1)
_TABLE_COLUMNS = (
    "id, game, setup_json, version, finished, created_at, updated_at, label, number,"
    " EXISTS (SELECT 1 FROM abandoned_tables WHERE table_id = tables.id) AS abandoned"
)


def _now() -> str:
    """The current UTC time as sortable ISO text."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _dumps(value: object) -> str:
    """Compact JSON for storage."""
    return json.dumps(value, separators=(",", ":"))


def _new_id() -> str:
    """A short random URL-safe table id."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def _check_version_type(expected_version: object) -> None:
    """Refuse a version that is not a plain int (a programming error in the caller)."""
    if type(expected_version) is not int:
        raise TypeError(f"expected_version must be an int, not {type(expected_version).__name__}")


class Store:
    """Tables and their logs in the app's database, with a small cache of recent states."""

    def __init__(self, cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        """An empty cache of `cache_size` states and a system random source for draws."""
        self._cache = StateCache(cache_size)
        self._rng = random.SystemRandom()

    def create_table(
        self,
        game: str,
        setup: dict,
        origin: str | None = None,
        new_people: Collection[str] | None = None,
        label: object = None,
    ) -> Table:
        """Start a table of `game`; the rules validate `setup` (RuleError if they refuse it).

        `origin` is the device that starts it (None: this computer, never limited): past
        TABLES_PER_DEVICE tables within TABLES_WINDOW it is refused with TooManyTables.
        With `new_people` (the names confirmed as new people), a name that only looks like a
        person of the roster and is not among them is refused (store/roster.py).
        `label` is the host's short label (`labels.clean_label`); without one the table
        takes the lowest number free among the tables in play.
        """
        label = labels.clean_label(label)
        rules = get_game(game)
        if not isinstance(setup, dict):
            raise InvalidSetup(N_("A table setup must be an object."))
        state_text = _dumps(rules.new_table(setup))
        state = json.loads(state_text)
        finished = bool(rules.summary(state)["finished"])
        now = _now()
        conn = db.get_db()
        with db.write_transaction(conn):
            if origin is not None:
                _check_origin(conn, origin, now)
            table_id = self._free_id(conn)
            number = None if label else labels.free_number(conn, playing_since())
            conn.execute(
                "INSERT INTO tables (id, game, setup_json, state_json, version, finished,"
                " created_at, updated_at, label, number) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?)",
                (table_id, game, _dumps(setup), state_text, int(finished), now, now, label, number),
            )
            if origin is not None:
                conn.execute(
                    "INSERT INTO table_origins (table_id, origin, created_at) VALUES (?, ?, ?)",
                    (table_id, origin, now),
                )
            reveal_gate.follow_create(conn, table_id, rules, state)
            club_sync.follow_create(conn, table_id, game, state, now, new_people)
            club_sync.follow_state(conn, table_id, game, state, now)
        self._cache.put((table_id, 0), state)
        created = datetime.fromisoformat(now)
        return Table(
            table_id, game, setup, 0, state, created, created, finished, label=label, number=number
        )

    def free_number(self) -> int:
        """The number a table started now without a label would take (`labels.free_number`)."""
        return labels.free_number(db.get_db(), playing_since())

    def get(self, table_id: str) -> Table:
        """The table with `table_id` at its latest version (TableNotFound if none)."""
        conn = db.get_db()
        return self._table(conn, self._head(conn, table_id))

    def list_page(self, *, finished: bool, offset: int, limit: int) -> tuple[list[Table], int]:
        """One page of the tables in play (`finished` False) or finished, most recent activity
        first, and how many there are; tables in play nobody moved on within STALE_AFTER are
        left out (`stale_tables` finds them)."""
        conn = db.get_db()
        where, args = _listed(finished)
        total = conn.execute(f"SELECT COUNT(*) FROM tables WHERE {where}", args).fetchone()[0]
        rows = conn.execute(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE {where}"
            " ORDER BY updated_at DESC, created_at DESC, id LIMIT ? OFFSET ?",
            (*args, limit, offset),
        ).fetchall()
        return [self._table(conn, row) for row in rows], total

    def stale_tables(self, table_ids: list[str]) -> list[Table]:
        """Those of `table_ids` that left the home page: in play, never moved, untouched
        within STALE_AFTER (a host's own, to restore)."""
        if not table_ids:
            return []
        conn = db.get_db()
        marks = ", ".join("?" for _ in table_ids)
        rows = conn.execute(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id IN ({marks}) AND {_STALE}"
            " AND id NOT IN (SELECT table_id FROM abandoned_tables)"
            " ORDER BY updated_at DESC, id",
            (*table_ids, _stale_before()),
        ).fetchall()
        return [self._table(conn, row) for row in rows]

    def stale_ids(self, limit: int) -> list[str]:
        """Up to `limit` ids of tables that left the home page, most recent first."""
        rows = (
            db.get_db()
            .execute(
                f"SELECT id FROM tables WHERE {_STALE}"
                " AND id NOT IN (SELECT table_id FROM abandoned_tables)"
                " ORDER BY updated_at DESC, id LIMIT ?",
                (_stale_before(), limit),
            )
            .fetchall()
        )
        return [row["id"] for row in rows]

    def restore(self, table_id: str) -> Table:
        """Bring a table that left the home page back for another STALE_AFTER (touch it)."""
        conn = db.get_db()
        with db.write_transaction(conn):
            self._open_head(conn, table_id)
            conn.execute("UPDATE tables SET updated_at = ? WHERE id = ?", (_now(), table_id))
            head = self._head(conn, table_id)
        return self._table(conn, head)

    def list_tables(self, offset: int = 0, limit: int = -1) -> list[Table]:
        """Every table still in play or finished, most recent activity first (not abandoned);
        `limit` of them from `offset` if asked (-1: all)."""
        conn = db.get_db()
        rows = conn.execute(
            f"SELECT {_TABLE_COLUMNS} FROM tables"
            " WHERE id NOT IN (SELECT table_id FROM abandoned_tables)"
            " ORDER BY updated_at DESC, created_at DESC, id LIMIT ? OFFSET ?",
            (limit, offset),
        ).fetchall()
        return [self._table(conn, row) for row in rows]

    def recent_page(
        self,
        playing_since: str,
        finished_since: str,
        games: Collection[str] | None = None,
        first: int = 0,
        size: int | None = None,
    ) -> tuple[list[Table], int, int]:
        """Tables not abandoned that moved since `playing_since` (in play) or `finished_since`
        (finished), as sortable UTC text, oldest first, of `games` (None: all): (`size` of
        them from the `first`, how many are in play, how many in all). Only the page's tables
        are loaded whole: a room screen shows one page, and loading every table for it was
        half of each room render (issue 33 item 8)."""
        conn = db.get_db()
        heads = [
            row
            for row in conn.execute(
                "SELECT id, game, finished FROM tables"
                " WHERE id NOT IN (SELECT table_id FROM abandoned_tables)"
                " AND updated_at >= CASE WHEN finished THEN ? ELSE ? END"
                " ORDER BY created_at, id",
                (finished_since, playing_since),
            )
            if games is None or row["game"] in games
        ]
        end = len(heads) if size is None else first + size
        wanted = [row["id"] for row in heads[first:end]]
        rows = conn.execute(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id IN ({', '.join('?' * len(wanted))})",
            wanted,
        ).fetchall()
        by_id = {row["id"]: row for row in rows}
        page = [self._table(conn, by_id[table_id]) for table_id in wanted if table_id in by_id]
        return page, sum(not row["finished"] for row in heads), len(heads)

    def latest_entry(self, table_id: str) -> LogEntry | None:
        """The table's newest log entry (None before any move); for an undo, `move` is the
        move it undid."""
        row = (
            db.get_db()
            .execute(
                "SELECT entry.seq, entry.kind, COALESCE(entry.move_json, undone.move_json)"
                " AS move_json, entry.undoes, entry.created_at FROM log AS entry"
                " LEFT JOIN log AS undone"
                " ON undone.table_id = entry.table_id AND undone.seq = entry.undoes"
                " WHERE entry.table_id = ? ORDER BY entry.seq DESC LIMIT 1",
                (table_id,),
            )
            .fetchone()
        )
        if row is None:
            return None
        return LogEntry(
            seq=row["seq"],
            kind=row["kind"],
            move=None if row["move_json"] is None else stored_json.loads(row["move_json"]),
            undone=False,
            undoes=row["undoes"],
            created_at=datetime.fromisoformat(row["created_at"]),
        )

    def abandon(self, table_id: str) -> Table:
        """Give up an unfinished table: its log stays, it leaves the lists and takes no moves."""
        conn = db.get_db()
        with db.write_transaction(conn):
            head = self._open_head(conn, table_id)
            if head["finished"]:
                raise RuleError(N_("This game is finished; its results are kept."))
            conn.execute(
                "INSERT INTO abandoned_tables (table_id, abandoned_at) VALUES (?, ?)",
                (table_id, _now()),
            )
            head = self._head(conn, table_id)
        return self._table(conn, head)

    def apply_move(self, table_id: str, move: dict, expected_version: int) -> Table:
        """Complete (random outcomes), check and append `move`; refuse a stale version."""
        _check_version_type(expected_version)
        if not isinstance(move, dict):
            raise IllegalMove(N_("A move must be an object with a type, like a draw or a bid."))
        conn = db.get_db()
        with db.write_transaction(conn):
            table = self.apply_in(conn, self._fresh_head(conn, table_id, expected_version), move)
        self.remember(table)
        return table

    def apply_in(self, conn: sqlite3.Connection, head: sqlite3.Row, move: dict) -> Table:
        """Apply `move` to the open table `head` inside the caller's write transaction.

        The caller hands the table to `remember` once the transaction committed (a state cached
        before then could outlive a rollback under the same version)."""
        rules = get_game(head["game"])
        state = self._state_at(conn, head, head["version"])
        reveal_gate.require_locked_in(conn, head["id"], rules, state)
        completed = rules.complete_move(state, move, self._rng)
        new_state = rules.apply(state, completed)
        table = self._append(conn, head, ("move", completed, None), new_state)
        reveal_gate.follow_move(conn, head["id"], rules, state, table.state)
        return table

    def remember(self, table: Table) -> None:
        """Cache a committed table's state for the next move."""
        self._cache.put((table.id, table.version), table.state)

    def open_head(self, conn: sqlite3.Connection, table_id: str) -> sqlite3.Row:
        """The table's row, refusing with TableAbandoned if its host gave it up."""
        return self._open_head(conn, table_id)

    def table_of(self, conn: sqlite3.Connection, head: sqlite3.Row) -> Table:
        """The table at its current version (inside the caller's transaction)."""
        return self._table(conn, head)

    def undo(self, table_id: str, expected_version: int) -> Table:
        """Cancel the latest still-active move; it stays in the history, marked undone."""
        _check_version_type(expected_version)
        conn = db.get_db()
        with db.write_transaction(conn):
            head = self._fresh_head(conn, table_id, expected_version)
            target = self._top(conn, table_id, head["version"])
            if target is None:
                raise RuleError(N_("Nothing to undo."))
            state = self._state_at(conn, head, target - 1)
            table = self._append(conn, head, ("undo", None, target), state)
            reveal_gate.follow_undo(conn, table_id, get_game(head["game"]), table.state)
        self._cache.put((table.id, table.version), table.state)
        return table

    def history(self, table_id: str) -> list[LogEntry]:
        """Every log entry of the table in order, undone moves included."""
        conn = db.get_db()
        self._head(conn, table_id)
        rows = conn.execute(
            "SELECT seq, kind, move_json, undoes, created_at FROM log"
            " WHERE table_id = ? ORDER BY seq",
            (table_id,),
        ).fetchall()
        undone = {row["undoes"] for row in rows if row["kind"] == "undo"}
        return [
            LogEntry(
                seq=row["seq"],
                kind=row["kind"],
                move=None if row["move_json"] is None else stored_json.loads(row["move_json"]),
                undone=row["seq"] in undone,
                undoes=row["undoes"],
                created_at=datetime.fromisoformat(row["created_at"]),
            )
            for row in rows
        ]

    def replay(self, table_id: str) -> dict:
        """Recompute the state from the setup and the active moves, ignoring every snapshot."""
        conn = db.get_db()
        head = self._head(conn, table_id)
        entries = ((entry.kind, entry.move) for entry in self.history(table_id))
        return replay_log(get_game(head["game"]), stored_json.loads(head["setup_json"]), entries)

    # -- internals -------------------------------------------------------------------------

    def _free_id(self, conn: sqlite3.Connection) -> str:
        """An id no table has yet (inside the write transaction)."""
        for _ in range(ID_ATTEMPTS):
            table_id = _new_id()
            if conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                return table_id
        raise RuntimeError("Could not find a free table id; is the id generator broken?")

    def _head(self, conn: sqlite3.Connection, table_id: str) -> sqlite3.Row:
        """The table's row (without its initial state), or TableNotFound."""
        row = None
        if isinstance(table_id, str):
            row = conn.execute(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        if row is None:
            raise TableNotFound(table_id)
        return row

    def _open_head(self, conn: sqlite3.Connection, table_id: str) -> sqlite3.Row:
        """The table's row, refusing with TableAbandoned if its host gave it up."""
        head = self._head(conn, table_id)
        if head["abandoned"]:
            raise TableAbandoned()
        return head

    def _fresh_head(self, conn: sqlite3.Connection, table_id: str, expected: int) -> sqlite3.Row:
        """The open table's row, refusing with StaleVersion unless it is at `expected`."""
        head = self._open_head(conn, table_id)
        if head["version"] != expected:
            raise StaleVersion(current=head["version"], sent=expected)
        return head

    def _top(self, conn: sqlite3.Connection, table_id: str, seq: int) -> int | None:
        """The latest still-active move after log row `seq` (None when no move is active)."""
        if seq == 0:
            return None
        row = conn.execute(
            "SELECT top FROM log WHERE table_id = ? AND seq = ?", (table_id, seq)
        ).fetchone()
        return row["top"]

    def _state_at(self, conn: sqlite3.Connection, head: sqlite3.Row, seq: int) -> dict:
        """The state after log row `seq` (0: the initial state), from the cache or a snapshot."""
        key = (head["id"], seq)
        state = self._cache.get(key)
        if state is None:
            if seq == 0:
                sql, args = "SELECT state_json FROM tables WHERE id = ?", (head["id"],)
            else:
                sql = "SELECT state_json FROM log WHERE table_id = ? AND seq = ?"
                args = (head["id"], seq)
            state = stored_json.loads(conn.execute(sql, args).fetchone()["state_json"])
            self._cache.put(key, state)
        return state

    def _append(
        self, conn: sqlite3.Connection, head: sqlite3.Row, entry: tuple, state: dict
    ) -> Table:
        """Insert a log row (kind, move, undoes) with its snapshot; bump the table's version."""
        kind, move, undoes = entry
        seq = head["version"] + 1
        top = seq if kind == "move" else self._top(conn, head["id"], undoes - 1)
        state_text = _dumps(state)
        state = json.loads(state_text)  # exactly what a cold load would give; no shared parts
        finished = bool(get_game(head["game"]).summary(state)["finished"])
        now = _now()
        if finished or head["finished"]:
            club_sync.follow_state(conn, head["id"], head["game"], state, now)
        move_text = None if move is None else _dumps(move)
        conn.execute(
            "INSERT INTO log (table_id, seq, kind, move_json, state_json, undoes, top, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (head["id"], seq, kind, move_text, state_text, undoes, top, now),
        )
        conn.execute(
            "UPDATE tables SET version = ?, finished = ?, updated_at = ? WHERE id = ?",
            (seq, int(finished), now, head["id"]),
        )
        return _make_table(head, version=seq, state=state, updated_at=now, finished=finished)

    def _table(self, conn: sqlite3.Connection, head: sqlite3.Row) -> Table:
        """A Table from its row and the state at its version."""
        return _make_table(
            head,
            version=head["version"],
            state=self._state_at(conn, head, head["version"]),
            updated_at=head["updated_at"],
            finished=bool(head["finished"]),
        )


#: A table in play that left the home page: never moved and untouched since the cutoff.
_STALE = "finished = 0 AND version = 0 AND updated_at < ?"


def replay_log(rules, setup: dict, entries) -> dict:
    """The state `setup` and a log's (kind, move) entries give, undone moves left out."""
    active: list[dict] = []
    for kind, move in entries:
        if kind == "move":
            active.append(move)
        else:
            active.pop()
    state = rules.new_table(setup)
    for move in active:
        state = rules.apply(state, move)
    return state


def _stale_before() -> str:
    """The cutoff of STALE_AFTER as stored time text."""
    after = current_app.config.get("STALE_AFTER", STALE_AFTER)
    return (datetime.now(UTC) - after).isoformat(timespec="microseconds")


def _listed(finished: bool) -> tuple[str, tuple]:
    """The WHERE clause (and its arguments) of the home page's list of tables."""
    alive = "id NOT IN (SELECT table_id FROM abandoned_tables)"
    if finished:
        return f"finished = 1 AND {alive}", ()
    return f"finished = 0 AND {alive} AND NOT (version = 0 AND updated_at < ?)", (_stale_before(),)


def _check_origin(conn: sqlite3.Connection, origin: str, now: str) -> None:
    """Refuse a new table (TooManyTables) when `origin` started its share within the window,
    or (RoomFull) when the devices together started the server's."""
    config = current_app.config
    window = config.get("TABLES_WINDOW", TABLES_WINDOW)
    since = (datetime.fromisoformat(now) - window).isoformat(timespec="microseconds")
    mine = conn.execute(
        "SELECT created_at FROM table_origins WHERE origin = ? AND created_at > ?"
        " ORDER BY created_at",
        (origin, since),
    ).fetchall()
    _within(
        mine, int(config.get("TABLES_PER_DEVICE", TABLES_PER_DEVICE)), window, now, TooManyTables
    )
    every = conn.execute(
        "SELECT created_at FROM table_origins WHERE created_at > ? ORDER BY created_at", (since,)
    ).fetchall()
    _within(every, int(config.get("TABLES_PER_SERVER", TABLES_PER_SERVER)), window, now, RoomFull)


def _within(rows: list, limit: int, window: timedelta, now: str, refusal: type) -> None:
    """Raise `refusal` (with when one more may start) if `rows` started `limit` or more."""
    if len(rows) < limit:
        return
    frees = datetime.fromisoformat(rows[len(rows) - limit]["created_at"]) + window
    wait_s = max(1, math.ceil((frees - datetime.fromisoformat(now)).total_seconds()))
    raise refusal(len(rows), frees.astimezone().strftime("%H:%M"), wait_s)


def _make_table(
    head: sqlite3.Row, *, version: int, state: dict, updated_at: str, finished: bool
) -> Table:
    """A Table from its stored row and the given current values."""
    return Table(
        id=head["id"],
        game=head["game"],
        setup=stored_json.loads(head["setup_json"]),
        version=version,
        state=state,
        created_at=datetime.fromisoformat(head["created_at"]),
        updated_at=datetime.fromisoformat(updated_at),
        finished=finished,
        abandoned=bool(head["abandoned"]),
        label=head["label"],
        number=head["number"],
    )


def get_store() -> Store:
    """The current app's store (inside an app or request context)."""
    return current_app.extensions[_EXTENSION]


def init_app(app: Flask) -> None:
    """Open the database (creating the schema) and attach a Store to `app`."""
    db.init_app(app)
    club_sync.init_app(app)
    box_check.init_app(app)
    app.extensions[_EXTENSION] = Store(app.config.get("STATE_CACHE_SIZE", DEFAULT_CACHE_SIZE))
