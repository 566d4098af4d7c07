"""Standings of an evening or a season: league points per person, ties broken and explained.

The order: more league points; level on points, more wins (first places, shared ones too);
still level, more points per game (the same points from fewer games); still level, a shared
place. Every row level on points with another says what put it where it is (`decided_by`):
"wins", "per_game" or "shared" (nothing tells them apart).
"""

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from scoring.league.points import game_points

WINS, PER_GAME, SHARED = "wins", "per_game", "shared"


class Placing(NamedTuple):
    """One person's result in one finished game: their rank (a plain pair does as well)."""

    person: Hashable
    rank: int


@dataclass
class Standing:
    """One person's line of the standings."""

    person: Hashable
    points: Fraction = Fraction(0)
    games: int = 0
    wins: int = 0
    place: int = 0
    shared: bool = False
    #: Others on the same points (their persons), best first.
    level_with: list = field(default_factory=list)
    #: What separates this row from its nearest level neighbour: WINS, PER_GAME or SHARED.
    decided_by: str | None = None

    @property
    def per_game(self) -> Fraction:
        """Mean league points per game played."""
        return self.points / self.games if self.games else Fraction(0)

    def order_key(self) -> tuple:
        """What the standings sort by (higher is better)."""
        return (self.points, self.wins, self.per_game)


#: League points are added up as whole multiples of 1/SCALE, exact for every rule: a tie
#: shares among at most 9 places, a share beaten has a denominator 2 (players - 1) <= 16, and
#: 720720 = lcm(1, ..., 16). Adding Fractions one by one was the standings' main cost.
SCALE = 720720


def standings(rule: dict, games: Iterable[list[Placing] | list[tuple]]) -> list[Standing]:
    """Everyone who played at least one of `games`, best first, places and ties explained."""
    totals: dict[Hashable, list[int]] = {}  # person -> [scaled points, games, wins]
    scaled: dict[tuple[int, ...], list[int]] = {}  # a game's ranks -> its scaled points
    for placings in games:
        ranks = tuple(rank for _person, rank in placings)
        if ranks not in scaled:
            scaled[ranks] = [_scaled(points) for points in game_points(rule, list(ranks))]
        for (person, rank), earned in zip(placings, scaled[ranks], strict=True):
            total = totals.setdefault(person, [0, 0, 0])
            total[0] += earned
            total[1] += 1
            total[2] += rank == 1
    rows = [
        Standing(person, Fraction(points, SCALE), played, wins)
        for person, (points, played, wins) in totals.items()
    ]
    ordered = sorted(rows, key=Standing.order_key, reverse=True)
    _place(ordered)
    _explain(ordered)
    return ordered


def _scaled(points: Fraction) -> int:
    """Points as a whole number of 1/SCALE (exact: SCALE is a multiple of every denominator)."""
    value = points * SCALE
    if value.denominator != 1:
        raise ValueError(f"{points} is not a whole number of 1/{SCALE}")
    return int(value)


def _place(ordered: list[Standing]) -> None:
    """1 + the rows strictly better; a place held by several rows is shared."""
    keys = [row.order_key() for row in ordered]
    for row, key in zip(ordered, keys, strict=True):
        row.place = keys.index(key) + 1
        row.shared = keys.count(key) > 1


def _explain(ordered: list[Standing]) -> None:
    """For rows level on points: who with, and what decided their order."""
    for index, row in enumerate(ordered):
        level = [other for other in ordered if other is not row and other.points == row.points]
        row.level_with = [other.person for other in level]
        if not level:
            continue
        above = ordered[index - 1] if index and ordered[index - 1].points == row.points else None
        below = ordered[index + 1] if index + 1 < len(ordered) else None
        neighbour = above or (below if below and below.points == row.points else None)
        row.decided_by = _separating(row, neighbour)


def _separating(row: Standing, other: Standing) -> str:
    """The first tie-break that tells two rows level on points apart (SHARED if none)."""
    if row.wins != other.wins:
        return WINS
    if row.per_game != other.per_game:
        return PER_GAME
    return SHARED
