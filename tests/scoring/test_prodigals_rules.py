"""Klub ztroskotanců live-table rules (RULES.md §5), one test per rule, seed examples included."""

import copy
import random

import pytest

from scoring import prodigals_club as club
from scoring.errors import IllegalMove, InvalidSetup
from scoring.prodigals_club.rounds import next_order
from tests.scoring.prodigals_play import ALL, HYDE_PARK, board, finish_round, play, setup, started


def tiles(seat, *pairs):
    """A property move adding (value, district) tiles."""
    listed = [{"value": value, "district": district} for value, district in pairs]
    return {"type": "property", "seat": seat, "action": "add", "tiles": listed}


def prop(seat, action, **fields):
    """A property move."""
    return {"type": "property", "seat": seat, "action": action, **fields}


def refused(state, move, fragment):
    """The move is refused with a message containing `fragment` and the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove, match=fragment):
        club.apply(state, move)
    assert state == before


# --- setup (RULES.md §5 "Handicaps at setup"; board values) ---


def test_new_table_waits_for_the_turn_order_and_uses_the_entered_board_values():
    state = club.new_table(setup())
    assert state["phase"] == "order"
    assert [p["cash"] for p in state["players"]] == [10, 10, 10]
    assert [p["votes"] for p in state["players"]] == [30, 30, 30]
    assert [p["society"] for p in state["players"]] == [14, 14, 14]
    assert club.live_standings(state) == []


def test_turn_order_by_lot_is_recorded_in_the_move_so_replay_does_not_redraw():
    state = club.new_table(setup())
    move = club.complete_move(state, {"type": "order"}, random.Random(7))
    assert sorted(move["order"]) == [0, 1, 2]
    assert club.apply(state, move) == club.apply(state, move)
    assert club.apply(state, move)["order"] == move["order"]


def test_handicaps_follow_the_turn_order_and_change_money_and_votes():
    # RULES.md §5: last 0, second-to-last 1, ...; cycling +£1, +1 vote, society up.
    state = play(club.new_table(setup()), {"type": "order", "order": [2, 0, 1]})
    assert state["handicaps"][2] == {"money": 1, "votes": 1, "society": 0}
    assert state["handicaps"][0] == {"money": 1, "votes": 0, "society": 0}
    assert state["handicaps"][1] == {"money": 0, "votes": 0, "society": 0}
    assert [p["cash"] for p in state["players"]] == [11, 10, 11]
    assert [p["votes"] for p in state["players"]] == [30, 30, 31]
    assert state["phase"] == "play"


def test_seed_handicap_example_four_players_election_and_society():
    # RULES.md §5 seed example: first 2 votes + society up 1, second 1 vote + society 1,
    # third 1 vote, fourth nothing.
    names = ["A", "B", "C", "D"]
    state = club.new_table(setup(names, ["election", "society"], order=[0, 1, 2, 3]))
    assert state["handicaps"] == [
        {"money": 0, "votes": 2, "society": 1},
        {"money": 0, "votes": 1, "society": 1},
        {"money": 0, "votes": 1, "society": 0},
        {"money": 0, "votes": 0, "society": 0},
    ]
    assert [p["votes"] for p in state["players"]] == [32, 31, 31, 30]
    assert all(p["cash"] is None for p in state["players"])


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"players": ["Ann"]}, "2 to 5 players"),
        ({"players": ["A", "B", "C", "D", "E", "F"]}, "2 to 5 players"),
        ({"players": ["Ann", "ann"]}, "same name"),
        ({"players": ["Ann", " "]}, "needs a name"),
        ({"competitions": ["property"]}, "two or three"),
        ({"competitions": ["property", "property"]}, "two or three"),
        ({"competitions": ["property", "chess"]}, "two or three"),
        ({"board": board(money="ten")}, "money"),
        ({"board": board(votes=45)}, "44"),
        ({"board": board(district=5)}, "district"),
        ({"board": board(hyde_park=[[1, 2, 3]])}, "hyde_park"),
        ({"board": board(society_tokens=[1, 2, 3])}, "society_tokens"),
        ({"board": board(society_range=[5, 1])}, "society_range"),
        ({"order": [0, 0, 1]}, "order"),
    ],
)
def test_bad_setups_are_refused_with_the_field_named(changes, fragment):
    with pytest.raises(InvalidSetup, match=fragment):
        club.new_table({**setup(), **changes})


def test_board_values_of_competitions_not_in_play_are_not_needed():
    values = {"messengers": 3, "votes": 20, "hyde_park": HYDE_PARK, "society_tokens": [1, 1, 1, 1]}
    state = club.new_table(
        {"players": ["A", "B"], "competitions": ["election", "society"], "board": values}
    )
    assert state["district"] is None and state["board"]["society_range"] is None


# --- property (RULES.md §5 "Property") ---


def test_selling_pays_face_value_less_the_district_marker_and_card_discounts():
    state = play(started(), tiles(0, (5, 1), (4, 2), (2, 1)))
    assert state["district"] == 1
    state = play(state, prop(0, "sell", tile={"value": 5, "district": 1}))
    assert state["players"][0]["cash"] == 11 + 4  # marker on district 1: £1 less
    state = play(state, prop(0, "sell", tile={"value": 4, "district": 2}, discount=1))
    assert state["players"][0]["cash"] == 15 + 3
    state = play(state, prop(0, "sell", tile={"value": 2, "district": 1}, discount=3))
    assert state["players"][0]["cash"] == 18  # never below 0
    assert state["players"][0]["tiles"] == []


def test_selling_a_tile_the_player_does_not_own_is_refused():
    state = play(started(), tiles(0, (5, 1)))
    refused(
        state, prop(0, "sell", tile={"value": 5, "district": 2}), "owns no £5 tile of district 2"
    )
    refused(state, prop(1, "sell", tile={"value": 5, "district": 1}), "Bob owns no")


def test_seed_exchange_example_the_bank_pays_what_exceeds_the_limit():
    # Seed: limit −3, exchange a 6 for a 1: the difference −5 exceeds the limit by 2 → take £2.
    state = play(started(), tiles(1, (6, 3)))
    move = prop(
        1, "exchange", give={"value": 6, "district": 3}, take={"value": 1, "district": 2}, limit=-3
    )
    state = play(state, move)
    assert state["players"][1]["cash"] == 11 + 2
    assert state["players"][1]["tiles"] == [{"value": 1, "district": 2}]
    assert state["notice"] == {"kind": "exchange_excess", "seat": 1, "paid": 2}


def test_exchange_within_the_limit_or_without_one_pays_nothing_and_ignores_the_marker():
    state = play(started(), tiles(1, (6, 1), (4, 1)))
    state = play(
        state,
        prop(
            1,
            "exchange",
            give={"value": 6, "district": 1},
            take={"value": 4, "district": 1},
            limit=-2,
        ),
    )
    state = play(
        state,
        prop(1, "exchange", give={"value": 4, "district": 1}, take={"value": 1, "district": 1}),
    )
    assert state["players"][1]["cash"] == 11 and state["notice"] is None


def test_spending_more_than_you_have_spends_what_you_have_while_owning_property():
    state = play(started(), tiles(2, (3, 2)), prop(2, "spend", amount=25))
    assert state["players"][2]["cash"] == 0
    assert state["notice"] == {"kind": "spent_all", "seat": 2, "spent": 10, "asked": 25}


def test_without_property_spending_can_go_into_debt():
    state = play(started(), prop(2, "spend", amount=25))
    assert state["players"][2]["cash"] == -15


def test_cash_cannot_be_set_below_zero_while_owning_property():
    state = play(started(), tiles(0, (3, 2)))
    refused(state, prop(0, "set_cash", cash=-2), "cannot go below £0")
    assert play(started(), prop(0, "set_cash", cash=-2))["players"][0]["cash"] == -2


@pytest.mark.parametrize(
    ("move", "fragment"),
    [
        (prop(0, "spend", amount="5"), "amount"),
        (prop(0, "spend", amount=0), "amount"),
        (prop(0, "receive", amount=-1), "amount"),
        (prop(0, "set_cash", cash="x"), "cash"),
        (prop(0, "sell", tile={"value": "4", "district": 1}), "tile"),
        (prop(0, "sell", tile={"value": 4, "district": 9}), "district from 1 to 4"),
        (prop(0, "add", tiles=[]), "tiles"),
        (prop(0, "steal"), "unknown property entry"),
        (prop(7, "spend", amount=1), "seat"),
        (
            prop(
                0,
                "exchange",
                give={"value": 4, "district": 1},
                take={"value": 1, "district": 1},
                limit="x",
            ),
            "limit",
        ),
    ],
)
def test_bad_property_entries_are_refused_and_change_nothing(move, fragment):
    refused(play(started(), tiles(0, (4, 1))), move, fragment)


def test_the_district_marker_turns_one_step_at_each_round_end():
    state = started()
    seen = [state["district"]]
    for _ in range(4):
        state = play(finish_round(state, megaphones=[1, 2, 3]), {"type": "end_round"})
        seen.append(state["district"])
    assert seen == [1, 2, 3, 4, 1]


# --- election (RULES.md §5 "Election") ---


def test_votes_may_go_below_zero():
    state = play(started(), {"type": "votes", "seat": 2, "delta": -33})
    assert state["players"][2]["votes"] == -3


def test_votes_above_44_are_capped_with_a_notice():
    state = play(started(), {"type": "votes", "seat": 0, "delta": 20})
    assert state["players"][0]["votes"] == 44
    assert state["notice"] == {"kind": "votes_capped", "seat": 0, "wanted": 51}
    state = play(state, {"type": "votes", "seat": 0, "delta": -1})
    assert state["notice"] is None


@pytest.mark.parametrize("delta", ["3", 0, 1.5, None, True])
def test_a_vote_change_must_be_a_whole_number(delta):
    refused(started(), {"type": "votes", "seat": 0, "delta": delta}, "delta")


def test_a_competition_not_in_play_cannot_be_entered():
    state = started(competitions=["election", "society"])
    refused(state, prop(0, "spend", amount=1), "property competition is not in play")


# --- Hyde Park (RULES.md §5 "Hyde Park") ---


def test_seed_hyde_park_example_1_everybody_on_two_megaphones_gains_one():
    state = started(["R", "Y", "B", "G"])
    before = [p["votes"] for p in state["players"]]
    state = finish_round(state, megaphones=[2, 2, 2, 2])
    assert [p["votes"] for p in state["players"]] == [votes + 1 for votes in before]
    assert state["rounds"][0]["megaphones"]["changes"] == [1, 1, 1, 1]


def test_seed_hyde_park_example_2_round_four():
    # Seed: round 4, red and yellow 4, blue 3, green 1 → −4, −4, −1 (third), +1.
    state = started(["R", "Y", "B", "G"], competitions=["election", "society"])
    for _ in range(3):
        state = play(finish_round(state, megaphones=[0, 0, 0, 0]), {"type": "end_round"})
    assert state["round"] == 4
    before = [p["votes"] for p in state["players"]]
    assert club.actions(play(state, {"type": "end_actions"}))["hyde_park"] == [4, 2, 1]
    state = finish_round(state, megaphones=[4, 4, 3, 1])
    after = [p["votes"] for p in state["players"]]
    assert [a - b for a, b in zip(after, before, strict=True)] == [-4, -4, -1, 1]


def test_hyde_park_before_all_megaphones_are_entered_is_refused():
    state = play(started(), {"type": "end_actions"})
    for megaphones in ([1, 2], [1, None, 2], [1, "2", 3], [1, -1, 2], None):
        refused(state, {"type": "hyde_park", "megaphones": megaphones}, "every player's megaphones")


def test_hyde_park_gains_are_capped_at_44():
    state = play(started(), {"type": "votes", "seat": 0, "delta": 13})
    state = finish_round(state, megaphones=[0, 1, 1])
    assert state["players"][0]["votes"] == 44


# --- society and the Old Lady (RULES.md §5 "Society") ---


def test_society_tokens_or_their_sum_set_the_score_and_changes_are_kept():
    state = play(started(), {"type": "society", "seat": 1, "tokens": [1, 2, 3, -1]})
    assert state["players"][1]["society"] == 5
    state = play(state, {"type": "society", "seat": 1, "sum": 3})
    assert state["players"][1]["society"] == 3 and state["players"][1]["tokens"] is None
    assert [(c["before"], c["after"]) for c in state["changes"][1]] == [(14, 5), (5, 3)]


def test_society_score_is_limited_to_the_chart_range():
    state = play(started(), {"type": "society", "seat": 0, "sum": -20})
    assert state["players"][0]["society"] == -10
    assert state["notice"]["kind"] == "society_limited"


@pytest.mark.parametrize(
    "fields", [{"tokens": [1, 2, 3]}, {"tokens": [1, 2, "x", 4]}, {"sum": "x"}, {}]
)
def test_bad_society_entries_are_refused(fields):
    refused(started(), {"type": "society", "seat": 0, **fields}, "tokens|sum")


def test_old_lady_comes_after_hyde_park_allows_society_entries_and_records_exempt_players():
    state = play(started(), {"type": "end_actions"}, {"type": "hyde_park", "megaphones": [1, 2, 3]})
    assert state["phase"] == "old_lady"
    refused(state, {"type": "votes", "seat": 0, "delta": -1}, "not possible at this step")
    state = play(
        state, {"type": "society", "seat": 0, "sum": 15}, {"type": "old_lady", "exempt": [2]}
    )
    assert state["phase"] == "round_end" and state["rounds"][0]["exempt"] == [2]


def test_old_lady_exempt_must_name_each_player_once():
    state = play(started(), {"type": "end_actions"}, {"type": "hyde_park", "megaphones": [1, 2, 3]})
    refused(state, {"type": "old_lady", "exempt": [1, 1]}, "exempt")
    refused(state, {"type": "old_lady", "exempt": [5]}, "exempt")


def test_without_election_the_round_goes_straight_to_the_old_lady():
    state = play(started(competitions=["property", "society"]), {"type": "end_actions"})
    assert state["phase"] == "old_lady"


def test_without_society_hyde_park_ends_the_round():
    state = play(started(competitions=["property", "election"]), {"type": "end_actions"})
    state = play(state, {"type": "hyde_park", "megaphones": [1, 2, 3]})
    assert state["phase"] == "round_end"


# --- turn order (seed "Označení pořadí na tahu") ---


def test_seed_reservation_example_unreserved_players_keep_their_relative_order():
    # Seed: red and blue get the places they reserved, yellow and green fill the rest,
    # yellow still before green. Here: order R, Y, B, G; R reserves 3, B reserves 1.
    assert next_order([0, 1, 2, 3], [2, None, 0, None]) == [2, 1, 0, 3]


def test_reservations_decide_the_next_round_order():
    state = play(started(), {"type": "reserve", "seat": 2, "place": 1})
    refused(state, {"type": "reserve", "seat": 0, "place": 1}, "already reserved by Cid")
    refused(state, {"type": "reserve", "seat": 2, "place": 2}, "Cid has already reserved place 1")
    refused(state, {"type": "reserve", "seat": 0, "place": 4}, "place")
    state = play(finish_round(state), {"type": "end_round"})
    assert state["order"] == [2, 0, 1] and state["reserved"] == [None, None, None]


def test_without_reservations_the_order_stays():
    state = play(finish_round(started()), {"type": "end_round"})
    assert state["order"] == [0, 1, 2]


# --- end of game (RULES.md §5 "End of game") ---


def test_a_score_at_zero_after_hyde_park_and_old_lady_ends_the_game():
    state = play(started(), {"type": "society", "seat": 1, "sum": 0})
    state = finish_round(state, megaphones=[1, 1, 1])
    assert state["phase"] == "game_over" and state["end_reason"] == "zero"
    assert state["round"] == 1 and state["ranks"] is not None


def test_a_score_that_dips_to_zero_and_rises_again_does_not_end_the_game():
    state = play(started(), {"type": "votes", "seat": 2, "delta": -30})
    assert state["players"][2]["votes"] == 0
    state = finish_round(state, megaphones=[3, 2, 1])  # Cid has the fewest: +1
    assert state["players"][2]["votes"] == 1 and state["phase"] == "round_end"


def test_the_game_ends_after_round_five():
    state = started()
    for _ in range(4):
        state = play(finish_round(state), {"type": "end_round"})
    state = finish_round(state)
    assert state["phase"] == "game_over" and state["end_reason"] == "rounds" and state["round"] == 5
    refused(state, {"type": "end_round"}, "game is over")
    refused(state, {"type": "votes", "seat": 0, "delta": -1}, "game is over")


def test_final_property_score_adds_three_per_remaining_tile():
    # RULES.md §5: each remaining tile counts face value plus a £3 penalty at game end.
    state = play(started(), tiles(0, (4, 2), (2, 3)), prop(0, "set_cash", cash=1))
    state = play(state, {"type": "society", "seat": 1, "sum": 0})
    state = finish_round(state)
    result = club.results(state)
    assert result["players"][0]["breakdown"]["property"] == 1 + 4 + 2 + 2 * 3


def test_results_rank_lowest_highest_score_first_with_tie_breaks():
    state = started()
    state = play(
        state,
        prop(0, "set_cash", cash=9),
        prop(1, "set_cash", cash=9),
        prop(2, "set_cash", cash=12),
        {"type": "votes", "seat": 0, "delta": -26},
        {"type": "votes", "seat": 1, "delta": -28},
        {"type": "votes", "seat": 2, "delta": -20},
        {"type": "society", "seat": 0, "sum": 3},
        {"type": "society", "seat": 1, "sum": 0},
        {"type": "society", "seat": 2, "sum": 1},
    )
    state = finish_round(state, megaphones=[1, 1, 1])
    result = club.results(state)
    # Ann 9/6/3, Bob 9/3/0, Cid 12/11/1: Bob and Ann tie on 9, Bob has the lower second.
    assert [p["score"] for p in result["players"]] == [9, 9, 12]
    assert [p["rank"] for p in result["players"]] == [2, 1, 3]
    assert [p["winner"] for p in result["players"]] == [False, True, False]
    assert result["highest_wins"] is False and result["categories"] == ALL
    assert result["players"][0]["start_player"] is True
    assert result["rounds"][0]["cumulative"] == [9, 9, 12]
    assert club.summary(state)["winners"] == ["Bob"] and club.summary(state)["finished"]


def test_results_are_not_finished_during_the_game():
    assert club.results(started())["finished"] is False


# --- the box (docs/game-contract.md device_display) ---


def test_device_shows_the_round_and_the_step_and_never_the_raid():
    state = club.new_table(setup())
    assert club.device_display(state)["round"] == 0
    state = play(state, {"type": "order", "order": [0, 1, 2]})
    shown = [club.device_display(state)]
    state = play(state, {"type": "end_actions"})
    shown.append(club.device_display(state))
    state = play(state, {"type": "hyde_park", "megaphones": [1, 2, 3]})
    shown.append(club.device_display(state))
    state = play(state, {"type": "old_lady", "exempt": []})
    shown.append(club.device_display(state))
    assert [d["police"] for d in shown] == [1, 2, 3, 4]
    assert all(
        d["police"] < d["limit"] <= 7 and d["rounds"] == 5 and d["round"] == 1 for d in shown
    )
    assert shown[0]["seats"] == 3


# --- moves in general ---


@pytest.mark.parametrize("move", [None, [], {"type": "cheat"}, {"type": 3}])
def test_unknown_moves_are_refused(move):
    refused(started(), move, "move")


def test_moves_out_of_step_are_refused():
    refused(
        club.new_table(setup()),
        {"type": "votes", "seat": 0, "delta": 1},
        "not possible at this step",
    )
    refused(started(), {"type": "hyde_park", "megaphones": [1, 1, 1]}, "not possible at this step")
    refused(started(), {"type": "order", "order": [0, 1, 2]}, "not possible at this step")


def test_legal_moves_are_all_accepted():
    state = play(started(), tiles(0, (4, 1)))
    for move in club.legal_moves(state):
        club.apply(state, move)


def test_a_player_in_debt_cannot_take_property():
    # RULES.md §5: cash cannot be below 0 while owning property.
    state = play(started(), prop(0, "spend", amount=20))
    refused(state, tiles(0, (3, 1)), "in debt")


def test_live_standings_show_the_tracks_and_the_final_if_the_game_ended_now():
    state = play(started(), tiles(0, (4, 2)))
    row = club.live_standings(state)[0]
    assert row["scores"]["property"] == 11 + 4  # the track: cash + face value
    assert row["final"] == max(11 + 4 + 3, 31, 14)  # at game end each tile adds £3


# --- issue 14: Klub fixes, each named after its rule ---


def test_rules_5_owning_a_zero_tile_keeps_the_score_positive():
    """RULES.md §5 "Property": a player who owns any tile never ends the game through property.

    A £0 tile with £0 cash counts £0 + £3 penalty at the end-of-round check, so the round ends
    normally, and the tile's penalty only counts in the final score.
    """
    state = play(started(), tiles(0, (0, 2)), prop(0, "set_cash", cash=0))
    assert state["players"][0]["cash"] == 0
    state = finish_round(state, megaphones=[1, 1, 1])
    assert state["phase"] == "round_end" and state["end_reason"] is None
    assert state["rounds"][0]["scores"][0]["property"] == 0


def test_rules_5_without_property_a_zero_cash_still_ends_the_game():
    """RULES.md §5 "End of game": without tiles, property £0 is a score of 0 and ends it."""
    state = play(started(), prop(0, "set_cash", cash=0))
    state = finish_round(state, megaphones=[1, 1, 1])
    assert state["phase"] == "game_over" and state["end_reason"] == "zero"


def test_rules_5_the_start_player_is_round_one_s_first_player():
    """RULES.md §5: the results name who started round 1, not this round's first player."""
    state = club.new_table(setup(order=[2, 0, 1]))
    state = play(state, {"type": "reserve", "seat": 1, "place": 1})
    state = play(finish_round(state), {"type": "end_round"})
    assert state["order"][0] == 1
    state = play(state, {"type": "society", "seat": 1, "sum": 0})
    state = finish_round(state)
    assert state["phase"] == "game_over"
    starters = [p["start_player"] for p in club.results(state)["players"]]
    assert starters == [False, False, True]


def test_rules_5_an_older_state_without_the_start_player_falls_back_to_the_handicaps():
    """RULES.md §5 "Handicaps at setup": round 1's first player got the most handicaps."""
    state = club.new_table(setup(order=[2, 0, 1]))
    state = play(state, {"type": "reserve", "seat": 1, "place": 1})
    state = play(finish_round(state), {"type": "end_round"})
    del state["start_player"]
    starters = [p["start_player"] for p in club.results(state)["players"]]
    assert starters == [False, False, True]


def test_rules_5_a_society_entry_with_tokens_and_a_different_sum_is_refused():
    """RULES.md §5 "Society": the score is the sum of the 4 token values; a sum that
    disagrees with them is a typing mistake, refused rather than silently dropped."""
    move = {"type": "society", "seat": 0, "tokens": [1, 2, 3, 4], "sum": 9}
    refused(started(), move, "sum")
    same = play(started(), {**move, "sum": 10})
    assert same["players"][0]["society"] == 10 and same["players"][0]["tokens"] == [1, 2, 3, 4]


@pytest.mark.parametrize("limit", [3, 2])
def test_rules_5_a_positive_exchange_limit_is_refused_not_read_as_negative(limit):
    """RULES.md §5 "Property" (seed: the exchange symbol shows a limit of −3 or −2): a limit
    is a drop in face value, so a positive one is refused instead of being read as −3."""
    state = play(started(), tiles(1, (6, 3)))
    move = prop(1, "exchange", give={"value": 6, "district": 3}, take={"value": 1, "district": 2})
    refused(state, {**move, "limit": limit}, "limit")
    assert play(state, {**move, "limit": -limit})["players"][1]["cash"] == 11 + 5 - limit


@pytest.mark.parametrize("tokens", [[10, 10, 10, 11], [-3, -3, -3, -2]])
def test_rules_5_starting_tokens_beyond_the_chart_range_are_refused(tokens):
    """RULES.md §5 "Society": the score is limited to the chart's range, so starting tokens
    whose sum lies outside the entered range cannot be where the tokens start."""
    with pytest.raises(InvalidSetup, match="society_tokens"):
        club.new_table(setup(society_tokens=tokens, society_range=[-10, 40]))
    assert club.new_table(setup(society_tokens=[10, 10, 10, 10], society_range=[-10, 40]))


def test_rules_5_messengers_are_not_a_rule_value_so_they_are_optional():
    """RULES.md §5: messengers per player count are a setup value no scoring rule uses;
    a table may leave them out, and an older setup that has them still loads."""
    values = board()
    del values["messengers"]
    state = club.new_table({**setup(), "board": values})
    assert "messengers" not in state["board"]
    assert club.new_table({**setup(), "board": board(messengers=None)})
    assert club.new_table(setup())["board"]["messengers"] == 4
    with pytest.raises(InvalidSetup, match="messengers"):
        club.new_table(setup(messengers=0))
