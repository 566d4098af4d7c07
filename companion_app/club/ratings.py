"""Ratings of the club's people, kept in memory and brought up to date when games end.

When the finished games (in the order they ended) change, the book goes back to where the
old and the new list part (its latest checkpoint before that point, scoring/league/ratings.py)
and adds the games from there: a game that ends after every counted one is only added; an
undone end of a recent game replays the games since the last checkpoint; a merge, which
changes games from the first one on, rebuilds all. Readers get a book that
is never changed after it is handed out (an update works on a copy).
"""

import threading

from flask import current_app

from companion_app.store import db, finished, roster
from scoring.league.ratings import RatedGame, Rating, RatingBook

_EXTENSION = "companion_club_ratings"


class _Memo:
    """The latest book and the store generation it was built at."""

    def __init__(self) -> None:
        """Nothing built yet."""
        self.lock = threading.Lock()
        self.generation: tuple | None = None
        self.book = RatingBook()


def book() -> RatingBook:
    """The ratings after every finished game so far (inside an app context)."""
    conn = db.get_db()
    memo = current_app.extensions.setdefault(_EXTENSION, _Memo())
    with memo.lock:
        generation = finished.generation(conn)
        if generation == memo.generation:
            return memo.book
        games = [RatedGame(*row) for row in finished.rated_games(conn)]
        memo.book = _updated(memo.book, games)
        memo.generation = generation
        return memo.book


def _updated(old: RatingBook, games: list[RatedGame]) -> RatingBook:
    """A book of `games`: `old` rewound to where the two lists part, then the rest added."""
    same = 0
    for before, now in zip(old.games, games, strict=False):
        if before != now:
            break
        same += 1
    fresh = old.copy() if same == len(old.games) else old.rewound(same)
    for game in games[len(fresh.games) :]:
        fresh.add(game)
    return fresh


def rating_of(person_id: int, game: str | None = None) -> Rating | None:
    """A person's rating overall (game None) or in one game; None before their first game."""
    return book().rating(person_id, game)


def seat_ratings(table_id: str, game: str | None = None) -> list[Rating | None]:
    """The ratings of the people at a table, in seat order (overall, or in `game`)."""
    current = book()
    return [current.rating(person.id, game) for person in roster.seated(db.get_db(), table_id)]
