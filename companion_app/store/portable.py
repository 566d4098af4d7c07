"""The whole club as one portable JSON document (docs/export.md): built here, read back by
`portable_import`.

Everything that cannot be derived is exported: people (their other spellings, merged entries),
evenings, seasons, club tablets, and each table's setup, its whole log (moves and undos in
order), its state at the head (so an import can check its replay), seats, evening, whether
its game counts and why, reveals and whether it was abandoned. What the store derives from
these (log snapshots, finished games' placings, the club's generation) is left out: an import
rebuilds it by replaying every game. The order is stable (ids, days, creation times), so two
exports of one database are the same bytes.
"""

import contextlib
import json
import os
import sqlite3
import tempfile

from companion_app.store import stored_json

FORMAT = "companion-club"
VERSION = 1
#: Settings worth keeping across instances: which table the box follows and shows.
KEPT_SETTINGS = ("device_table", "device_shown")


class BadFile(ValueError):
    """A file that cannot be imported at all; the message is a sentence saying why."""


def canonical(value: object) -> str:
    """`value` as sorted compact JSON: two equal values give equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def club_export(conn: sqlite3.Connection) -> dict:
    """The club as one document, read from a single snapshot of the database."""
    conn.execute("BEGIN")  # one read transaction: every part sees the same moment
    try:
        return {
            "format": FORMAT,
            "version": VERSION,
            "people": _people(conn),
            "evenings": _evenings(conn),
            "seasons": _seasons(conn),
            "club_tablets": _tablets(conn),
            "tables": _tables(conn),
            "settings": _settings(conn),
        }
    finally:
        conn.execute("ROLLBACK")


def _people(conn: sqlite3.Connection) -> list[dict]:
    """Every people row (merged entries too) with its other spellings, by id."""
    aliases: dict[int, list[str]] = {}
    for row in conn.execute("SELECT person_id, name FROM person_aliases ORDER BY rowid"):
        aliases.setdefault(row["person_id"], []).append(row["name"])
    rows = conn.execute("SELECT id, name, created_at, merged_into, hidden FROM people ORDER BY id")
    return [
        {
            "id": row["id"],
            "name": row["name"],
            "created_at": row["created_at"],
            "merged_into": row["merged_into"],
            "aliases": aliases.get(row["id"], []),
            **({"hidden": True} if row["hidden"] else {}),  # off the seating chips
        }
        for row in rows
    ]


def _evenings(conn: sqlite3.Connection) -> list[dict]:
    """Every evening by day, with the points rule the organiser picked for it, if any."""
    rows = conn.execute(
        "SELECT evenings.id, day, name, rule_json FROM evenings"
        " LEFT JOIN evening_rules ON evening_rules.evening_id = evenings.id ORDER BY day, id"
    )
    return [
        {"id": row["id"], "day": row["day"], "name": row["name"]}
        | ({} if row["rule_json"] is None else {"rule": json.loads(row["rule_json"])})
        for row in rows
    ]


def _seasons(conn: sqlite3.Connection) -> list[dict]:
    """Every season with its rule and evenings, the oldest first."""
    chosen: dict[int, list[int]] = {}
    for row in conn.execute(
        "SELECT season_id, evening_id FROM season_evenings ORDER BY season_id, evening_id"
    ):
        chosen.setdefault(row["season_id"], []).append(row["evening_id"])
    rows = conn.execute("SELECT id, name, rule_json, created_at FROM seasons ORDER BY id")
    return [
        {
            "id": row["id"],
            "name": row["name"],
            "rule": json.loads(row["rule_json"]),
            "created_at": row["created_at"],
            "evenings": chosen.get(row["id"], []),
        }
        for row in rows
    ]


def _tablets(conn: sqlite3.Connection) -> list[dict]:
    """Every club tablet the organiser let in (revoked ones too), by id."""
    rows = conn.execute(
        "SELECT id, name, created_at, taken_at, revoked_at FROM club_tablets ORDER BY id"
    )
    return [dict(row) for row in rows]


_TABLES_SQL = (
    "SELECT tables.id, game, setup_json, version, finished, tables.created_at,"
    " tables.updated_at, tables.label, tables.number, abandoned_tables.abandoned_at,"
    " table_evenings.evening_id,"
    " counted_tables.how, counted_tables.tablet_id, counted_tables.at AS counted_at"
    " FROM tables LEFT JOIN abandoned_tables ON abandoned_tables.table_id = tables.id"
    " LEFT JOIN table_evenings ON table_evenings.table_id = tables.id"
    " LEFT JOIN counted_tables ON counted_tables.table_id = tables.id"
    " ORDER BY tables.created_at, tables.id"
)


def _tables(conn: sqlite3.Connection) -> list[dict]:
    """Every table (abandoned ones too) with its log, seats and reveals, oldest first."""
    return [_table(conn, row) for row in conn.execute(_TABLES_SQL).fetchall()]


def _table(conn: sqlite3.Connection, row: sqlite3.Row) -> dict:
    """One table's entry of the document."""
    table_id = row["id"]
    log = conn.execute(
        "SELECT seq, kind, move_json, undoes, created_at, state_json FROM log"
        " WHERE table_id = ? ORDER BY seq",
        (table_id,),
    ).fetchall()
    if log:
        head_state = log[-1]["state_json"]
    else:
        head_state = conn.execute(
            "SELECT state_json FROM tables WHERE id = ?", (table_id,)
        ).fetchone()[0]
    seats = conn.execute(
        "SELECT person_id FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
    ).fetchall()
    return {
        "id": table_id,
        "game": row["game"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "setup": stored_json.loads(row["setup_json"]),
        "version": row["version"],
        "finished": bool(row["finished"]),
        "abandoned_at": row["abandoned_at"],
        "label": row["label"],
        "number": row["number"],
        "evening": row["evening_id"],
        "counted": _counted(row),
        "seats": [seat["person_id"] for seat in seats],
        "log": [_entry(entry) for entry in log],
        "state": stored_json.loads(head_state),
        "reveals": _reveals(conn, table_id),
    }


def _counted(row: sqlite3.Row) -> dict | None:
    """Why the club stands behind a table's game (store/counted.py), or None: it does not."""
    if row["how"] is None:
        return None
    return {"how": row["how"], "tablet": row["tablet_id"], "at": row["counted_at"]}


def _entry(row: sqlite3.Row) -> dict:
    """One log row: a move (as completed, draws included) or an undo of an earlier row."""
    return {
        "seq": row["seq"],
        "kind": row["kind"],
        "move": None if row["move_json"] is None else stored_json.loads(row["move_json"]),
        "undoes": row["undoes"],
        "created_at": row["created_at"],
    }


def _reveals(conn: sqlite3.Connection, table_id: str) -> list[dict]:
    """A table's reveal rows: who locked in at each simultaneous choice."""
    rows = conn.execute(
        "SELECT id, seats_json, locked_json, disarmed, revealed_at, created_at, updated_at"
        " FROM reveals WHERE table_id = ? ORDER BY id",
        (table_id,),
    )
    return [
        {
            "id": row["id"],
            "seats": json.loads(row["seats_json"]),
            "locked": json.loads(row["locked_json"]),
            "disarmed": bool(row["disarmed"]),
            "revealed_at": row["revealed_at"],
            "created_at": row["created_at"],
            "updated_at": row["updated_at"],
        }
        for row in rows
    ]


def _settings(conn: sqlite3.Connection) -> dict:
    """The kept settings that are set, by key."""
    marks = ", ".join("?" for _ in KEPT_SETTINGS)
    rows = conn.execute(
        f"SELECT key, value_json FROM settings WHERE key IN ({marks}) ORDER BY key", KEPT_SETTINGS
    )
    return {row["key"]: json.loads(row["value_json"]) for row in rows}


def counts(document: dict) -> dict[str, int]:
    """How many tables, people, evenings and seasons a document holds (merged entries aside)."""
    people = [each for each in document["people"] if each.get("merged_into") is None]
    return {
        "tables": len(document["tables"]),
        "people": len(people),
        "evenings": len(document["evenings"]),
        "seasons": len(document["seasons"]),
    }


def write_json(path: str, document: dict) -> None:
    """Write `document` as UTF-8 JSON to `path` atomically: a temporary file, then a rename."""
    text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
