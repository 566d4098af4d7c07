"""Standings of an evening or a whole season under the season's points rule."""

from dataclasses import dataclass

from companion_app.store import db, finished
from companion_app.store.league import Season
from scoring.league.points import game_points
from scoring.league.standings import Placing, Standing, standings


@dataclass
class Board:
    """Standings with what they cover: the rows, the games counted and everyone's names."""

    rows: list[Standing]
    plays: list[finished.Play]
    names: dict[int, str]

    def name(self, person: int) -> str:
        """A person's current name."""
        return self.names[person]


def board(season: Season, evening_id: int | None = None) -> Board:
    """The season's standings, or one of its evenings' (evening_id) under the season's rule."""
    wanted = season.evenings if evening_id is None else (evening_id,)
    plays = finished.plays(db.get_db(), evenings=wanted)
    games = [[Placing(seat.person, seat.rank) for seat in play.seats] for play in plays]
    names = {seat.person: seat.person_name for play in plays for seat in play.seats}
    return Board(standings(season.rule, games), plays, names)


def play_points(season: Season, play: finished.Play) -> list:
    """Each seat's league points in one game under the season's rule."""
    return game_points(season.rule, [seat.rank for seat in play.seats])


def evening_plays(evening_id: int) -> list[finished.Play]:
    """The finished games of one evening, in the order they ended."""
    return finished.plays(db.get_db(), evenings=(evening_id,))
