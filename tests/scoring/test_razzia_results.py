"""Razzia! final results (docs/game-contract.md "Final results"; RULES.md §1 "Scoring")."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import razzia
from scoring.razzia.score import CATEGORIES
from tests.scoring.razzia_play import dealt_table
from tests.scoring.razzia_random import random_move
from tests.web import game_script as g


def _move(step: tuple) -> dict:
    """A scripted step as a rules move."""
    form = g.as_form(step)
    if form["type"] == "bid":
        form["check"] = int(form["check"])
    return form


def scripted_game(rounds: int = 3) -> dict:
    """The hand-scored 4-player game of tests/web/game_script.py, played for `rounds` rounds."""
    state = dealt_table(g.PLAYERS, "".join(g.SETS))
    for number, (steps, _scores, _totals) in enumerate(g.ROUNDS[:rounds], start=1):
        for step in steps:
            state = razzia.apply(state, _move(step))
        if number < 3 and number < rounds:
            state = razzia.apply(state, {"type": "next_round"})
    return state


def test_scoring_final_results_of_the_worked_game():
    """Scoring: after round 3 the totals 6, -4, -9, -10 rank Ann, Bob, Cid, Dee 1 to 4."""
    final = razzia.results(scripted_game())
    assert final["finished"] is True
    assert final["highest_wins"] is True
    assert [p["score"] for p in final["players"]] == g.FINAL_TOTALS
    assert [p["rank"] for p in final["players"]] == g.FINAL_RANKS
    assert [p["winner"] for p in final["players"]] == [True, False, False, False]
    assert [p["name"] for p in final["players"]] == g.PLAYERS
    assert [p["seat"] for p in final["players"]] == [0, 1, 2, 3]
    assert final["categories"] == list(CATEGORIES)


def test_scoring_breakdown_sums_each_category_over_the_rounds():
    """Scoring every round: a player's game breakdown is the sum of the three round rows."""
    final = razzia.results(scripted_game())
    for seat, player in enumerate(final["players"]):
        for key in CATEGORIES:
            expected = sum(scores[seat][key] for _steps, scores, _totals in g.ROUNDS)
            assert player["breakdown"][key] == expected, (seat, key)
        assert sum(player["breakdown"].values()) == player["score"]


def test_scoring_rounds_carry_breakdown_and_running_totals():
    """Scoring: each round lists its categories per seat and the totals after it."""
    final = razzia.results(scripted_game())
    assert [r["round"] for r in final["rounds"]] == [1, 2, 3]
    assert [r["cumulative"] for r in final["rounds"]] == [t for _s, _sc, t in g.ROUNDS]
    first = final["rounds"][0]["breakdown"]
    assert first == [{k: v for k, v in row.items() if k != "total"} for row in g.ROUND_1_SCORES]


def test_checks_start_player_holds_the_highest_check():
    """Checks: the highest check starts round 1; Ann was dealt set A (13,000) in the script."""
    final = razzia.results(scripted_game())
    assert [p["start_player"] for p in final["players"]] == [True, False, False, False]


def test_checks_start_player_follows_the_deal_not_the_later_rounds():
    """Checks: Bob starts round 3 in the script, yet the start player is round 1's (Ann)."""
    state = scripted_game(rounds=2)
    state = razzia.apply(state, {"type": "next_round"})
    assert state["turn"] == g.BOB
    assert razzia.results(state)["players"][g.ANN]["start_player"] is True


def test_checks_start_player_with_other_deals():
    """Checks: with sets B, C, D, A Denis holds 13,000 and started."""
    state = dealt_table(["Miriam", "Felix", "Elke", "Denis"], "BCDA")
    starters = [p["start_player"] for p in razzia.results(state)["players"]]
    assert starters == [False, False, False, True]
    assert state["turn"] == 3


def test_unfinished_game_is_not_finished_and_has_no_winner():
    """Final results: before round 3 ends the results say so and name no winner."""
    final = razzia.results(scripted_game(rounds=2))
    assert final["finished"] is False
    assert not any(p["winner"] for p in final["players"])
    assert [r["round"] for r in final["rounds"]] == [1, 2]


def test_before_the_deal_nobody_started():
    """Checks: before the sets are dealt there is no start player and no round."""
    final = razzia.results(razzia.new_table({"players": ["Ann", "Bob"]}))
    assert [p["start_player"] for p in final["players"]] == [False, False]
    assert final["rounds"] == []
    assert [p["score"] for p in final["players"]] == [0, 0]


def test_scoring_ties_share_a_place():
    """Scoring: equal totals share the rank (1 + the number strictly better)."""
    state = scripted_game()
    tied = {**state, "totals": [5, 5, 1, 5], "ranks": [1, 1, 4, 1]}
    final = razzia.results(tied)
    assert [p["rank"] for p in final["players"]] == [1, 1, 4, 1]
    assert [p["winner"] for p in final["players"]] == [True, True, False, True]


def test_results_do_not_change_the_state():
    """The contract: results(state) only reads the state."""
    state = scripted_game()
    before = repr(state)
    razzia.results(state)
    assert repr(state) == before


@settings(max_examples=40)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), count=st.integers(2, 5))
def test_random_games_results_agree_with_the_state(seed, count):
    """Random legal games: results match totals and ranks; the last cumulative is the score."""
    rng = random.Random(seed)
    state = razzia.new_table({"players": [f"P{i}" for i in range(count)]})
    while state["phase"] != "game_over":
        state = razzia.apply(state, random_move(state, rng))
    final = razzia.results(state)
    assert [p["score"] for p in final["players"]] == state["totals"]
    assert [p["rank"] for p in final["players"]] == state["ranks"]
    assert final["rounds"][-1]["cumulative"] == state["totals"]
    assert sum(p["start_player"] for p in final["players"]) == 1
    assert any(p["winner"] for p in final["players"])
