"""The league's pure rules: points per placing and per share beaten, standings and their ties.

Issue 26 item 5: "a season is a set of evenings with a points rule chosen by the organiser
(points per placing, or per share of players beaten), standings ... with ties explained".
A game's ranks are its results' ranks (docs/game-contract.md: 1 + the players strictly
better, ties share), e.g. RULES.md §2 For Sale "still tied -> shared win".
"""

from fractions import Fraction

import pytest

from scoring.league.points import InvalidRule, check_rule, game_points
from scoring.league.standings import PER_GAME, SHARED, WINS, Placing, standings

PLACING = {"kind": "placing", "points": [10, 6, 4, 2, 1]}
BEATEN = {"kind": "beaten", "points": 12}


def test_placing_points_follow_the_list_and_later_places_score_nothing():
    assert game_points({"kind": "placing", "points": [5, 3]}, [1, 2, 3, 4]) == [5, 3, 0, 0]


def test_tied_players_share_the_points_of_the_places_they_cover():
    # two tied firsts cover places 1 and 2: (10 + 6) / 2 = 8 each; the third gets place 3's 4
    assert game_points(PLACING, [1, 1, 3]) == [8, 8, 4]
    # three tied seconds of four cover places 2, 3 and 4: (6 + 4 + 2) / 3 = 4
    assert game_points(PLACING, [1, 2, 2, 2]) == [10, 4, 4, 4]


def test_beaten_share_counts_a_tied_player_as_half_beaten():
    assert game_points(BEATEN, [1, 2, 3, 4]) == [12, 8, 4, 0]
    # two tied seconds of four: (1 beaten + 0.5) / 3 of 12 = 6 each
    assert game_points(BEATEN, [1, 2, 2, 4]) == [12, 6, 6, 0]
    assert game_points(BEATEN, [1, 1]) == [6, 6]


def test_points_are_exact_fractions():
    points = game_points(BEATEN, [1, 2, 2])  # 2 players beaten of 2, then 0.5 of 2
    assert points == [12, 3, 3]
    thirds = game_points({"kind": "beaten", "points": 10}, [1, 2, 3, 4])
    assert thirds[1] == Fraction(20, 3)


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ({"kind": "elo"}, "per placing or per share"),
        ({"kind": "placing", "points": []}, "1 to 9 places"),
        ({"kind": "placing", "points": [3, 5]}, "Place 2 cannot score more than place 1"),
        ({"kind": "placing", "points": [0, 0]}, "first place must score"),
        ({"kind": "placing", "points": [10, "6"]}, "whole numbers from 0"),
        ({"kind": "placing", "points": [10, True]}, "whole numbers from 0"),
        ({"kind": "beaten", "points": 0}, "whole numbers from 1"),
        ({"kind": "beaten", "points": 10**6}, "to 1000"),
    ],
)
def test_an_unusable_rule_is_refused_with_the_reason(rule, words):
    with pytest.raises(InvalidRule) as refused:
        check_rule(rule)
    assert words in str(refused.value)


def _games(*games):
    return [[Placing(person, rank) for person, rank in game] for game in games]


def test_standings_order_points_then_wins_then_points_per_game_and_explain_each_tie():
    rule = {"kind": "placing", "points": [3, 1]}
    rows = standings(
        rule,
        _games(
            [("Ann", 1), ("Bob", 2)],  # Ann 3, Bob 1
            [("Bob", 1), ("Cid", 2)],  # Bob 3, Cid 1
            [("Cid", 1), ("Dee", 2)],  # Cid 3, Dee 1
            [("Dee", 2), ("Eve", 1)],  # Dee 1, Eve 3
            [("Dee", 2), ("Fay", 1)],  # Dee 1, Fay 3
            [("Dee", 2), ("Gus", 1)],  # Dee 1 (4 from four games, no win), Gus 3
        ),
    )
    table = {row.person: row for row in rows}
    assert [(row.person, row.points) for row in rows] == [
        ("Bob", 4),
        ("Cid", 4),
        ("Dee", 4),
        ("Ann", 3),
        ("Eve", 3),
        ("Fay", 3),
        ("Gus", 3),
    ]
    # Bob, Cid and Dee: 4 points each. Bob and Cid won once in two games, Dee never in four:
    # wins put Dee third of them; Bob and Cid are level on points, wins and points per game.
    assert table["Bob"].place == table["Cid"].place == 1
    assert table["Bob"].shared and table["Cid"].shared
    assert table["Bob"].decided_by == table["Cid"].decided_by == SHARED
    assert table["Dee"].place == 3 and not table["Dee"].shared
    assert table["Dee"].decided_by == WINS
    assert table["Dee"].level_with == ["Bob", "Cid"]
    # Ann, Eve, Fay and Gus: 3 points from one game and one win each: a shared fourth place.
    assert {table[name].place for name in ("Ann", "Eve", "Fay", "Gus")} == {4}
    assert table["Gus"].level_with == ["Ann", "Eve", "Fay"]


def test_points_per_game_breaks_a_tie_of_points_and_wins():
    rule = {"kind": "placing", "points": [4, 2, 0]}
    rows = standings(
        rule,
        _games(
            [("Ann", 2), ("Gus", 3), ("Cid", 1)],  # Ann 2
            [("Ann", 2), ("Gus", 3), ("Cid", 1)],  # Ann 4 from two games
            [("Bob", 2), ("Dee", 1), ("Eve", 3)],  # Bob 2, Eve 0
            [("Bob", 2), ("Dee", 1), ("Eve", 3)],  # Bob 4 from two games, Eve 0
            [("Eve", 2), ("Dee", 1), ("Fay", 3)],  # Eve 2
            [("Eve", 2), ("Dee", 1), ("Fay", 3)],  # Eve 4 from four games
        ),
    )
    table = {row.person: row for row in rows}
    assert table["Ann"].points == table["Bob"].points == table["Eve"].points == 4
    assert table["Ann"].wins == table["Bob"].wins == table["Eve"].wins == 0
    assert table["Ann"].per_game == 2 and table["Eve"].per_game == 1
    assert table["Ann"].place == table["Bob"].place  # 2 games, 2 points per game each
    assert table["Eve"].place == table["Ann"].place + 2
    assert table["Eve"].decided_by == PER_GAME
    assert table["Ann"].decided_by == SHARED
