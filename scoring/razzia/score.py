"""Razzia! scoring per category (RULES.md §1, "Scoring every round" and "Round 3 only")."""

from collections.abc import Mapping, Sequence

from scoring.common import ranks_by
from scoring.razzia.cards import BUSINESSES, JEWELRY, ROUNDS

CATEGORIES = ("cars_drivers", "jewelry", "gold", "thieves", "bodyguards", "businesses", "checks")

POINTS_PER_CAR = 1
POINTS_PER_DRIVER = 1
#: Jewelry points indexed by the number of different kinds held (0..5).
JEWELRY_POINTS_BY_KINDS = (-5, 0, 0, 5, 10, 15)
POINTS_PER_GOLD_COIN = 3
POINTS_PER_UNUSED_THIEF = 2
BODYGUARDS_MOST = 5
BODYGUARDS_FEWEST = -2
#: Points for all seven business kinds; fewer kinds score one point per kind.
ALL_BUSINESS_KINDS_POINTS = 10
#: Bonus per business kind held in this many identical cards.
BUSINESS_GROUP_BONUS = {3: 5, 4: 10}
LARGEST_BUSINESS_GROUP = max(BUSINESS_GROUP_BONUS)
CHECKS_HIGHEST = 5
CHECKS_LOWEST = -5
#: Businesses and checks only score in the last round.
FINAL_ROUND = ROUNDS


def cars_drivers(cars: int, drivers: int) -> int:
    """1 point per car and per driver; cars score 0 without a driver."""
    car_points = cars * POINTS_PER_CAR if drivers > 0 else 0
    return car_points + drivers * POINTS_PER_DRIVER


def _kinds_held(kinds: Mapping[str, int], names: Sequence[str]) -> int:
    """How many of the given kinds appear at least once."""
    return sum(1 for name in names if kinds.get(name, 0) > 0)


def jewelry(kinds: Mapping[str, int]) -> int:
    """Points by the number of different jewelry kinds: -5, 0, 0, 5, 10, 15."""
    return JEWELRY_POINTS_BY_KINDS[_kinds_held(kinds, JEWELRY)]


def gold(coins: int) -> int:
    """3 points per gold coin."""
    return coins * POINTS_PER_GOLD_COIN


def thieves(unused: int) -> int:
    """2 points per unused thief."""
    return unused * POINTS_PER_UNUSED_THIEF


def _most_and_fewest(values: Sequence[int], most: int, fewest: int) -> list[int]:
    """Award `most` to every top value and `fewest` to every bottom one; all equal -> 0."""
    if not values or max(values) == min(values):
        return [0] * len(values)
    top, bottom = max(values), min(values)
    return [most if v == top else fewest if v == bottom else 0 for v in values]


def bodyguards(counts: Sequence[int]) -> list[int]:
    """Most bodyguards +5, fewest (0 included) -2, ties share, all equal -> nobody."""
    return _most_and_fewest(counts, BODYGUARDS_MOST, BODYGUARDS_FEWEST)


def businesses(kinds: Mapping[str, int]) -> int:
    """Different kinds 1..6 -> 1..6, all 7 -> 10; plus +5 per triple and +10 per quadruple."""
    different = _kinds_held(kinds, BUSINESSES)
    base = ALL_BUSINESS_KINDS_POINTS if different == len(BUSINESSES) else different
    groups = (min(kinds.get(name, 0), LARGEST_BUSINESS_GROUP) for name in BUSINESSES)
    return base + sum(BUSINESS_GROUP_BONUS.get(size, 0) for size in groups)


def checks(sums: Sequence[int]) -> list[int]:
    """Highest check sum +5, lowest -5, ties share, all equal -> nobody."""
    return _most_and_fewest(sums, CHECKS_HIGHEST, CHECKS_LOWEST)


def _final_round_points(
    families: Sequence[Mapping[str, int]], checks_held: Sequence[Sequence[int]] | None
) -> tuple[list[int], list[int]]:
    """Business and check points of the last round, one list each."""
    if checks_held is None or len(checks_held) != len(families):
        raise ValueError("Round 3 scoring needs the checks of every player.")
    return [businesses(f) for f in families], checks([sum(held) for held in checks_held])


def _player_row(family: Mapping[str, int], guard: int, business: int, check: int) -> dict:
    """One player's category points and their total."""
    row = {
        "cars_drivers": cars_drivers(family.get("car", 0), family.get("driver", 0)),
        "jewelry": jewelry(family),
        "gold": gold(family.get("gold", 0)),
        "thieves": thieves(family.get("thief", 0)),
        "bodyguards": guard,
        "businesses": business,
        "checks": check,
    }
    return {**row, "total": sum(row.values())}


def score_round(
    families: Sequence[Mapping[str, int]],
    round_no: int,
    checks_held: Sequence[Sequence[int]] | None = None,
) -> list[dict[str, int]]:
    """Every player's points per category plus "total" for one round."""
    if round_no not in range(1, ROUNDS + 1):
        raise ValueError(f"Razzia! has rounds 1 to {ROUNDS}, not {round_no!r}.")
    guards = bodyguards([family.get("bodyguard", 0) for family in families])
    if round_no == FINAL_ROUND:
        business_points, check_points = _final_round_points(families, checks_held)
    else:
        business_points = check_points = [0] * len(families)
    columns = zip(families, guards, business_points, check_points, strict=True)
    return [_player_row(*column) for column in columns]


def ranks(totals: Sequence[int]) -> list[int]:
    """Rank = 1 + the number of players with a strictly higher total (ties share)."""
    return ranks_by(list(totals))
