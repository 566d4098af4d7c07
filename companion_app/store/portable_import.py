"""Importing a club document (store/portable.py) into this database, in one transaction.

People, evenings, seasons and club tablets are matched to what is there or added
(portable_people, portable_league, portable_counted). Every table is replayed through the
rules (portable_replay) and written as the store would have written it move by move: its
snapshots, and its finished game's placings and end moment rebuilt by
`club_sync.follow_state` at each logged moment, never copied. A table already here (same
creation moment, game and setup) is left as it is, so a second import of one file adds
nothing; a table whose id another table has gets a new id. A table that does not replay is
kept aside in `<instance>/import-rejected-<date>.json`, never changed; any other fault
(BadFile, a database error) rolls everything back.
"""

import json
import os
import secrets
import sqlite3
from dataclasses import dataclass, field
from datetime import date, datetime

from companion_app.store import club_sync, db, finished, league, roster
from companion_app.store.portable import KEPT_SETTINGS, canonical, write_json
from companion_app.store.portable_counted import import_tablets, tablet_of, write_counted
from companion_app.store.portable_league import Mapped, import_evenings, import_seasons
from companion_app.store.portable_people import People, import_people
from companion_app.store.portable_replay import Replayed, replay
from companion_app.store.portable_shape import KeptAside, check_document, check_table
from companion_app.store.tables import ID_ALPHABET, ID_LENGTH

#: Free ids tried for a table whose id is taken (a clash is ~1 in 10^11 per try).
ID_ATTEMPTS = 5


@dataclass
class Report:
    """What an import did: counts of rows added and found, and the tables kept aside."""

    tables: int = 0
    people: int = 0
    evenings: int = 0
    seasons: int = 0
    already: int = 0
    kept_aside: list[tuple[str, str]] = field(default_factory=list)
    rejected_path: str | None = None


@dataclass
class _Maps:
    """The file's ids of people, evenings and club tablets mapped to ids here."""

    people: People
    evenings: Mapped
    tablets: Mapped


@dataclass(frozen=True)
class _Links:
    """A table's rows here beside its own: the people at its seats, its evening, its tablet."""

    seats: list[int]
    evening: int | None
    tablet: int | None


def import_club(conn: sqlite3.Connection, document: object, instance: str, today: date) -> Report:
    """Import `document`; BadFile (or sqlite3.Error) leaves the database as it was."""
    document = check_document(document)
    report = Report()
    with db.write_transaction(conn):
        maps = _Maps(
            import_people(conn, document["people"]),
            import_evenings(conn, document["evenings"]),
            import_tablets(conn, document.get("club_tablets", [])),
        )
        seasons = import_seasons(conn, document["seasons"], maps.evenings)
        report.people, report.evenings, report.seasons = (
            maps.people.added,
            maps.evenings.added,
            seasons.added,
        )
        report.already = maps.people.found + maps.evenings.found + seasons.found
        table_ids, rejected = _import_tables(conn, document["tables"], maps, report)
        _import_settings(conn, document.get("settings", {}), table_ids)
        finished.bump(conn)  # the club's statistics are read anew
        if rejected:
            report.rejected_path = _keep_aside(document, rejected, report, instance, today)
    return report


def _import_tables(
    conn: sqlite3.Connection, tables: list[dict], maps: _Maps, report: Report
) -> tuple[dict[str, str], list[dict]]:
    """Import each table: (file id -> id here, the tables kept aside)."""
    ids: dict[str, str] = {}
    rejected: list[dict] = []
    for given in tables:
        try:
            table = check_table(given)
            replayed = replay(table)
            links = _Links(
                _seats(table, replayed, maps.people),
                _evening(table, maps.evenings),
                tablet_of(table["counted"], maps.tablets),
            )
        except KeptAside as why:
            report.kept_aside.append((given["id"], str(why)))
            rejected.append(given)
            continue
        found = _same_table(conn, table)
        if found is not None:
            ids[table["id"]] = found
            report.already += 1
            continue
        ids[table["id"]] = _write_table(conn, table, replayed, links)
        report.tables += 1
    return ids, rejected


def _seats(table: dict, replayed: Replayed, people: People) -> list[int]:
    """The people here at the table's seats, in seat order (none: found by name when written)."""
    players = len(club_sync.seat_names(table["game"], replayed.initial))
    if table["seats"] and len(table["seats"]) != players:
        raise KeptAside(f"it lists {len(table['seats'])} seats for {players} players.")
    seats = []
    for seat, person in enumerate(table["seats"], start=1):
        if person not in people.live:
            raise KeptAside(f"its seat {seat} is person {person}, whom the file does not list.")
        seats.append(people.live[person])
    if len(set(seats)) != len(seats):
        raise KeptAside("one person sits at two of its seats.")
    return seats


def _evening(table: dict, evenings: Mapped) -> int | None:
    """The evening here the table belongs to (None: the day it started, found when written)."""
    if table["evening"] is None:
        return None
    if table["evening"] not in evenings.ids:
        raise KeptAside(f"its evening {table['evening']} is not listed in the file.")
    return evenings.ids[table["evening"]]


def _same_table(conn: sqlite3.Connection, table: dict) -> str | None:
    """The id of this table if it is already here: same game, creation moment and setup."""
    rows = conn.execute(
        "SELECT id, setup_json FROM tables WHERE game = ? AND created_at = ?"
        " ORDER BY id = ? DESC, id",
        (table["game"], table["created_at"], table["id"]),
    ).fetchall()
    setup = canonical(table["setup"])
    return next(
        (row["id"] for row in rows if canonical(json.loads(row["setup_json"])) == setup), None
    )


def _free_id(conn: sqlite3.Connection, wanted: str) -> str:
    """`wanted` when no table has it, else a fresh id like the store's."""
    candidate = wanted
    for _ in range(ID_ATTEMPTS + 1):
        if conn.execute("SELECT 1 FROM tables WHERE id = ?", (candidate,)).fetchone() is None:
            return candidate
        candidate = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
    raise RuntimeError("Could not find a free table id; is the id generator broken?")


def _dumps(value: object) -> str:
    """Compact JSON, as the store writes it."""
    return json.dumps(value, separators=(",", ":"))


def _write_table(conn: sqlite3.Connection, table: dict, replayed: Replayed, links: _Links) -> str:
    """Write a replayed table as the store would have, move by move; its id here."""
    table_id = _free_id(conn, table["id"])
    game, created = table["game"], table["created_at"]
    conn.execute(
        "INSERT INTO tables (id, game, setup_json, state_json, version, finished,"
        " created_at, updated_at, label, number) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            table_id,
            game,
            _dumps(table["setup"]),
            replayed.initial_text,
            len(replayed.rows),
            int(table["finished"]),
            created,
            table["updated_at"],
            table["label"],
            table["number"],
        ),
    )
    _place(conn, table_id, table, links)
    write_counted(conn, table_id, table["counted"], links.tablet)
    club_sync.follow_state(conn, table_id, game, replayed.initial, created)
    was_finished = replayed.initial_finished
    for row in replayed.rows:
        entry = row.entry
        if row.finished or was_finished:  # as Store._append: the placings follow the log
            club_sync.follow_state(conn, table_id, game, row.state, entry["created_at"])
        conn.execute(
            "INSERT INTO log (table_id, seq, kind, move_json, state_json, undoes, top, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table_id,
                entry["seq"],
                entry["kind"],
                None if entry["kind"] == "undo" else _dumps(entry["move"]),
                row.state_text,
                entry["undoes"] if entry["kind"] == "undo" else None,
                row.top,
                entry["created_at"],
            ),
        )
        was_finished = row.finished
    _write_reveals(conn, table_id, table["reveals"])
    return table_id


def _place(conn: sqlite3.Connection, table_id: str, table: dict, links: _Links) -> None:
    """The table's seats, evening and abandonment."""
    if links.seats:
        conn.executemany(
            "INSERT INTO seats (table_id, seat, person_id) VALUES (?, ?, ?)",
            [(table_id, seat, person) for seat, person in enumerate(links.seats)],
        )
    else:  # a file from an older companion without seats: its names find their people
        names = club_sync.seat_names(table["game"], _state(conn, table_id))
        roster.seat_people(conn, table_id, names, table["created_at"], strict=False)
    if links.evening is None:
        league.assign_evening(conn, table_id, datetime.fromisoformat(table["created_at"]))
    else:
        conn.execute(
            "INSERT INTO table_evenings (table_id, evening_id) VALUES (?, ?)",
            (table_id, links.evening),
        )
    if table["abandoned_at"] is not None:
        conn.execute(
            "INSERT INTO abandoned_tables (table_id, abandoned_at) VALUES (?, ?)",
            (table_id, table["abandoned_at"]),
        )


def _state(conn: sqlite3.Connection, table_id: str) -> dict:
    """A just-written table's initial state."""
    row = conn.execute("SELECT state_json FROM tables WHERE id = ?", (table_id,)).fetchone()
    return json.loads(row["state_json"])


def _write_reveals(conn: sqlite3.Connection, table_id: str, reveals: list[dict]) -> None:
    """The table's reveal rows as they were (who locked in at each simultaneous choice)."""
    conn.executemany(
        "INSERT INTO reveals (table_id, id, seats_json, locked_json, disarmed, revealed_at,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                table_id,
                reveal["id"],
                json.dumps(reveal["seats"]),
                json.dumps(reveal["locked"]),
                int(reveal["disarmed"]),
                reveal.get("revealed_at"),
                reveal["created_at"],
                reveal["updated_at"],
            )
            for reveal in reveals
        ],
    )


def _import_settings(conn: sqlite3.Connection, settings: dict, table_ids: dict[str, str]) -> None:
    """The box's tables, where this database has none chosen and the table came along."""
    for key in KEPT_SETTINGS:
        value = settings.get(key)
        if isinstance(value, str) and value in table_ids:
            conn.execute(
                "INSERT OR IGNORE INTO settings (key, value_json) VALUES (?, ?)",
                (key, json.dumps(table_ids[value])),
            )


def _keep_aside(
    document: dict, rejected: list[dict], report: Report, instance: str, today: date
) -> str:
    """Write the tables kept aside (with the people and evenings they name) to a file; its path.

    The file is a club document itself, so the tables can be mended and imported later; the
    same tables kept aside again the same day reuse the file that holds them.
    """
    kept = {
        "format": document["format"],
        "version": document["version"],
        "kept_aside": [{"id": table_id, "reason": why} for table_id, why in report.kept_aside],
        "people": document["people"],
        "evenings": document["evenings"],
        "seasons": [],
        "tables": rejected,
    }
    os.makedirs(instance, exist_ok=True)
    stem = os.path.join(instance, f"import-rejected-{today.isoformat()}")
    for number in range(1, 1000):
        path = f"{stem}.json" if number == 1 else f"{stem}-{number}.json"
        if not os.path.exists(path):
            write_json(path, kept)
            return path
        if _holds(path, kept):
            return path
    raise OSError(f"{stem}-*.json: too many files kept aside today")


def _holds(path: str, document: dict) -> bool:
    """True if the file at `path` is exactly `document`."""
    try:
        with open(path, encoding="utf-8") as existing:
            return json.load(existing) == document
    except (OSError, ValueError):
        return False
