"""Club evenings and seasons in SQLite: which evening each table belongs to, season rules.

A table belongs to the evening of the day it started (scoring.league.evenings: a night past
midnight stays one evening), set in the transaction that creates it, until the organiser
moves it to another evening (`move_table`). A season is a name, the organiser's points rule
(scoring.league.points) and a set of evenings. An evening's own standings ("tonight's
ranking") use the rule the organiser picked for it, else its first season's, else the default.
"""

import json
import sqlite3
from dataclasses import dataclass
from datetime import date, datetime

from companion_app.store import finished
from companion_app.store.model import TableNotFound
from scoring.errors import N_
from scoring.league.evenings import evening_day
from scoring.league.points import DEFAULT_RULE, check_rule
from scoring.league.roster import RosterError
from scoring.names import check_text

NO_EVENING = N_("There is no such evening.")
NO_SEASON = N_("There is no such season.")
SEASON_NAME = N_("The season's name {text} contains {char}; remove it.")
NO_SEASON_NAME = N_("Give the season a name.")
EVENING_NAME = N_("The evening's name {text} contains {char}; remove it.")
NAME_TOO_LONG = N_("A name can be at most {limit} characters long.")
UNKNOWN_EVENINGS = N_("Choose the season's evenings from the list.")
ABANDONED_TABLE = N_("This table was abandoned; it belongs to no evening any more.")
#: Longest season or evening name.
MAX_LABEL = 60


class LeagueError(RosterError):
    """An evening or season change refused, with the reason."""


@dataclass(frozen=True)
class Evening:
    """A club evening: its day, its optional name and how many tables it holds."""

    id: int
    day: date
    name: str = ""
    tables: int = 0


@dataclass(frozen=True)
class Season:
    """A season: its name, points rule and evenings (ids)."""

    id: int
    name: str
    rule: dict
    evenings: tuple[int, ...]


def assign_evening(conn: sqlite3.Connection, table_id: str, created: datetime) -> int:
    """Put a table into the evening of the day it started (created if new); its id."""
    evening = evening_of_day(conn, evening_day(created.astimezone()))
    conn.execute(
        "INSERT OR REPLACE INTO table_evenings (table_id, evening_id) VALUES (?, ?)",
        (table_id, evening),
    )
    return evening


def evening_of_day(conn: sqlite3.Connection, day: date) -> int:
    """The id of a day's evening, created if it has none yet."""
    conn.execute("INSERT OR IGNORE INTO evenings (day) VALUES (?)", (day.isoformat(),))
    row = conn.execute("SELECT id FROM evenings WHERE day = ?", (day.isoformat(),)).fetchone()
    return int(row["id"])


def evening_on(conn: sqlite3.Connection, day: date) -> Evening | None:
    """A day's evening, or None when no table started that day (nothing is created)."""
    row = conn.execute("SELECT id FROM evenings WHERE day = ?", (day.isoformat(),)).fetchone()
    return None if row is None else evening(conn, int(row["id"]))


def table_evening(conn: sqlite3.Connection, table_id: str) -> Evening:
    """The evening a table belongs to, or TableNotFound (LeagueError for an abandoned one)."""
    row = conn.execute(
        "SELECT tables.id, table_evenings.evening_id, abandoned_tables.table_id AS abandoned"
        " FROM tables LEFT JOIN table_evenings ON table_evenings.table_id = tables.id"
        " LEFT JOIN abandoned_tables ON abandoned_tables.table_id = tables.id"
        " WHERE tables.id = ?",
        (table_id,),
    ).fetchone()
    if row is None or row["evening_id"] is None:
        raise TableNotFound(table_id)
    if row["abandoned"] is not None:
        raise LeagueError(ABANDONED_TABLE)
    return evening(conn, row["evening_id"])


def move_table(conn: sqlite3.Connection, table_id: str, target: int | date) -> tuple[Evening, int]:
    """Put a table (finished or not) into another evening: an existing one (its id) or a day's
    (created if new); (the evening it left, as it was: it may be gone now; the joined one's id).

    The evening it leaves is forgotten once it holds no table, has no name and counts for no
    season (typically the evening a game entered the next morning made). What the standings
    read changed: the club's generation is bumped, so their cached values are recomputed.
    """
    left = table_evening(conn, table_id)
    joined = evening_of_day(conn, target) if isinstance(target, date) else evening(conn, target).id
    if joined == left.id:
        return left, joined
    conn.execute("UPDATE table_evenings SET evening_id = ? WHERE table_id = ?", (joined, table_id))
    conn.execute(
        "DELETE FROM evenings WHERE id = ? AND name = ''"
        " AND id NOT IN (SELECT evening_id FROM table_evenings)"
        " AND id NOT IN (SELECT evening_id FROM season_evenings)"
        " AND id NOT IN (SELECT evening_id FROM evening_rules)",
        (left.id,),
    )
    finished.bump(conn)
    return left, joined


def _evening(row: sqlite3.Row) -> Evening:
    """An Evening from its row (with a `tables` count column)."""
    return Evening(row["id"], date.fromisoformat(row["day"]), row["name"], row["tables"])


_EVENING_SQL = (
    "SELECT evenings.id, evenings.day, evenings.name, COUNT(table_evenings.table_id) AS tables"
    " FROM evenings LEFT JOIN table_evenings ON table_evenings.evening_id = evenings.id"
    " AND table_evenings.table_id NOT IN (SELECT table_id FROM abandoned_tables)"
)


def evenings(conn: sqlite3.Connection) -> list[Evening]:
    """Every evening, the latest first."""
    rows = conn.execute(_EVENING_SQL + " GROUP BY evenings.id ORDER BY evenings.day DESC")
    return [_evening(row) for row in rows]


def evening(conn: sqlite3.Connection, evening_id: object) -> Evening:
    """One evening, or LeagueError."""
    row = None
    if isinstance(evening_id, int):
        row = conn.execute(
            _EVENING_SQL + " WHERE evenings.id = ? GROUP BY evenings.id", (evening_id,)
        ).fetchone()
    if row is None:
        raise LeagueError(NO_EVENING)
    return _evening(row)


def name_evening(conn: sqlite3.Connection, evening_id: int, text: object) -> str:
    """Give an evening a name (empty: just its date); returns the clean name."""
    evening(conn, evening_id)
    name = _label(text, EVENING_NAME)
    conn.execute("UPDATE evenings SET name = ? WHERE id = ?", (name, evening_id))
    return name


def evening_rule(conn: sqlite3.Connection, evening_id: int) -> tuple[dict, bool]:
    """(the points rule of an evening's own standings, whether the organiser picked it): the
    picked one, else its first season's, else the default (scoring.league.points)."""
    row = conn.execute(
        "SELECT rule_json FROM evening_rules WHERE evening_id = ?", (evening_id,)
    ).fetchone()
    if row is not None:
        return json.loads(row["rule_json"]), True
    first = seasons_of(conn, evening_id)[:1]
    return (first[0].rule if first else dict(DEFAULT_RULE)), False


def set_evening_rule(conn: sqlite3.Connection, evening_id: int, rule: object) -> None:
    """The organiser picks an evening's points rule (None: back to the default)."""
    evening(conn, evening_id)
    if rule is None:
        conn.execute("DELETE FROM evening_rules WHERE evening_id = ?", (evening_id,))
    else:
        conn.execute(
            "INSERT OR REPLACE INTO evening_rules (evening_id, rule_json) VALUES (?, ?)",
            (evening_id, json.dumps(check_rule(rule), separators=(",", ":"))),
        )
    finished.bump(conn)  # the room display shows tonight's ranking: its version moves


def _label(text: object, refusal: str) -> str:
    """A clean season or evening name (may be empty), or LeagueError."""
    if not isinstance(text, str):
        text = ""
    name = check_text(text, LeagueError, refusal)
    if len(name) > MAX_LABEL:
        raise LeagueError(NAME_TOO_LONG, limit=MAX_LABEL)
    return name


def save_season(conn: sqlite3.Connection, season_id: int | None, fields: dict, now: str) -> int:
    """Create (season_id None) or change a season from {name, rule, evenings}; its id."""
    name = _label(fields.get("name"), SEASON_NAME)
    if not name:
        raise LeagueError(NO_SEASON_NAME)
    rule = check_rule(fields.get("rule"))
    chosen = fields.get("evenings") or []
    known = {row["id"] for row in conn.execute("SELECT id FROM evenings")}
    if not all(isinstance(each, int) and each in known for each in chosen):
        raise LeagueError(UNKNOWN_EVENINGS)
    rule_text = json.dumps(rule, separators=(",", ":"))
    if season_id is None:
        cursor = conn.execute(
            "INSERT INTO seasons (name, rule_json, created_at) VALUES (?, ?, ?)",
            (name, rule_text, now),
        )
        season_id = int(cursor.lastrowid)
    else:
        season(conn, season_id)
        conn.execute(
            "UPDATE seasons SET name = ?, rule_json = ? WHERE id = ?", (name, rule_text, season_id)
        )
        conn.execute("DELETE FROM season_evenings WHERE season_id = ?", (season_id,))
    conn.executemany(
        "INSERT INTO season_evenings (season_id, evening_id) VALUES (?, ?)",
        [(season_id, each) for each in sorted(set(chosen))],
    )
    return season_id


def season(conn: sqlite3.Connection, season_id: object) -> Season:
    """One season, or LeagueError."""
    row = None
    if isinstance(season_id, int):
        row = conn.execute(
            "SELECT id, name, rule_json FROM seasons WHERE id = ?", (season_id,)
        ).fetchone()
    if row is None:
        raise LeagueError(NO_SEASON)
    chosen = conn.execute(
        "SELECT season_evenings.evening_id FROM season_evenings"
        " JOIN evenings ON evenings.id = season_evenings.evening_id"
        " WHERE season_id = ? ORDER BY evenings.day",
        (season_id,),
    )
    ids = tuple(each["evening_id"] for each in chosen)
    return Season(row["id"], row["name"], json.loads(row["rule_json"]), ids)


def seasons(conn: sqlite3.Connection) -> list[Season]:
    """Every season, the newest first."""
    rows = conn.execute("SELECT id FROM seasons ORDER BY created_at DESC, id DESC").fetchall()
    return [season(conn, row["id"]) for row in rows]


def seasons_of(conn: sqlite3.Connection, evening_id: int) -> list[Season]:
    """The seasons an evening counts for."""
    rows = conn.execute(
        "SELECT season_id FROM season_evenings WHERE evening_id = ? ORDER BY season_id",
        (evening_id,),
    ).fetchall()
    return [season(conn, row["season_id"]) for row in rows]


def evening_tables(conn: sqlite3.Connection, evening_id: int) -> list[str]:
    """The ids of an evening's tables (not abandoned), the earliest started first."""
    rows = conn.execute(
        "SELECT tables.id FROM table_evenings JOIN tables ON tables.id = table_evenings.table_id"
        " WHERE table_evenings.evening_id = ?"
        " AND tables.id NOT IN (SELECT table_id FROM abandoned_tables)"
        " ORDER BY tables.created_at, tables.id",
        (evening_id,),
    ).fetchall()
    return [row["id"] for row in rows]
