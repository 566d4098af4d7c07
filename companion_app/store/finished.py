"""Finished games' placings in SQLite, kept in step with the log: the club's statistics read here.

The move that ends a game writes its placings (from the rules' `results(state)`) in its own
transaction, with the moment it ended; undoing that move deletes them. Statistics, ratings
and league standings therefore read a few rows per game instead of replaying states, and a
game whose end was undone (or a table abandoned) is simply absent.
"""

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

#: The settings row counting changes of finished games and people (`generation`).
GENERATION_KEY = "club_generation"
NOT_ABANDONED = "finished_games.table_id NOT IN (SELECT table_id FROM abandoned_tables)"
#: Games the club stands behind (store/counted.py): the only ones statistics read.
COUNTED = " AND finished_games.table_id IN (SELECT table_id FROM counted_tables)"


@dataclass(frozen=True)
class Seat:
    """One player's line of a finished game: the person, the name at the table, the result."""

    seat: int
    person: int
    person_name: str
    name: str
    rank: int
    score: int | float
    winner: bool


@dataclass(frozen=True)
class Play:
    """A finished game: table, game, when it ended, its evening and every seat's result."""

    table_id: str
    game: str
    ended: datetime
    highest_wins: bool
    evening: int | None
    seats: tuple[Seat, ...]

    def seat_of(self, person: int) -> Seat | None:
        """The person's seat at this game, if they played it."""
        return next((seat for seat in self.seats if seat.person == person), None)


def record(conn: sqlite3.Connection, table_id: str, game: str, final: dict, now: str) -> None:
    """Write a finished table's placings; a table already recorded keeps its end moment."""
    row = conn.execute(
        "SELECT ended_at FROM finished_games WHERE table_id = ?", (table_id,)
    ).fetchone()
    ended = now if row is None else row["ended_at"]
    conn.execute("DELETE FROM placings WHERE table_id = ?", (table_id,))
    conn.execute("DELETE FROM finished_games WHERE table_id = ?", (table_id,))
    conn.execute(
        "INSERT INTO finished_games (table_id, game, ended_at, highest_wins) VALUES (?, ?, ?, ?)",
        (table_id, game, ended, int(bool(final["highest_wins"]))),
    )
    conn.executemany(
        "INSERT INTO placings (table_id, seat, name, rank, score, winner)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (table_id, p["seat"], p["name"], p["rank"], p["score"], int(bool(p["winner"])))
            for p in final["players"]
        ],
    )
    bump(conn)


def clear(conn: sqlite3.Connection, table_id: str) -> None:
    """Forget a table's placings (its end was undone)."""
    conn.execute("DELETE FROM placings WHERE table_id = ?", (table_id,))
    gone = conn.execute("DELETE FROM finished_games WHERE table_id = ?", (table_id,)).rowcount
    if gone:
        bump(conn)


def bump(conn: sqlite3.Connection) -> None:
    """Count one more change of what the club's statistics read (see `generation`)."""
    conn.execute(
        "INSERT INTO settings (key, value_json) VALUES (?, '1')"
        " ON CONFLICT (key) DO UPDATE SET value_json = CAST(value_json AS INTEGER) + 1",
        (GENERATION_KEY,),
    )


_PLAYS_SQL = (
    "SELECT finished_games.table_id, finished_games.game, finished_games.ended_at,"
    " finished_games.highest_wins, table_evenings.evening_id, placings.seat, placings.name,"
    " placings.rank, placings.score, placings.winner, seats.person_id, people.name AS person_name"
    " FROM finished_games"
    " JOIN placings ON placings.table_id = finished_games.table_id"
    " JOIN seats ON seats.table_id = placings.table_id AND seats.seat = placings.seat"
    " JOIN people ON people.id = seats.person_id"
    " LEFT JOIN table_evenings ON table_evenings.table_id = finished_games.table_id"
    f" WHERE {NOT_ABANDONED}"
)
_ORDER = " ORDER BY finished_games.ended_at, finished_games.table_id, placings.seat"


def plays(
    conn: sqlite3.Connection,
    *,
    person: int | None = None,
    evenings: Iterable[int] | None = None,
    latest: int | None = None,
    uncounted: bool = False,
) -> list[Play]:
    """Counted finished games in the order they ended: all, a person's, or those of some
    evenings (only the `latest` few of them when given); `uncounted` adds the others."""
    where, args = ("" if uncounted else COUNTED), []
    if person is not None:
        where += " AND finished_games.table_id IN (SELECT table_id FROM seats WHERE person_id = ?)"
        args.append(person)
    if evenings is not None:
        more, wanted = _in_evenings(evenings)
        where += more
        args += wanted
    if latest is not None:
        chosen = conn.execute(
            "SELECT finished_games.table_id FROM finished_games"
            " LEFT JOIN table_evenings ON table_evenings.table_id = finished_games.table_id"
            f" WHERE {NOT_ABANDONED}{where}"
            " ORDER BY finished_games.ended_at DESC, finished_games.table_id DESC LIMIT ?",
            [*args, latest],
        ).fetchall()
        where = f" AND finished_games.table_id IN ({','.join('?' * len(chosen))})"
        args = [row[0] for row in chosen]
    return _group(conn.execute(_PLAYS_SQL + where + _ORDER, args))


def _in_evenings(evenings: Iterable[int]) -> tuple[str, list[int]]:
    """The SQL condition and its arguments for games of these evenings."""
    wanted = list(evenings)
    marks = ",".join("?" * len(wanted))
    return f" AND table_evenings.evening_id IN ({marks})", wanted


def placings_of(conn: sqlite3.Connection, evenings: Iterable[int]) -> list[list[tuple[int, int]]]:
    """Each counted game of these evenings as [(person, rank), ...], in the order they ended.

    The league reads only these two numbers per seat, so they come as plain tuples: with
    thousands of games, building full Play objects would cost more than the standings.
    """
    where, args = _in_evenings(evenings)
    cursor = conn.cursor()
    cursor.row_factory = None
    rows = cursor.execute(
        "SELECT finished_games.table_id, seats.person_id, placings.rank FROM finished_games"
        " JOIN placings ON placings.table_id = finished_games.table_id"
        " JOIN seats ON seats.table_id = placings.table_id AND seats.seat = placings.seat"
        " LEFT JOIN table_evenings ON table_evenings.table_id = finished_games.table_id"
        f" WHERE {NOT_ABANDONED}{COUNTED}" + where + _ORDER,
        args,
    )
    games: list[list[tuple[int, int]]] = []
    current = None
    for table_id, person, rank in rows:
        if table_id != current:
            games.append([])
            current = table_id
        games[-1].append((person, rank))
    return games


def _group(rows: Iterable[sqlite3.Row]) -> list[Play]:
    """Rows of seats (ordered by game) as one Play per game."""
    found: list[Play] = []
    seats: list[Seat] = []
    current = None
    for row in rows:
        if current is not None and row["table_id"] != current["table_id"]:
            found.append(_play(current, seats))
            seats = []
        current = row
        seats.append(
            Seat(
                seat=row["seat"],
                person=row["person_id"],
                person_name=row["person_name"],
                name=row["name"],
                rank=row["rank"],
                score=row["score"],
                winner=bool(row["winner"]),
            )
        )
    if current is not None:
        found.append(_play(current, seats))
    return found


def _play(row: sqlite3.Row, seats: list[Seat]) -> Play:
    """A Play from its last seat row and all its seats."""
    return Play(
        table_id=row["table_id"],
        game=row["game"],
        ended=datetime.fromisoformat(row["ended_at"]),
        highest_wins=bool(row["highest_wins"]),
        evening=row["evening_id"],
        seats=tuple(seats),
    )


def generation(conn: sqlite3.Connection) -> tuple:
    """Changes whenever a game ends, an end is undone, a table is abandoned, moves to another
    evening or is counted or un-counted, people merge, or an evening's points rule is picked."""
    row = conn.execute(
        "SELECT (SELECT value_json FROM settings WHERE key = ?),"
        " (SELECT COUNT(*) FROM abandoned_tables)",
        (GENERATION_KEY,),
    ).fetchone()
    return tuple(row)


def rated_games(conn: sqlite3.Connection) -> list[tuple[str, str, tuple, tuple]]:
    """(table id, game, persons, ranks) of every counted finished game, in the order they
    ended."""
    cursor = conn.cursor()
    cursor.row_factory = None  # plain tuples: thousands of rows
    rows = cursor.execute(
        "SELECT finished_games.table_id, finished_games.game, seats.person_id, placings.rank"
        " FROM finished_games"
        " JOIN placings ON placings.table_id = finished_games.table_id"
        " JOIN seats ON seats.table_id = placings.table_id AND seats.seat = placings.seat"
        f" WHERE {NOT_ABANDONED}{COUNTED}" + _ORDER
    )
    found: list[tuple[str, str, list, list]] = []
    for table_id, game, person, rank in rows:
        if not found or found[-1][0] != table_id:
            found.append((table_id, game, [], []))
        found[-1][2].append(person)
        found[-1][3].append(rank)
    return [(table, game, tuple(persons), tuple(ranks)) for table, game, persons, ranks in found]
