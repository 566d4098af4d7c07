"""Klub's society chart: a board value at setup, tokens stepped on it (RULES.md §5 "Society")."""

import copy

import pytest

from scoring import prodigals_club as club
from scoring.errors import IllegalMove, InvalidSetup
from tests.scoring.prodigals_play import finish_round, play, setup, started

#: A test chart (not the printed one): 4 columns, bottom space first; column 4 has 5 spaces.
CHART = [[0, 2, 4, 6], [1, 3, 5, 7], [2, 4, 6, 8], [3, 5, 7, 9, 11]]


def charted(**changes) -> dict:
    """Ann, Bob, Cid in round 1 with all competitions and the chart; tokens on 2, 3, 4, 5."""
    return started(**{"society_chart": copy.deepcopy(CHART), **changes})


def token(seat: int, index: int, direction: str) -> dict:
    """One token of one player one space up or down."""
    return {"type": "token", "seat": seat, "token": index, "direction": direction}


def refusals(error: Exception) -> list[str]:
    """Every sentence of a refusal that names all its reasons at once."""
    return [str(error), *(str(other) for other in getattr(error, "others", []))]


def test_society_chart_each_starting_token_sits_on_the_lowest_space_of_its_column():
    state = charted(society_tokens=[2, 3, 4, 5])
    assert state["players"][0]["spaces"] == [[0, 1], [1, 1], [2, 1], [3, 1]]
    doubled = [[0, 2, 2, 6], *CHART[1:]]
    # A value twice in its column counts as the lower of the two spaces.
    assert charted(society_chart=doubled)["players"][0]["spaces"][0] == [0, 1]


def test_society_chart_refusals_are_named_all_at_once():
    with pytest.raises(InvalidSetup) as refused:
        club.new_table(setup(society_chart=[[0], [1, "x", 3], [2, 4, None], list(range(13))]))
    assert refusals(refused.value) == [
        "society_chart: column 1 needs 2 to 12 spaces, not 1.",
        "society_chart: column 2, space 2 from the bottom: enter the chart's value as a whole"
        " number.",
        "society_chart: column 3, space 3 from the bottom: enter the chart's value as a whole"
        " number.",
        "society_chart: column 4 needs 2 to 12 spaces, not 13.",
    ]
    with pytest.raises(InvalidSetup, match="chart's 4 columns"):
        club.new_table(setup(society_chart=[[0, 1]]))


def test_society_starting_tokens_must_be_spaces_of_their_own_columns():
    with pytest.raises(InvalidSetup) as refused:
        club.new_table(setup(society_chart=CHART, society_tokens=[1, 3, 4, 4]))
    assert refusals(refused.value) == [
        "society_tokens: token 1 starts on 1, which is not a space of column 1 of the chart.",
        "society_tokens: token 4 starts on 4, which is not a space of column 4 of the chart.",
    ]


def test_society_chart_is_optional_and_ignored_when_society_is_not_played():
    assert started()["players"][0]["spaces"] is None
    state = started(competitions=["property", "election"], society_chart=[[1, None], [2]])
    assert "society_chart" not in state["board"]


def test_society_token_step_up_and_down_follows_the_chart():
    state = play(charted(), token(1, 2, "up"))
    bob = state["players"][1]
    assert bob["spaces"][2] == [2, 2] and bob["tokens"] == [2, 3, 6, 5] and bob["society"] == 16
    assert state["changes"][1][-1]["before"] == 14 and state["changes"][1][-1]["after"] == 16
    state = play(state, token(1, 0, "down"))
    assert state["players"][1]["tokens"] == [0, 3, 6, 5]
    assert state["players"][1]["society"] == 14


def test_society_token_step_past_either_end_of_its_column_is_refused():
    state = play(charted(), token(0, 0, "down"))
    with pytest.raises(IllegalMove, match="bottom space of its column; it cannot move down"):
        club.apply(state, token(0, 0, "down"))
    state = play(state, token(0, 3, "up"), token(0, 3, "up"), token(0, 3, "up"))
    assert state["players"][0]["tokens"][3] == 11
    with pytest.raises(IllegalMove, match="Token 4 is already on the top space"):
        club.apply(state, token(0, 3, "up"))


def test_society_token_step_onto_another_token_is_refused():
    # Token 1 moved diagonally into column 2 (entered as values) sits under token 2.
    state = play(charted(), {"type": "society", "seat": 0, "tokens": [1, 3, 4, 5]})
    assert state["players"][0]["spaces"][0] == [1, 0]
    with pytest.raises(IllegalMove, match="token 1 is on that space"):
        club.apply(state, token(0, 1, "down"))


def test_society_token_step_score_stays_within_the_chart_range():
    state = play(charted(society_range=[-10, 15]), token(2, 3, "up"))
    assert state["players"][2]["tokens"] == [2, 3, 4, 7]
    assert state["players"][2]["society"] == 15
    assert state["notice"] == {"kind": "society_limited", "seat": 2, "wanted": 16, "score": 15}


def test_society_token_step_needs_a_chart_and_known_spaces():
    with pytest.raises(IllegalMove, match="No society chart was entered"):
        club.apply(started(), token(0, 0, "up"))
    summed = play(charted(), {"type": "society", "seat": 0, "sum": 20})
    assert summed["players"][0]["spaces"] is None
    with pytest.raises(IllegalMove, match="Only Ann's society sum is known"):
        club.apply(summed, token(0, 0, "up"))
    with pytest.raises(IllegalMove) as refused:
        club.apply(charted(), {**token(0, 7, "sideways")})
    assert len(refusals(refused.value)) == 2


def test_society_token_values_map_to_the_nearest_free_space():
    state = play(charted(), {"type": "society", "seat": 0, "tokens": [4, 3, 4, 9]})
    assert state["players"][0]["spaces"] == [[0, 2], [1, 1], [2, 1], [3, 3]]
    with pytest.raises(IllegalMove, match="token 2 cannot be on 10"):
        club.apply(state, {"type": "society", "seat": 0, "tokens": [4, 10, 4, 9]})
    # After a sum only, the values are placed from each token's column bottom again.
    state = play(state, {"type": "society", "seat": 0, "sum": 12}, token(1, 1, "up"))
    state = play(state, {"type": "society", "seat": 0, "tokens": [2, 3, 4, 3]})
    assert state["players"][0]["spaces"] == [[0, 1], [1, 1], [2, 1], [3, 0]]


def test_society_handicap_moves_the_right_column_token_up_with_a_chart():
    """RULES.md §5 seed example: 4 players, election + society: 1st and 2nd get society up 1."""
    state = club.new_table(
        setup(
            ["Ann", "Bob", "Cid", "Dan"],
            ["election", "society"],
            order=[0, 1, 2, 3],
            society_chart=CHART,
        )
    )
    societies = [player["society"] for player in state["players"]]
    assert societies == [16, 16, 14, 14]
    assert state["players"][0]["tokens"] == [2, 3, 4, 7]
    assert state["players"][0]["spaces"][3] == [3, 2]
    # Without a chart the table moves the token and enters the values (nothing invented).
    plain = club.new_table(
        setup(["Ann", "Bob", "Cid", "Dan"], ["election", "society"], order=[0, 1, 2, 3])
    )
    assert [player["society"] for player in plain["players"]] == [14] * 4


def test_society_steps_replay_to_the_same_state_and_old_states_still_load():
    moves = [token(0, 1, "up"), {"type": "society", "seat": 1, "tokens": [4, 5, 6, 7]}]
    moves += [token(1, 3, "down"), {"type": "votes", "seat": 2, "delta": -1}]
    live = charted()
    for move in moves:
        live = club.apply(live, move)
    live = finish_round(live)
    assert live["phase"] == "round_end"
    replayed = charted()
    for move in [*moves, {"type": "end_actions"}]:
        replayed = club.apply(replayed, move)
    replayed = club.apply(replayed, {"type": "hyde_park", "megaphones": [0, 0, 0]})
    replayed = club.apply(replayed, {"type": "old_lady", "exempt": []})
    assert replayed == live
    # A table stored before the chart existed: no "spaces", no chart; society still works.
    old = started()
    for player in old["players"]:
        del player["spaces"]
    old = club.apply(old, {"type": "society", "seat": 0, "tokens": [1, 1, 1, 1]})
    assert old["players"][0]["society"] == 4
    with pytest.raises(IllegalMove, match="No society chart"):
        club.apply(old, token(0, 0, "up"))


def test_society_token_steps_are_offered_as_legal_moves_only_where_they_fit():
    state = play(charted(), token(0, 0, "down"))
    offered = [move for move in club.legal_moves(state) if move["type"] == "token"]
    assert token(0, 0, "up") in offered and token(0, 0, "down") not in offered
    for move in offered:
        club.apply(state, move)
    assert not [move for move in club.legal_moves(started()) if move["type"] == "token"]
