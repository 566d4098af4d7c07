"""Property tests: random final scores rank correctly, random legal games keep the rules."""

import copy
import functools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import prodigals_club as club
from scoring.errors import IllegalMove
from scoring.prodigals_club.board import MAX_VOTES, ROUNDS
from scoring.prodigals_club.scores import all_scores
from scoring.sheets import score_sheet
from tests.game_counts import games
from tests.scoring.prodigals_play import ALL, setup
from tests.scoring.prodigals_random import CHART, random_junk_move, random_move

GAMES = games(full=300, quick=100)
MAX_STEPS = 400
JUNK_EVERY = 5

score = st.integers(min_value=-15, max_value=50)
#: Every legal set of competitions, Legacy (Dědictví) in property's place included.
COMPETITION_SETS = [
    ["property", "election"],
    ["property", "society"],
    ["election", "society"],
    ALL,
    ["legacy", "election"],
    ["legacy", "society"],
    ["legacy", "election", "society"],
]
competition_sets = st.sampled_from(COMPETITION_SETS)


@st.composite
def final_sheets(draw):
    """A final-standings sheet with random scores (many ties on purpose: small ranges)."""
    playing = draw(competition_sets)
    count = draw(st.integers(min_value=2, max_value=5))
    small = st.integers(min_value=0, max_value=4)
    players = []
    for index in range(count):
        player = {"name": f"P{index}"}
        for name in playing:
            if name == "property":
                tiles = draw(st.lists(st.integers(min_value=0, max_value=3), max_size=2))
                player[name] = {"cash": draw(small), "tiles": tiles}
            elif name == "legacy":
                owned = draw(st.lists(st.integers(min_value=0, max_value=3), max_size=2))
                player[name] = {"cash": draw(st.integers(-2, 4)), "properties": owned}
            else:
                player[name] = draw(small)
        players.append(player)
    return {"game": "prodigals_club", "kind": "final", "competitions": playing, "players": players}


def better(a: list[int], b: list[int]) -> int:
    """Brute force, as the rulebook says: highest, then second, then third; lower wins."""
    for place in range(len(a)):
        x, y = sorted(a, reverse=True)[place], sorted(b, reverse=True)[place]
        if x != y:
            return -1 if x < y else 1
    return 0


@settings(max_examples=300)
@given(final_sheets())
def test_the_winner_always_has_the_minimal_final_score(sheet):
    result = score_sheet(sheet)
    lowest = min(player["final"] for player in result["players"])
    winners = [p for p in result["players"] if p["name"] in result["winners"]]
    assert winners and all(player["final"] == lowest for player in winners)
    assert all(p["final"] == max(p["scores"].values()) for p in result["players"])


@settings(max_examples=300)
@given(final_sheets(), st.randoms(use_true_random=False))
def test_ranks_do_not_depend_on_input_order(sheet, rng):
    ranks = {p["name"]: p["rank"] for p in score_sheet(sheet)["players"]}
    shuffled = copy.deepcopy(sheet)
    rng.shuffle(shuffled["players"])
    assert {p["name"]: p["rank"] for p in score_sheet(shuffled)["players"]} == ranks


@settings(max_examples=300)
@given(final_sheets())
def test_tie_break_chain_agrees_with_brute_force_comparison(sheet):
    players = score_sheet(sheet)["players"]
    scores = {p["name"]: list(p["scores"].values()) for p in players}
    for player in players:
        strictly_better = sum(
            1 for other in players if better(scores[other["name"]], scores[player["name"]]) < 0
        )
        assert player["rank"] == 1 + strictly_better
    ordered = sorted(
        players, key=functools.cmp_to_key(lambda a, b: better(scores[a["name"]], scores[b["name"]]))
    )
    assert [p["rank"] for p in ordered] == sorted(p["rank"] for p in players)


def assert_invariants(state: dict) -> None:
    """Votes never above 44, cash never below 0 while owning property, rounds 1..5.

    With Legacy: the score is always cash + market values, ids stay unique, and nobody
    ever got a handicap (RULES.md §5 "Legacy combination").
    """
    for seat, player in enumerate(state["players"]):
        if player.get("legacy") is not None:
            track = player["legacy"]
            owned = track["properties"]
            assert len({item["id"] for item in owned}) == len(owned)
            assert all(item["id"] < track["next"] and item["value"] >= 0 for item in owned)
            expected = track["cash"] + sum(item["value"] for item in owned)
            assert all_scores(state, game_end=True)[seat]["legacy"] == expected
            assert state["handicaps"] is None or not any(state["handicaps"][seat].values())
        if player["votes"] is not None:
            assert player["votes"] <= MAX_VOTES
        if player["cash"] is not None and player["tiles"]:
            assert player["cash"] >= 0
        if player.get("spaces"):
            _assert_on_the_chart(state, player)
    assert 1 <= state["round"] <= ROUNDS
    display = club.device_display(state)
    assert display["police"] < display["limit"]


def _assert_on_the_chart(state: dict, player: dict) -> None:
    """Tokens on distinct spaces of the chart; the score is their values within the range."""
    board, spaces = state["board"]["society_chart"], player["spaces"]
    assert len({tuple(space) for space in spaces}) == len(spaces)
    assert all(0 <= row < len(board[column]) for column, row in spaces)
    assert player["tokens"] == [board[column][row] for column, row in spaces]
    low, high = state["board"]["society_range"]
    assert player["society"] == min(max(sum(player["tokens"]), low), high)


def play_random_game(seed: int) -> dict:
    """A random legal game; every move is accepted, junk refused without a change."""
    rng = random.Random(seed)
    count = rng.randint(2, 5)
    playing = rng.choice(COMPETITION_SETS)
    # Some tables enter the society chart (a board value), so tokens are stepped on it.
    changes = {"society_chart": CHART} if rng.random() < 0.4 else {}
    state = club.new_table(setup([f"P{i}" for i in range(count)], playing, **changes))
    log = []
    for step in range(MAX_STEPS):
        if state["phase"] == "game_over":
            break
        if step % JUNK_EVERY == 0:
            before = copy.deepcopy(state)
            try:
                club.apply(state, random_junk_move(state, rng))
            except IllegalMove:
                pass
            else:
                raise AssertionError("a junk move was accepted")
            assert state == before
        move = club.complete_move(state, random_move(state, rng), rng)
        frozen = copy.deepcopy(state)
        state = club.apply(frozen, move)
        assert frozen == copy.deepcopy(frozen)
        assert_invariants(state)
        log.append(move)
    first = club.new_table(setup([f"P{i}" for i in range(count)], playing, **changes))
    assert replayed(first, log) == state
    return state


def replayed(state: dict, moves: list[dict]) -> dict:
    """The moves applied again from the first state (the move log is the full history)."""
    for move in moves:
        state = club.apply(state, move)
    return state


@given(st.integers(min_value=0, max_value=2**32))
@settings(max_examples=GAMES)
def test_random_legal_games_keep_the_rules_and_end_correctly(seed):
    state = play_random_game(seed)
    if state["phase"] != "game_over":
        return
    # RULES.md §5: the check counts each tile still owned with its £3 penalty.
    checked = [v for scores in all_scores(state, game_end=True) for v in scores.values()]
    assert state["end_reason"] == ("zero" if min(checked) <= 0 else "rounds")
    assert state["round"] == ROUNDS or state["end_reason"] == "zero"
    # No earlier round end had a score at 0 or below (property is kept without the penalty
    # there, so a £0 tile with £0 cash shows 0 and did not end the game).
    for entry in state["rounds"][:-1]:
        for scores in entry["scores"]:
            assert all(value > 0 for name, value in scores.items() if name != "property")
            assert scores.get("property", 1) >= 0
    result = club.results(state)
    assert result["finished"] and [p["rank"] for p in result["players"]] == state["ranks"]
    winners = [p for p in result["players"] if p["winner"]]
    assert winners and all(
        p["score"] == min(q["score"] for q in result["players"]) for p in winners
    )
