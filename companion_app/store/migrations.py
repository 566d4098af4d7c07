"""Numbered schema migrations, recorded in SQLite's PRAGMA user_version (docs/storage.md).

Each entry of MIGRATIONS brings a database from the version before it to its own: its SQL
and the new user_version commit in one transaction, so a migration that fails or is cut off
leaves the file at the version it had. Before an existing file is migrated, a copy of it is
kept beside it (`<db>.before-v<N>`, N the version it is brought to). A file newer than this
code is refused with SchemaTooNew. Adding a change of shape is one new entry at the end.
"""

import os
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True)
class Migration:
    """One change of shape: the version it brings a database to, why, and its SQL."""

    version: int
    why: str
    sql: str
    #: Python run after the SQL in the same transaction (moving data the SQL cannot).
    then: Callable[[sqlite3.Connection], None] | None = None


class SchemaTooNew(RuntimeError):
    """The database was written by a newer companion: this code would misread it."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(path, found, known)
        self.path, self.found, self.known = path, found, known

    def __str__(self) -> str:
        return (
            f"{self.path} has schema version {self.found}, written by a newer companion; "
            f"this one knows versions up to {self.known}: upgrade the companion to open it."
        )


# Version 1 (f7ead6c, the event-sourced store): tables and their move log.
TABLES_AND_LOG = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    setup_json TEXT NOT NULL,
    state_json TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('move', 'undo')),
    move_json TEXT,
    state_json TEXT NOT NULL,
    undoes INTEGER,
    top INTEGER,
    created_at TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX IF NOT EXISTS tables_by_activity ON tables (updated_at);
"""

# Versions 2-5 are tables that releases added while still writing user_version 1, so a file
# at version 1 may hold any of them already: each is created only IF NOT EXISTS.

# Version 2 (ee1bfbf, the device API): reveals, one row per armed reveal, ids 1, 2, ... per
# table, the latest the current one unless disarmed; and app-wide settings by key.
REVEALS_AND_SETTINGS = """
CREATE TABLE IF NOT EXISTS reveals (
    table_id TEXT NOT NULL REFERENCES tables(id),
    id INTEGER NOT NULL,
    seats_json TEXT NOT NULL,
    locked_json TEXT NOT NULL,
    disarmed INTEGER NOT NULL DEFAULT 0,
    revealed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (table_id, id)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value_json TEXT NOT NULL
);
"""

# Version 3 (5b3933f, table rights): tables the host abandoned unfinished, kept (their log is
# history) but out of the lists, results and statistics, and closed to moves.
ABANDONED_TABLES = """
CREATE TABLE IF NOT EXISTS abandoned_tables (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    abandoned_at TEXT NOT NULL
);
"""

# Version 4 (68c301d, the club: docs/club.md): people and their other spellings, who sat at
# each seat, evenings (one per day) and their tables, finished games' placings, seasons.
# store/club_sync.py links whatever the tables lack every time the app opens a database.
CLUB = """
CREATE TABLE IF NOT EXISTS people (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    merged_into INTEGER REFERENCES people(id)
);
CREATE TABLE IF NOT EXISTS person_aliases (
    person_id INTEGER NOT NULL REFERENCES people(id),
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    person_id INTEGER NOT NULL REFERENCES people(id),
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_by_person ON seats (person_id);
CREATE TABLE IF NOT EXISTS evenings (
    id INTEGER PRIMARY KEY,
    day TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS table_evenings (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    evening_id INTEGER NOT NULL REFERENCES evenings(id)
);
CREATE INDEX IF NOT EXISTS tables_by_evening ON table_evenings (evening_id);
CREATE TABLE IF NOT EXISTS finished_games (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    game TEXT NOT NULL,
    ended_at TEXT NOT NULL,
    highest_wins INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS finished_by_end ON finished_games (ended_at, table_id);
CREATE TABLE IF NOT EXISTS placings (
    table_id TEXT NOT NULL REFERENCES finished_games(table_id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    rank INTEGER NOT NULL,
    score NUMERIC NOT NULL,
    winner INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS seasons (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    rule_json TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS season_evenings (
    season_id INTEGER NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
    evening_id INTEGER NOT NULL REFERENCES evenings(id),
    PRIMARY KEY (season_id, evening_id)
);
"""

# Version 5 (4dc90a6, issue 24): who started each table (the client's address, or its IPv6
# /64), for the per-device limit on new tables.
TABLE_ORIGINS = """
CREATE TABLE IF NOT EXISTS table_origins (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    origin TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS table_origins_by_origin ON table_origins (origin, created_at);
"""

# Version 6 (issue 30 item 2): which finished games the club stands behind (store/counted.py)
# and the club tablets the organiser let in; `how` says who stands behind a counted table.
CLUB_TRUST = """
CREATE TABLE IF NOT EXISTS club_tablets (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    taken_at TEXT,
    revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS counted_tables (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    how TEXT NOT NULL CHECK (how IN ('host', 'tablet', 'organiser', 'upgrade')),
    tablet_id INTEGER REFERENCES club_tablets(id),
    at TEXT NOT NULL
);
"""


# Version 7 (issue 31): seats taken on the players' phones (the link's generation, the phone
# that holds it) and the choices those phones sealed, kept here until every seat has sealed;
# `step` is `reveal:<id>` for a choice the reveal gates, `version:<n>` for an entry at a version.
SEATS_AND_SEALS = """
CREATE TABLE IF NOT EXISTS seat_phones (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    generation INTEGER NOT NULL DEFAULT 0,
    token TEXT,
    joined_at TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS sealed_choices (
    table_id TEXT NOT NULL REFERENCES tables(id),
    step TEXT NOT NULL,
    seat INTEGER NOT NULL,
    choice_json TEXT NOT NULL,
    sealed_at TEXT NOT NULL,
    PRIMARY KEY (table_id, step, seat)
);
"""

# Version 8 (issue 32 item 1): the points rule an evening's own standings use, when the
# organiser picked one (without a row, the evening's first season's rule, else the default).
EVENING_RULES = """
CREATE TABLE IF NOT EXISTS evening_rules (
    evening_id INTEGER PRIMARY KEY REFERENCES evenings(id),
    rule_json TEXT NOT NULL
);
"""

# Version 9 (issue 32 item 2): people the organiser hid from the seating chips (their history
# stays), and each merge with what it moved (seats, spellings, entries), so it can be undone.
# The column is added by `_add_hidden` only where it is missing, so the migration, like the
# others, is right for a file that already has it.
ROSTER_RUN = """
CREATE TABLE IF NOT EXISTS merges (
    id INTEGER PRIMARY KEY,
    keep_id INTEGER NOT NULL REFERENCES people(id),
    gone_id INTEGER NOT NULL REFERENCES people(id),
    moved_json TEXT NOT NULL,
    merged_at TEXT NOT NULL,
    undone_at TEXT
);
"""


def _add_columns(
    table: str, columns: tuple[tuple[str, str], ...]
) -> Callable[[sqlite3.Connection], None]:
    """A migration step adding each (name, SQL type) column to `table` unless it is there
    already (ALTER TABLE has no IF NOT EXISTS; a file may have been migrated before)."""

    def add(conn: sqlite3.Connection) -> None:
        """The columns `table` lacks, added."""
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        for name, kind in columns:
            if name not in present:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")

    return add


_add_hidden = _add_columns("people", (("hidden", "INTEGER NOT NULL DEFAULT 0"),))


# Version 10: each table's short label on its tablet and the room display (issue 32 item 6):
# the host's own words, or NULL and the lowest number free among the tables in play. The
# columns are added by `_add_labels` only where they are missing, as version 9's column is.
TABLE_LABELS = ""


_add_labels = _add_columns("tables", (("label", "TEXT"), ("number", "INTEGER")))


def _count_every_earlier_table(conn: sqlite3.Connection) -> None:
    """Every table played before the rule counts (how 'upgrade'): the club saw those games."""
    now = datetime.now(UTC).isoformat(timespec="microseconds")
    conn.execute(
        "INSERT OR IGNORE INTO counted_tables (table_id, how, at)"
        " SELECT id, 'upgrade', ? FROM tables",
        (now,),
    )


# Version 11 (issue 33 item 10): every organiser and device key issued, so each can be revoked
# on its own. A key carries its row's id (`<id>.<mac>`, server/rights.py); rows 1 and 2 stand
# for the keys derived before this version (the box's and the organiser's), revoked as a group.
ACCESS_KEYS = """
CREATE TABLE IF NOT EXISTS access_keys (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('device', 'organiser')),
    name TEXT NOT NULL,
    legacy INTEGER NOT NULL DEFAULT 0,
    issued_at TEXT NOT NULL,
    seen_at TEXT,
    revoked_at TEXT
);
"""


def _legacy_keys(conn: sqlite3.Connection) -> None:
    """The rows of the keys made before version 11 (kept if the file has them already)."""
    now = datetime.now(UTC).isoformat(timespec="microseconds")
    conn.executemany(
        "INSERT OR IGNORE INTO access_keys (id, kind, name, legacy, issued_at)"
        " VALUES (?, ?, '', 1, ?)",
        [(1, "device", now), (2, "organiser", now)],
    )


# Version 12 (issue 33 item 7): the box's first-plug check (device/check.py), one row every
# worker process reads and writes; `boot` names the server run that wrote it, and a row of an
# earlier run reads as no check (store/box_check.py).
BOX_CHECK = """
CREATE TABLE IF NOT EXISTS box_check (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    boot TEXT NOT NULL,
    number INTEGER NOT NULL,
    state TEXT NOT NULL,
    table_id TEXT,
    question_json TEXT,
    answer_json TEXT,
    report_json TEXT,
    version INTEGER NOT NULL
);
"""


#: Every change of shape in order; versions run 1, 2, 3, ... A new one goes at the end.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "tables and their move log", TABLES_AND_LOG),
    Migration(2, "reveals and settings (written at version 1)", REVEALS_AND_SETTINGS),
    Migration(3, "abandoned tables (written at version 1)", ABANDONED_TABLES),
    Migration(4, "the club's people, seats, evenings, placings, seasons", CLUB),
    Migration(5, "who started each table (written at version 1)", TABLE_ORIGINS),
    Migration(
        6, "games the club stands behind, club tablets", CLUB_TRUST, _count_every_earlier_table
    ),
    Migration(7, "seats on the players' phones and their sealed choices", SEATS_AND_SEALS),
    Migration(8, "the points rule of an evening's own standings", EVENING_RULES),
    Migration(9, "hidden people and undoable merges", ROSTER_RUN, _add_hidden),
    Migration(
        10, "a short label for each table (Table 1, or the host's words)", TABLE_LABELS, _add_labels
    ),
    Migration(11, "organiser and device keys, each revocable", ACCESS_KEYS, _legacy_keys),
    Migration(12, "the box check, seen by every worker process", BOX_CHECK),
)


def latest_version(migrations: tuple[Migration, ...] = MIGRATIONS) -> int:
    """The version a database has once every migration ran."""
    return migrations[-1].version if migrations else 0


def check_numbering(migrations: tuple[Migration, ...]) -> None:
    """Refuse a registry whose versions are not 1, 2, 3, ... (a gap would skip a change)."""
    versions = [migration.version for migration in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise ValueError(f"migration versions must run 1, 2, 3, ...; found {versions}")


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the file (0 for a new one)."""
    return conn.execute("PRAGMA user_version").fetchone()[0]


def has_tables(conn: sqlite3.Connection) -> bool:
    """True if the file holds any table (it is not a fresh, empty database)."""
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").fetchone()
    return found is not None


def statements(sql: str) -> Iterator[str]:
    """The complete statements of a script, one by one (executescript would COMMIT first)."""
    start = 0
    for end, char in enumerate(sql):
        # A semicolon ends a statement unless it sits inside a string or a comment.
        if char == ";" and sqlite3.complete_statement(sql[start : end + 1]):
            yield sql[start : end + 1].strip()
            start = end + 1
    rest = sql[start:]
    if any(line.strip() and not line.strip().startswith("--") for line in rest.splitlines()):
        raise ValueError(f"an unfinished SQL statement: {rest.strip()!r}")


def backup_path(path: str, version: int) -> str:
    """Where the copy before migrating to `version` goes; never a file already there."""
    base = f"{path}.before-v{version}"
    candidate, number = base, 1
    while os.path.exists(candidate):
        candidate, number = f"{base}.{number}", number + 1
    return candidate


def keep_copy(conn: sqlite3.Connection, path: str, version: int) -> str:
    """Copy the database with SQLite's backup API (consistent even with WAL) beside it."""
    target = backup_path(path, version)
    copy = sqlite3.connect(target)
    try:
        conn.backup(copy)
    except BaseException:
        copy.close()
        os.remove(target)  # half a copy is no copy; the migration does not start without one
        raise
    copy.close()
    return target


def apply(conn: sqlite3.Connection, migration: Migration) -> bool:
    """Run one migration and set its version in one transaction; False if it had already run."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Read again under the write lock: another process may have migrated meanwhile.
        if user_version(conn) >= migration.version:
            conn.execute("ROLLBACK")
            return False
        for statement in statements(migration.sql):
            conn.execute(statement)
        if migration.then is not None:
            migration.then(conn)
        conn.execute(f"PRAGMA user_version={int(migration.version)}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return True


def migrate(
    conn: sqlite3.Connection, path: str, migrations: tuple[Migration, ...] = MIGRATIONS
) -> str | None:
    """Bring the database at `path` to the latest version; the copy kept before, if any."""
    check_numbering(migrations)
    latest = latest_version(migrations)
    found = user_version(conn)
    if found > latest:
        raise SchemaTooNew(path, found, latest)
    if found == latest:
        return None
    kept = keep_copy(conn, path, latest) if has_tables(conn) else None
    for migration in migrations:
        if migration.version > found:
            apply(conn, migration)
    reached = user_version(conn)
    if reached > latest:  # a newer companion migrated it while this one was starting
        raise SchemaTooNew(path, reached, latest)
    return kept
