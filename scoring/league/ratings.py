"""Ratings from finished games with openskill's Plackett-Luce model, in the order games ended.

Every person starts at openskill's default (mu 25, sigma 25/3) overall and in each game. A
finished game updates the ratings of everyone at it from their ranks (ties share a rank),
once overall and once in that game's own ratings. The number shown is openskill's ordinal,
mu - 3 sigma: a cautious estimate that starts at 0 and rises as a person finishes ahead of
strong players and as the games make it surer.

Why openskill (compared with what PyPI offers): it rates any number of players per game
with ties, natively (Elo, Glicko-2 and Whole-History Rating rate pairs); it is maintained
(6.x, 2026) and pure Python; TrueSkill's `trueskill` package does the same maths but has
not had a release since 2018, and TrueSkill Through Time re-estimates the whole history on
every game, which a club night's laptop should not do per page view.
"""

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: A book keeps a copy of itself every this many games, so a change near the end of the
#: history (an undone end) replays at most this many games instead of all of them.
CHECKPOINT_EVERY = 100


@dataclass(frozen=True)
class RatedGame:
    """A finished game as the ratings see it: which game, who sat and their ranks."""

    table_id: str
    game: str
    persons: tuple
    ranks: tuple


@dataclass(frozen=True)
class Rating:
    """A person's rating: openskill's mu and sigma, the ordinal shown, and games counted."""

    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: the number the pages show."""
        return self.mu - 3 * self.sigma


class RatingBook:
    """Ratings overall and per game, built by adding finished games in the order they ended."""

    def __init__(self) -> None:
        """Everybody unrated; games are added with `add`."""
        self.model = PlackettLuce()
        self.overall: dict[Hashable, object] = {}
        self.by_game: dict[tuple[str, Hashable], object] = {}
        self.counted: dict[tuple[str | None, Hashable], int] = {}
        #: The games added, in order (a caller may extend a book whose games are a prefix).
        self.games: list[RatedGame] = []
        #: Copies of this book after every CHECKPOINT_EVERY games, by games counted.
        self.checkpoints: dict[int, RatingBook] = {}

    def copy(self) -> "RatingBook":
        """A book with the same ratings that can be extended without touching this one."""
        twin = RatingBook()
        twin.model = self.model
        twin.overall = dict(self.overall)
        twin.by_game = dict(self.by_game)
        twin.counted = dict(self.counted)
        twin.games = list(self.games)
        twin.checkpoints = dict(self.checkpoints)
        return twin

    def rewound(self, count: int) -> "RatingBook":
        """A book of this one's first games, at most `count` (its latest checkpoint below)."""
        kept = max((at for at in self.checkpoints if at <= count), default=0)
        if kept == 0:
            return RatingBook()
        twin = self.checkpoints[kept].copy()
        twin.checkpoints = {at: book for at, book in self.checkpoints.items() if at <= kept}
        return twin

    def add(self, game: RatedGame) -> None:
        """Update everyone at `game` overall and in its game's ratings."""
        self._rate(self.overall, list(game.persons), game.ranks, None)
        keys = [(game.game, person) for person in game.persons]
        self._rate(self.by_game, keys, game.ranks, game.game)
        self.games.append(game)
        if len(self.games) % CHECKPOINT_EVERY == 0:
            snapshot = self.copy()
            snapshot.checkpoints = {}
            self.checkpoints[len(self.games)] = snapshot

    def _rate(self, book: dict, keys: list, ranks: tuple, game: str | None) -> None:
        """One openskill update of the ratings under `keys` in `book`."""
        before = [book.get(key) or self.model.rating() for key in keys]
        after = self.model.rate([[rating] for rating in before], ranks=list(ranks))
        for key, (rating,) in zip(keys, after, strict=True):
            book[key] = rating
            person = key[1] if game is not None else key
            self.counted[(game, person)] = self.counted.get((game, person), 0) + 1

    def rating(self, person: Hashable, game: str | None = None) -> Rating | None:
        """The person's rating overall (game None) or in one game; None before any game."""
        found = self.overall.get(person) if game is None else self.by_game.get((game, person))
        if found is None:
            return None
        return Rating(found.mu, found.sigma, self.counted[(game, person)])

    def games_of(self, person: Hashable) -> list[str]:
        """The games the person has a rating in."""
        return sorted(game for game, who in self.by_game if who == person)


def rate_games(games: Iterable[RatedGame]) -> RatingBook:
    """A book of `games` added in the order given (the order they ended)."""
    book = RatingBook()
    for game in games:
        book.add(game)
    return book
