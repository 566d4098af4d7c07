"""The roster in SQLite: people, their other spellings, and who sat at each seat of a table.

A table's seats are linked to people in the transaction that creates the table: each name
finds the person it spells (their name or a merged entry's), or becomes a new person. A
rename changes the person's name only (old tables keep the names they were played with); a
merge moves every seat of one entry to the other, keeps its name as a spelling and leaves
the entry pointing at the person it joined, and records what it moved (store/roster_admin.py
undoes it). A table created from a form or the API (`new_people` given) refuses a name that
only differs from a person's by accents unless that name is confirmed as a new person.
"""

import json
import sqlite3
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime

from companion_app.store import finished
from scoring.errors import N_, InvalidSetup
from scoring.league.roster import (
    NEAR,
    Matcher,
    RosterError,
    check_person_name,
    name_key,
    spelling_index,
)

SAME_PERSON_TWICE = N_(
    "{first} and {second} are the same person in the roster ({person}); seat them once."
)
NAME_TAKEN = N_("{name} is already the name of {other}; merge the two instead of renaming.")
NO_PERSON = N_("There is no such person in the roster.")
SAME_ENTRY = N_("Choose two different people to merge.")
NEAR_DUPLICATE = N_(
    "{name} looks like {match}, who is in the roster: seat {match} by their name, or confirm"
    " that {name} is a new person."
)
PLAYED_TOGETHER = N_(
    "{first} and {second} played at the same table ({table}), so they are two people."
)


@dataclass(frozen=True)
class Person:
    """A person of the roster, with how many tables they sat at and when they last did."""

    id: int
    name: str
    tables: int = 0
    last_played: str | None = None
    hidden: bool = False


def _spellings(conn: sqlite3.Connection) -> list[tuple[int, list[str]]]:
    """Every current person with their name first, then their other spellings."""
    found: dict[int, list[str]] = {}
    for row in conn.execute("SELECT id, name FROM people WHERE merged_into IS NULL ORDER BY id"):
        found[row["id"]] = [row["name"]]
    for row in conn.execute("SELECT person_id, name FROM person_aliases ORDER BY rowid"):
        found.setdefault(row["person_id"], []).append(row["name"])
    return list(found.items())


def find(conn: sqlite3.Connection, name: str) -> int | None:
    """The person `name` spells, or None."""
    return spelling_index(_spellings(conn)).get(name)


def matcher(conn: sqlite3.Connection) -> Matcher:
    """The roster's matcher of typed names (hidden people too: they keep their spellings)."""
    return Matcher(_spellings(conn))


def check_near(conn: sqlite3.Connection, names: list[str], new_people: Collection[str]) -> None:
    """InvalidSetup for the first name that only looks like a person and is not confirmed new."""
    confirmed = {name_key(name) for name in new_people}
    found = matcher(conn)
    for name in names:
        met = found.match(name)
        if met.kind == NEAR and name_key(name) not in confirmed:
            raise InvalidSetup(NEAR_DUPLICATE, name=name, match=_name(conn, met.person))


def seat_people(
    conn: sqlite3.Connection,
    table_id: str,
    names: list[str],
    now: str,
    *,
    strict: bool = True,
    new_people: Collection[str] | None = None,
) -> None:
    """Link each seat of a new table to its person (new people for new names).

    Two seats that spell one person are refused; an old table (`strict` False) gives the
    later seat a person of its own instead, since its setup cannot change any more. With
    `new_people` (a form's or the API's table) a near-duplicate name not in it is refused.
    A hidden person seated at a new table is shown on the seating chips again.
    """
    if new_people is not None:
        check_near(conn, names, new_people)
    index = spelling_index(_spellings(conn))
    persons: list[int] = []
    for name in names:
        person = index.get(name)
        if person is not None and person in persons and not strict:
            person = _create(conn, name, now)
        elif person is not None and person in persons:
            first = names[persons.index(person)]
            raise InvalidSetup(
                SAME_PERSON_TWICE, first=first, second=name, person=_name(conn, person)
            )
        if person is None:
            person = _create(conn, name, now)
            index.add(name, person)
        persons.append(person)
    conn.executemany(
        "INSERT INTO seats (table_id, seat, person_id) VALUES (?, ?, ?)",
        [(table_id, seat, person) for seat, person in enumerate(persons)],
    )
    if strict:  # a hidden person seated at a new table plays again: back on the chips
        conn.executemany("UPDATE people SET hidden = 0 WHERE id = ?", [(p,) for p in persons])


def _create(conn: sqlite3.Connection, name: str, now: str) -> int:
    """A new person named `name` (already a clean name)."""
    cursor = conn.execute("INSERT INTO people (name, created_at) VALUES (?, ?)", (name, now))
    return int(cursor.lastrowid)


def _name(conn: sqlite3.Connection, person: int) -> str:
    """A person's current name."""
    return conn.execute("SELECT name FROM people WHERE id = ?", (person,)).fetchone()["name"]


def get(conn: sqlite3.Connection, person_id: object) -> tuple[Person, int | None]:
    """(the person, the entry id they were asked by if merged into them) or RosterError."""
    row = _row(conn, person_id)
    merged_from = None
    while row["merged_into"] is not None:
        merged_from = person_id
        row = _row(conn, row["merged_into"])
    return Person(row["id"], row["name"]), merged_from


def _row(conn: sqlite3.Connection, person_id: object) -> sqlite3.Row:
    """A people row by id, or RosterError."""
    row = None
    if isinstance(person_id, int):
        row = conn.execute(
            "SELECT id, name, merged_into FROM people WHERE id = ?", (person_id,)
        ).fetchone()
    if row is None:
        raise RosterError(NO_PERSON)
    return row


def everyone(conn: sqlite3.Connection) -> list[Person]:
    """Current people, who played most recently first, then by name."""
    rows = conn.execute(
        "SELECT people.id, people.name, people.hidden, COUNT(seats.table_id) AS tables,"
        " MAX(tables.created_at) AS last_played"
        " FROM people LEFT JOIN seats ON seats.person_id = people.id"
        " LEFT JOIN tables ON tables.id = seats.table_id"
        " AND tables.id NOT IN (SELECT table_id FROM abandoned_tables)"
        " WHERE people.merged_into IS NULL GROUP BY people.id"
        " ORDER BY last_played IS NULL, last_played DESC, people.name COLLATE NOCASE, people.id"
    ).fetchall()
    return [
        Person(row["id"], row["name"], row["tables"], row["last_played"], bool(row["hidden"]))
        for row in rows
    ]


def rename(conn: sqlite3.Connection, person_id: int, text: object) -> str:
    """Give the person a new name (refused if it spells someone else); returns it."""
    person, _ = get(conn, person_id)
    name = check_person_name(text)
    other = spelling_index(_spellings(conn)).get(name)
    if other is not None and other != person.id:
        raise RosterError(NAME_TAKEN, name=name, other=_name(conn, other))
    conn.execute("UPDATE people SET name = ? WHERE id = ?", (name, person.id))
    return name


def mergeable(conn: sqlite3.Connection, keep_id: object, gone_id: object) -> tuple:
    """(kept person, merged person), or RosterError: the same person, or two who played
    at one table."""
    keep, _ = get(conn, keep_id)
    gone, _ = get(conn, gone_id)
    if keep.id == gone.id:
        raise RosterError(SAME_ENTRY)
    shared = conn.execute(
        "SELECT a.table_id FROM seats a JOIN seats b ON a.table_id = b.table_id"
        " WHERE a.person_id = ? AND b.person_id = ? LIMIT 1",
        (keep.id, gone.id),
    ).fetchone()
    if shared is not None:
        raise RosterError(
            PLAYED_TOGETHER, first=keep.name, second=gone.name, table=shared["table_id"]
        )
    return keep, gone


def merge(conn: sqlite3.Connection, keep_id: int, gone_id: int, now: str = "") -> int:
    """Make `gone_id` part of `keep_id`: its seats, its name as a spelling, its spellings;
    the id of the merge's record (what moved, for an undo)."""
    keep, gone = mergeable(conn, keep_id, gone_id)
    moved = {
        "seats": [
            list(row)
            for row in conn.execute(
                "SELECT table_id, seat FROM seats WHERE person_id = ?", (gone.id,)
            )
        ],
        "aliases": [
            row[0]
            for row in conn.execute(
                "SELECT rowid FROM person_aliases WHERE person_id = ?", (gone.id,)
            )
        ],
        "entries": [
            row[0]
            for row in conn.execute("SELECT id FROM people WHERE merged_into = ?", (gone.id,))
        ],
    }
    conn.execute("UPDATE seats SET person_id = ? WHERE person_id = ?", (keep.id, gone.id))
    conn.execute("UPDATE person_aliases SET person_id = ? WHERE person_id = ?", (keep.id, gone.id))
    added = conn.execute(
        "INSERT INTO person_aliases (person_id, name) VALUES (?, ?)", (keep.id, gone.name)
    )
    moved["alias"] = added.lastrowid
    conn.execute("UPDATE people SET merged_into = ? WHERE id = ?", (keep.id, gone.id))
    conn.execute("UPDATE people SET merged_into = ? WHERE merged_into = ?", (keep.id, gone.id))
    finished.bump(conn)
    record = conn.execute(
        "INSERT INTO merges (keep_id, gone_id, moved_json, merged_at) VALUES (?, ?, ?, ?)",
        (keep.id, gone.id, json.dumps(moved), now or datetime.now(UTC).isoformat()),
    )
    return int(record.lastrowid)


def names(conn: sqlite3.Connection) -> dict[int, str]:
    """Every current person's name by id."""
    rows = conn.execute("SELECT id, name FROM people WHERE merged_into IS NULL")
    return {row[0]: row[1] for row in rows}


def seated(conn: sqlite3.Connection, table_id: str) -> list[Person]:
    """The people at a table, in seat order."""
    rows = conn.execute(
        "SELECT people.id, people.name FROM seats JOIN people ON people.id = seats.person_id"
        " WHERE seats.table_id = ? ORDER BY seats.seat",
        (table_id,),
    ).fetchall()
    return [Person(row["id"], row["name"]) for row in rows]


def seat_people_map(conn: sqlite3.Connection) -> dict[tuple[str, int], tuple[int, str]]:
    """(table id, seat) -> (person id, their name now), for every linked seat."""
    rows = conn.execute(
        "SELECT seats.table_id, seats.seat, people.id, people.name"
        " FROM seats JOIN people ON people.id = seats.person_id"
    )
    return {(row[0], row[1]): (row[2], row[3]) for row in rows}


def seat_ids(conn: sqlite3.Connection, table_id: str) -> dict[int, int]:
    """Seat -> the id of the person sitting there, for a table's linked seats."""
    rows = conn.execute("SELECT seat, person_id FROM seats WHERE table_id = ?", (table_id,))
    return {row[0]: row[1] for row in rows}
