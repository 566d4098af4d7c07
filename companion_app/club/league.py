"""Standings of a whole season, or of an evening under its season's rule or its own."""

import copy
import json
from dataclasses import dataclass

from flask import current_app

from companion_app.store import db, finished, roster
from companion_app.store.league import Season
from scoring.league.points import game_points
from scoring.league.roster import name_key
from scoring.league.standings import Standing, standings

#: The latest games a standings page lists (all of them count).
LATEST = 20
#: Standings kept per app (season rule, evenings, store generation); past this, start over.
MEMO_SIZE = 64
_EXTENSION = "companion_club_standings"


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
    return rule_board(season.rule, season.evenings if evening_id is None else (evening_id,))


def rule_board(rule: dict, wanted: tuple[int, ...]) -> Board:
    """The standings of the games of `wanted` evenings under `rule` (an evening's own too)."""
    conn = db.get_db()
    rows, counted = _standings(conn, rule, wanted)
    names = roster.names(conn)
    rows.sort(key=lambda row: (row.place, name_key(names.get(row.person, ""))))  # shared: A-Z
    latest = finished.plays(conn, evenings=wanted, latest=LATEST)[::-1]
    return Board(rows, counted, latest, names)


def _standings(conn, rule: dict, wanted: tuple[int, ...]) -> tuple[list[Standing], int]:
    """(rows, games counted), kept until a game ends or is undone, a table moves to another
    evening, or people merge (the store's generation)."""
    key = (json.dumps(rule, sort_keys=True), wanted, finished.generation(conn))
    memo = current_app.extensions.setdefault(_EXTENSION, {})
    if key not in memo:
        games = finished.placings_of(conn, wanted)  # [(person, rank), ...] per game
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = (standings(rule, games), len(games))
    rows, counted = memo[key]
    return [copy.copy(row) for row in rows], counted


def play_points(season: Season, play: finished.Play) -> list:
    """Each seat's league points in one game under the season's rule."""
    return game_points(season.rule, [seat.rank for seat in play.seats])


def evening_plays(evening_id: int) -> list[finished.Play]:
    """The finished games of one evening, counted or not, in the order they ended."""
    return finished.plays(db.get_db(), evenings=(evening_id,), uncounted=True)
