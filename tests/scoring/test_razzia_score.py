"""Razzia! per-category scoring (RULES.md §1, "Scoring every round" and "Round 3 only")."""

import pytest

from scoring.razzia import score

# --- Worked examples in the seed (RULES.md §1, "Worked examples in the seed") ---


def test_cars_drivers_worked_example_felix_elke_miriam_denis():
    """1 car + 3 drivers = 4; 5 cars + 0 drivers = 0; 2 drivers = 2; 3 cars + 1 driver = 4."""
    assert score.cars_drivers(1, 3) == 4
    assert score.cars_drivers(5, 0) == 0
    assert score.cars_drivers(0, 2) == 2
    assert score.cars_drivers(3, 1) == 4


def test_jewelry_worked_example():
    """2 watches, 3 necklaces, 2 rings = 3 kinds = 5; 2 brooches + 1 ring = 0; none = -5."""
    assert score.jewelry({"watch": 2, "necklace": 3, "ring": 2}) == 5
    assert score.jewelry({"brooch": 2, "ring": 1}) == 0
    assert score.jewelry({}) == -5


def test_gold_and_thieves_worked_examples():
    """Gold: 2 coins = 6. Thieves: 2 unused = 4."""
    assert score.gold(2) == 6
    assert score.thieves(2) == 4


def test_bodyguards_worked_example_4_4_2_1():
    """Bodyguards 4, 4, 2, 1: the two 4s get +5, the 1 gets -2, the 2 gets 0."""
    assert score.bodyguards([4, 4, 2, 1]) == [5, 5, 0, -2]


def test_businesses_worked_example_denis_20():
    """5 kinds incl. 4 restaurants and 3 casinos -> 5 + 10 + 5 = 20."""
    kinds = {"restaurant": 4, "casino": 3, "film": 1, "transport": 1, "nightclub": 2}
    assert score.businesses(kinds) == 20


def test_checks_worked_example_25_21_17_17():
    """Check sums 25,000 / 21,000 / 17,000 / 17,000 -> +5, 0, -5, -5 (ties share)."""
    assert score.checks([25000, 21000, 17000, 17000]) == [5, 0, -5, -5]


# --- Edge rules ---


def test_jewelry_by_number_of_different_kinds():
    """Jewelry by different kinds: 0 -> -5, 1-2 -> 0, 3 -> 5, 4 -> 10, 5 -> 15."""
    kinds = ("ring", "watch", "brooch", "necklace", "diamond")
    expected = [-5, 0, 0, 5, 10, 15]
    for held, points in enumerate(expected):
        assert score.jewelry(dict.fromkeys(kinds[:held], 1)) == points


def test_jewelry_ignores_zero_counts_and_other_loot():
    """Only jewelry kinds held at least once count as different kinds."""
    assert score.jewelry({"ring": 0, "car": 3, "casino": 2}) == -5


def test_cars_without_driver_score_zero():
    """Cars score 0 if the player has no driver."""
    assert score.cars_drivers(16, 0) == 0


def test_bodyguards_all_equal_nobody_scores():
    """If everybody has the same number of bodyguards, nobody scores."""
    assert score.bodyguards([3, 3, 3]) == [0, 0, 0]
    assert score.bodyguards([0, 0]) == [0, 0]


def test_bodyguards_zero_counts_as_fewest():
    """A player with 0 bodyguards counts for "fewest" (-2)."""
    assert score.bodyguards([2, 0, 1]) == [5, -2, 0]


def test_bodyguards_ties_all_get_fewest():
    """All tied players get it: two players with the fewest both get -2."""
    assert score.bodyguards([1, 1, 6]) == [-2, -2, 5]


def test_businesses_seven_kinds_score_10():
    """All 7 business kinds -> 10 (not 7)."""
    kinds = dict.fromkeys(
        ("casino", "transport", "film", "horse_racing", "real_estate", "nightclub", "restaurant"),
        1,
    )
    assert score.businesses(kinds) == 10


def test_businesses_one_to_six_kinds_score_one_each():
    """Different business kinds 1..6 -> 1..6 points."""
    kinds = ("casino", "transport", "film", "horse_racing", "real_estate", "nightclub")
    for held in range(1, 7):
        assert score.businesses(dict.fromkeys(kinds[:held], 1)) == held


def test_businesses_two_groups_of_4_identical_count_twice():
    """Per kind 4 identical -> +10, and every such group counts: 2 kinds + 10 + 10 = 22."""
    assert score.businesses({"casino": 4, "film": 4}) == 22


def test_businesses_three_identical_plus_5():
    """Per kind 3 identical -> +5: 1 kind + 5 = 6."""
    assert score.businesses({"nightclub": 3}) == 6


def test_businesses_none_score_zero():
    """No businesses, no points."""
    assert score.businesses({}) == 0


def test_checks_all_equal_nobody_scores():
    """Checks: all equal -> nobody scores."""
    assert score.checks([20000, 20000]) == [0, 0]


def test_checks_two_players_highest_and_lowest():
    """With two different sums, highest +5 and lowest -5."""
    assert score.checks([22000, 23000]) == [-5, 5]


def test_round_1_and_2_give_businesses_and_checks_zero():
    """Businesses and checks only count in round 3 (0 in rounds 1-2)."""
    families = [{"casino": 4, "film": 3}, {}]
    for round_no in (1, 2):
        rows = score.score_round(families, round_no, [[2000, 9000], [3000]])
        assert [row["businesses"] for row in rows] == [0, 0]
        assert [row["checks"] for row in rows] == [0, 0]


def test_score_round_3_every_category_and_total():
    """Round 3 adds businesses and checks; total is the sum of all seven categories."""
    felix = {"car": 1, "driver": 3, "bodyguard": 4, "ring": 2, "watch": 2, "necklace": 3}
    felix |= {"restaurant": 4, "casino": 3, "film": 1, "gold": 1, "thief": 2}
    rows = score.score_round([felix, {"bodyguard": 1}], 3, [[2000, 9000], [3000, 4000]])
    assert rows[0] == {
        "cars_drivers": 4,
        "jewelry": 5,
        "gold": 3,
        "thieves": 4,
        "bodyguards": 5,
        "businesses": 18,
        "checks": 5,
        "total": 44,
    }
    assert rows[1] == dict.fromkeys(score.CATEGORIES, 0) | {
        "jewelry": -5,
        "bodyguards": -2,
        "checks": -5,
        "total": -12,
    }


def test_score_round_missing_kinds_mean_zero():
    """Missing kinds mean 0: an empty family scores only the jewelry penalty."""
    rows = score.score_round([{}, {}], 1)
    assert rows == [dict.fromkeys(score.CATEGORIES, 0) | {"jewelry": -5, "total": -5}] * 2


def test_score_round_3_requires_checks():
    """In round 3 the checks every player holds are required."""
    with pytest.raises(ValueError, match="checks"):
        score.score_round([{}, {}], 3)


def test_score_round_rejects_unknown_round():
    """Razzia! has 3 rounds."""
    with pytest.raises(ValueError, match="rounds 1 to 3"):
        score.score_round([{}, {}], 4)


def test_categories_are_the_seven_sheet_keys():
    """The score-sheet contract names exactly these seven categories."""
    assert score.CATEGORIES == (
        "cars_drivers",
        "jewelry",
        "gold",
        "thieves",
        "bodyguards",
        "businesses",
        "checks",
    )


def test_ranks_ties_share_1_1_3():
    """Rank = 1 + players strictly better, so ties share a rank (1, 1, 3)."""
    assert score.ranks([10, 10, 4]) == [1, 1, 3]
    assert score.ranks([4, 10, 10, 7]) == [4, 1, 1, 3]
    assert score.ranks([-3, -3]) == [1, 1]
