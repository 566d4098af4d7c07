"""Standings of an evening or a whole season under the season's points rule."""

from dataclasses import dataclass

from companion_app.store import db, finished, roster
from companion_app.store.league import Season
from scoring.league.points import game_points
from scoring.league.standings import Standing, standings

#: The latest games a standings page lists (all of them count).
LATEST = 20


@dataclass
class Board:
    """Standings with what they cover: the rows, how many games count, the latest of them and
    everyone's names."""

    rows: list[Standing]
    counted: int
    latest: list[finished.Play]
    names: dict[int, str]

    def name(self, person: int) -> str:
        """A person's current name."""
        return self.names[person]


def board(season: Season, evening_id: int | None = None) -> Board:
    """The season's standings, or one of its evenings' (evening_id) under the season's rule."""
    wanted = season.evenings if evening_id is None else (evening_id,)
    conn = db.get_db()
    games = finished.placings_of(conn, wanted)  # [(person, rank), ...] per game
    names = roster.names(conn)
    latest = finished.plays(conn, evenings=wanted, latest=LATEST)[::-1]
    return Board(standings(season.rule, games), len(games), latest, names)


def play_points(season: Season, play: finished.Play) -> list:
    """Each seat's league points in one game under the season's rule."""
    return game_points(season.rule, [seat.rank for seat in play.seats])


def evening_plays(evening_id: int) -> list[finished.Play]:
    """The finished games of one evening, in the order they ended."""
    return finished.plays(db.get_db(), evenings=(evening_id,))
