"""League points of one finished game, by the organiser's rule.

Two rules (a season has one):
- **per placing** (`{"kind": "placing", "points": [10, 6, 4, 2, 1]}`): the points of each
  place, best first; places past the list score 0. Players tied for a place share the points
  of the places they cover: two tied firsts under 10, 6 both get (10 + 6) / 2 = 8.
- **per share of players beaten** (`{"kind": "beaten", "points": 10}`): `points` times the
  share of the other players you finished ahead of, a tied player counting as half beaten:
  first of four gets 10, last 0, two tied seconds of four (1 + 0.5) / 3 * 10 = 5 each.

Points are exact fractions, so a tie in the standings is a real tie, never a rounding.
"""

from fractions import Fraction

from scoring.common import is_int
from scoring.errors import N_, RuleError

PLACING, BEATEN = "placing", "beaten"
KINDS = (PLACING, BEATEN)
#: Most places a placing rule lists (Cech zlodějů seats nine).
MAX_PLACES = 9
#: Highest points of a place, and of a whole game under the beaten-share rule.
MAX_POINTS = 1000
DEFAULT_RULE = {"kind": PLACING, "points": [10, 6, 4, 2, 1]}


class InvalidRule(RuleError):
    """A points rule the organiser cannot use, with the reason."""


def check_rule(rule: object) -> dict:
    """The rule as stored, or InvalidRule saying what is wrong with it."""
    if not isinstance(rule, dict) or rule.get("kind") not in KINDS:
        raise InvalidRule(N_("Choose how the league counts points: per placing or per share."))
    if rule["kind"] == BEATEN:
        return {"kind": BEATEN, "points": _whole(rule.get("points"), low=1)}
    listed = rule.get("points")
    if not isinstance(listed, list) or not 1 <= len(listed) <= MAX_PLACES:
        raise InvalidRule(
            N_("Give the points of 1 to {most} places, best place first."), most=MAX_PLACES
        )
    points = [_whole(value, low=0) for value in listed]
    for place, (better, worse) in enumerate(zip(points, points[1:], strict=False), start=2):
        if worse > better:
            raise InvalidRule(
                N_("Place {place} cannot score more than place {better_place}."),
                place=place,
                better_place=place - 1,
            )
    if points[0] == 0:
        raise InvalidRule(N_("The first place must score points."))
    return {"kind": PLACING, "points": points}


def _whole(value: object, *, low: int) -> int:
    """A whole number of points from `low` to MAX_POINTS, or InvalidRule."""
    if not is_int(value) or not low <= value <= MAX_POINTS:
        raise InvalidRule(
            N_("Points must be whole numbers from {low} to {high}."), low=low, high=MAX_POINTS
        )
    return value


def game_points(rule: dict, ranks: list[int]) -> list[Fraction]:
    """Each player's league points in one game; `ranks[i]` is 1 + the players strictly better."""
    if rule["kind"] == BEATEN:
        return [_beaten_share(rank, ranks) * rule["points"] for rank in ranks]
    return [_placing_points(rule["points"], rank, ranks.count(rank)) for rank in ranks]


def _placing_points(points: list[int], rank: int, tied: int) -> Fraction:
    """The mean of the points of the places `tied` players at `rank` cover."""
    covered = [
        points[place - 1] if place <= len(points) else 0 for place in range(rank, rank + tied)
    ]
    return Fraction(sum(covered), tied)


def _beaten_share(rank: int, ranks: list[int]) -> Fraction:
    """The share of the other players finished ahead of, a tie counting half."""
    others = len(ranks) - 1
    if others == 0:
        return Fraction(0)
    beaten = sum(1 for other in ranks if other > rank)
    tied = ranks.count(rank) - 1
    return Fraction(2 * beaten + tied, 2 * others)
