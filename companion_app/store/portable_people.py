"""People of an imported club matched to the roster, so nobody is doubled.

An exported person is the roster's person their name spells (the roster's own comparison,
`scoring.league.roster.spelling_index`: by letters, where capitals, spaces, width and
look-alike letters do not count, then by look), else the one another of their spellings
finds, else a new person, who keeps the file's id when it is free. Two exported people never
become one: a roster person already matched is not matched again (an old database may hold
two people of one spelling). A merged entry becomes a merged entry of the person its keeper
matched, found again by its name.
"""

import sqlite3
from dataclasses import dataclass, field

from companion_app.store import portable_shape
from scoring.league.roster import SpellingIndex, spelling_index
from scoring.names import same_name


@dataclass
class People:
    """File person id -> roster id: `rows` for every entry, `live` for whom seats point at."""

    rows: dict[int, int] = field(default_factory=dict)
    live: dict[int, int] = field(default_factory=dict)
    #: Current people added and found (merged entries are not counted).
    added: int = 0
    found: int = 0


def import_people(conn: sqlite3.Connection, people: list[dict]) -> People:
    """Match or add every person of the file (inside the caller's write transaction)."""
    index = spelling_index(_spellings(conn))
    mapped = People()
    claimed: set[int] = set()
    keepers = portable_shape.keepers(people)
    for person in people:
        if person["id"] not in keepers:
            target = _match(index, person, claimed)
            if target is None:
                target = _insert(conn, person, None)
                index.add(person["name"], target)
                mapped.added += 1
            else:
                mapped.found += 1
            claimed.add(target)
            _add_aliases(conn, index, target, person.get("aliases", []))
            mapped.rows[person["id"]] = mapped.live[person["id"]] = target
    for person in people:
        if person["id"] in keepers:
            keeper = mapped.live[keepers[person["id"]]]
            mapped.rows[person["id"]] = _merged_entry(conn, person, keeper)
            mapped.live[person["id"]] = keeper
    return mapped


def _spellings(conn: sqlite3.Connection) -> list[tuple[int, list[str]]]:
    """Every current person of the roster with their name first, then their other spellings."""
    found: dict[int, list[str]] = {}
    for row in conn.execute("SELECT id, name FROM people WHERE merged_into IS NULL ORDER BY id"):
        found[row["id"]] = [row["name"]]
    for row in conn.execute("SELECT person_id, name FROM person_aliases ORDER BY rowid"):
        if row["person_id"] in found:
            found[row["person_id"]].append(row["name"])
    return list(found.items())


def _match(index: SpellingIndex, person: dict, claimed: set[int]) -> int | None:
    """The roster person this exported person is: by name, else by another spelling."""
    by_name = index.get(person["name"])
    if by_name is not None:
        return None if by_name in claimed else by_name
    for alias in person.get("aliases", []):
        found = index.get(alias)
        if found is not None and found not in claimed:
            return found
    return None


def _insert(conn: sqlite3.Connection, person: dict, merged_into: int | None) -> int:
    """A new people row, with the file's id when no row has it."""
    taken = conn.execute("SELECT 1 FROM people WHERE id = ?", (person["id"],)).fetchone()
    cursor = conn.execute(
        "INSERT INTO people (id, name, created_at, merged_into, hidden) VALUES (?, ?, ?, ?, ?)",
        (
            None if taken else person["id"],
            person["name"],
            person["created_at"],
            merged_into,
            int(person.get("hidden") is True),
        ),
    )
    return int(cursor.lastrowid)


def _add_aliases(
    conn: sqlite3.Connection, index: SpellingIndex, target: int, aliases: list[str]
) -> None:
    """Give the person the other spellings that find nobody yet."""
    for alias in aliases:
        if index.get(alias) is None:
            conn.execute(
                "INSERT INTO person_aliases (person_id, name) VALUES (?, ?)", (target, alias)
            )
            index.add(alias, target)


def _merged_entry(conn: sqlite3.Connection, person: dict, keeper: int) -> int:
    """The roster's merged entry of this name under `keeper`, added if it has none."""
    rows = conn.execute("SELECT id, name FROM people WHERE merged_into = ?", (keeper,))
    for row in rows.fetchall():
        if same_name(row["name"], person["name"]):
            return int(row["id"])
    return _insert(conn, person, keeper)
