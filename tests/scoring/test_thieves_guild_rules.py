"""Cech zlodějů rules, one test per rule of RULES.md §3 and the seed's examples."""

import random

import pytest

from scoring import thieves_guild
from scoring.errors import IllegalMove, InvalidSetup
from scoring.thieves_guild.queries import ledger_ok
from tests.scoring.thieves_guild_play import COSTS, after, gold, started, with_gold
from tests.scoring.thieves_guild_random import names

LOOT = {"type": "loot"}


def refused(state: dict, move: dict, match: str) -> None:
    """The move is refused with a message matching `match` and the state is left as it was."""
    before = repr(state)
    with pytest.raises(IllegalMove, match=match):
        thieves_guild.apply(state, move)
    assert repr(state) == before


def robbery(count: int, loot: int, target: int, direction: str | None = None, first: int = 0):
    """The state once the robber has rolled `loot` and `target` (and chosen the side)."""
    state = after(started(count, first), {"type": "loot", "roll": loot})
    state = after(state, {"type": "target", "roll": target})
    if direction is not None:
        state = after(state, {"type": "aim", "direction": direction})
    return state


# -- setup (RULES.md §3 "Setup") ----------------------------------------------------------------


def test_setup_each_player_gets_13_gold_and_3_cards_and_the_bank_starts_empty():
    state = thieves_guild.new_table({"players": names(6), "card_costs": COSTS})
    assert gold(state) == [13] * 6
    assert [p["cards"] for p in state["players"]] == [3] * 6
    assert state["bank"] == 0 and state["supply"] == 120 - 78
    assert state["deck"] == 50 - 18 and state["discard"] == 0
    assert ledger_ok(state)


def test_setup_three_players_get_20_gold_each():
    assert gold(thieves_guild.new_table({"players": names(3), "card_costs": [1]})) == [20] * 3


@pytest.mark.parametrize("count", [2, 10])
def test_setup_needs_3_to_9_players(count):
    players = [f"P{n}" for n in range(count)]
    with pytest.raises(InvalidSetup, match="3 to 9 players"):
        thieves_guild.new_table({"players": players, "card_costs": COSTS})


def test_setup_card_cost_table_is_a_board_value_asked_never_guessed():
    with pytest.raises(InvalidSetup, match="card_costs: enter the card-cost table"):
        thieves_guild.new_table({"players": names(4)})


def test_setup_the_first_card_costs_1_as_the_seed_says():
    with pytest.raises(InvalidSetup, match="the first card costs 1 gold"):
        thieves_guild.new_table({"players": names(4), "card_costs": [2, 3]})


@pytest.mark.parametrize("costs", [[1, 1], [1, 3, 2], [1, 200]])
def test_setup_each_further_card_in_a_turn_costs_more(costs):
    with pytest.raises(InvalidSetup, match="costs more than the one before"):
        thieves_guild.new_table({"players": names(4), "card_costs": costs})


def test_setup_refuses_the_players_and_every_wrong_card_price_at_once():
    with pytest.raises(InvalidSetup, match="3 to 9 players") as refused:
        thieves_guild.new_table({"players": names(2), "card_costs": [2, 3, 3, 5, 4]})
    others = [str(other) for other in refused.value.others]
    assert len(others) == 3 and "the first card costs 1 gold" in others[0]
    assert "card 3 costs 3" in others[1] and "card 5 costs 4" in others[2]


def test_setup_an_unknown_setup_field_is_refused_by_name():
    with pytest.raises(
        InvalidSetup, match='Unknown setup field "variant".*takes: players, card_costs'
    ):
        thieves_guild.new_table({"players": names(4), "card_costs": [1], "variant": True})


def test_setup_first_player_is_the_highest_roll_entered():
    state = started(5, first=3)
    assert state["start_player"] == state["turn"] == 3 and state["phase"] == "buy"


def test_setup_first_player_by_lot_is_recorded_in_the_move():
    state = thieves_guild.new_table({"players": names(7), "card_costs": COSTS})
    move = thieves_guild.complete_move(state, {"type": "start"}, random.Random(4))
    assert 0 <= move["seat"] < 7
    assert thieves_guild.apply(state, move)["turn"] == move["seat"]


# -- buying (RULES.md §3 "Turn" 1) -----------------------------------------------------------


def test_buying_pays_the_entered_price_of_each_card_into_the_bank():
    state = after(started(4), {"type": "buy"}, {"type": "buy"}, {"type": "buy"})
    assert gold(state)[0] == 13 - (1 + 2 + 4)
    assert state["bank"] == 7 and state["players"][0]["cards"] == 6
    assert state["deck"] == 50 - 12 - 3 and ledger_ok(state)


def test_buying_with_the_last_gold_is_refused():
    state = with_gold(started(4), 2, 13, 13, 13)
    state = after(state, {"type": "buy"})  # 1 gold left
    refused(state, {"type": "buy"}, "never spends their own last gold")
    refused(with_gold(started(4), 1, 13, 13, 13), {"type": "buy"}, "last gold")


def test_buying_more_cards_than_the_cost_table_lists_is_refused():
    state = after(started(4, costs=[1, 2]), {"type": "buy"}, {"type": "buy"})
    refused(state, {"type": "buy"}, "lists 2 cards per turn")


def test_buying_after_the_loot_roll_is_refused():
    refused(after(started(4), {"type": "loot", "roll": 3}), {"type": "buy"}, "target roll")


def test_cards_cannot_be_played_before_buying_the_turn_begins_with_buying():
    move = {"type": "card", "seat": 1, "card": "Drzost"}
    refused(started(4), move, "buys cards or enters the loot roll first")


# -- the rolls (RULES.md §3 "Turn" 2) ---------------------------------------------------------


@pytest.mark.parametrize("roll", [0, 7, -1, "5", 2.0, None])
def test_a_loot_roll_off_the_die_is_refused(roll):
    refused(started(4), {"type": "loot", "roll": roll}, "from 1 to 6")


@pytest.mark.parametrize("roll", [0, 7])
def test_a_target_roll_off_the_die_is_refused(roll):
    refused(
        after(started(6), {"type": "loot", "roll": 2}), {"type": "target", "roll": roll}, "1 to 6"
    )


def test_a_move_by_another_seat_than_the_robber_is_refused():
    refused(started(4), {"type": "loot", "seat": 2, "roll": 3}, "It is Eva's turn, not Jana's")


# -- the seat rules by player count (RULES.md §3 "Seat rules") ------------------------------


@pytest.mark.parametrize("count", [6, 7, 8, 9])
def test_seed_example_5_then_4_robs_the_fourth_player_left_or_right_of_5_gold(count):
    for direction, victim in (("left", 4), ("right", count - 4)):
        state = robbery(count, 5, 4, direction)
        assert thieves_guild.actions(state)["victim"] == victim
        robbed = after(state, {"type": "rob"})
        assert gold(robbed)[0] == 18 and gold(robbed)[victim] == 8


@pytest.mark.parametrize("count", [6, 7, 8, 9])
@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_six_to_nine_players_the_target_roll_is_a_distance_left_or_right(count, roll):
    if roll == count:
        return  # covered by the lands-on-the-robber test
    for direction, step in (("left", roll), ("right", -roll)):
        assert (
            thieves_guild.actions(robbery(count, 1, roll, direction, first=2))["victim"]
            == (2 + step) % count
        )


def test_six_players_a_distance_of_six_lands_on_the_robber_no_robbery():
    state = robbery(6, 4, 6)
    assert state["phase"] == "robbery" and thieves_guild.actions(state)["victim"] is None
    passed = after(state, {"type": "rob"})
    assert gold(passed) == [13] * 6 and passed["turn"] == 1
    assert passed["phase"] == "buy"


def test_five_players_a_six_is_rolled_again():
    state = after(started(5), {"type": "loot", "roll": 3})
    refused(state, {"type": "target", "roll": 6}, "With five players a six is rolled again")
    assert 6 not in thieves_guild.actions(state)["rolls"]


def test_five_players_a_five_lands_on_the_robber():
    state = robbery(5, 3, 5)
    assert thieves_guild.actions(state)["victim"] is None
    assert gold(after(state, {"type": "rob"})) == [13] * 5


@pytest.mark.parametrize(("roll", "victim"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_four_players_1_2_robs_left_3_4_opposite_5_6_right(roll, victim):
    state = robbery(4, 2, roll)
    assert state["phase"] == "robbery" and thieves_guild.actions(state)["victim"] == victim


@pytest.mark.parametrize(("roll", "victim"), [(1, 1), (3, 1), (5, 1), (2, 2), (4, 2), (6, 2)])
def test_three_players_odd_robs_left_even_robs_right(roll, victim):
    assert thieves_guild.actions(robbery(3, 2, roll))["victim"] == victim


@pytest.mark.parametrize("count", [3, 4])
def test_a_direction_with_three_or_four_players_is_refused(count):
    state = after(started(count), {"type": "loot", "roll": 3})
    message = f"With {count} players the seat rules decide"
    refused(state, {"type": "target", "roll": 2, "direction": "left"}, message)
    aim = {"type": "aim", "direction": "left"}
    refused(after(state, {"type": "target", "roll": 2}), aim, message)


def test_the_robber_chooses_left_or_right_and_the_app_names_both_before_confirming():
    state = robbery(7, 3, 2)
    assert state["phase"] == "aim"
    assert thieves_guild.actions(state)["candidates"] == {"left": 2, "right": 5}
    refused(state, {"type": "aim", "direction": "up"}, "left or right")
    refused(state, {"type": "rob"}, "chooses left or right first")
    aimed = after(state, {"type": "aim", "direction": "right"})
    assert thieves_guild.actions(aimed)["victim"] == 5 and gold(aimed) == [13] * 7


# -- the robbery (RULES.md §3 "Turn" 3) -------------------------------------------------------


def test_robbery_the_victim_gives_the_loot_roll():
    state = after(robbery(4, 4, 1), {"type": "rob"})
    assert gold(state) == [17, 9, 13, 13] and state["bank"] == 0 and state["turn"] == 1


def test_robbery_a_pauper_gives_all_and_the_robber_pays_a_fine_of_1():
    state = after(with_gold(started(4), 13, 3, 13, 13), {"type": "loot", "roll": 4})
    state = after(state, {"type": "target", "roll": 1}, {"type": "rob"})
    assert gold(state) == [13 + 3 - 1, 0, 13, 13] and state["bank"] == 1
    assert state["phase"] == "ending" and ledger_ok(state)


def test_robbery_a_victim_with_exactly_the_loot_pays_it_and_there_is_no_fine():
    state = after(with_gold(started(4), 13, 4, 13, 13), {"type": "loot", "roll": 4})
    state = after(state, {"type": "target", "roll": 1}, {"type": "rob"})
    assert gold(state) == [17, 0, 13, 13] and state["bank"] == 0


def test_robbery_log_reads_like_the_game():
    state = after(with_gold(started(4), 13, 3, 13, 13), {"type": "loot", "roll": 4})
    state = after(state, {"type": "target", "roll": 1})
    move = thieves_guild.complete_move(state, {"type": "rob"}, random.Random(0))
    assert move["log"][0] == {
        "event": "rob",
        "seat": 0,
        "victim": 1,
        "loot": 4,
        "had": 3,
        "took": 3,
        "fine": 1,
    }
    assert move["log"][1] == {"event": "last_gold", "seats": [1]}


def test_a_card_can_stop_the_robbery_and_the_turn_passes_left():
    state = after(robbery(6, 4, 2, "left"), {"type": "card", "seat": 2, "card": "Alarm"})
    state = after(state, {"type": "end_turn"})
    assert gold(state) == [13] * 6 and state["turn"] == 1 and state["discard"] == 1


# -- the sudden end (RULES.md §3 "End") -------------------------------------------------------


def test_end_the_game_ends_when_a_player_loses_their_last_gold_after_the_reactions():
    state = after(with_gold(started(4), 13, 2, 13, 13), {"type": "loot", "roll": 5})
    state = after(state, {"type": "target", "roll": 1}, {"type": "rob"})
    assert state["phase"] == "ending" and state["turn"] == 0
    reaction = {
        "type": "card",
        "seat": 2,
        "card": "Drzost",
        "transfers": [{"from": 2, "to": 3, "gold": 2}],
    }
    state = after(state, reaction, {"type": "settle"})
    assert state["phase"] == "game_over" and gold(state) == [14, 0, 11, 15]


def test_end_a_reaction_that_gives_the_player_gold_again_lets_play_go_on():
    state = after(with_gold(started(4), 13, 2, 13, 13), {"type": "loot", "roll": 5})
    state = after(state, {"type": "target", "roll": 1}, {"type": "rob"})
    back = {
        "type": "card",
        "seat": 1,
        "card": "Trezor",
        "transfers": [{"from": 0, "to": 1, "gold": 2}],
    }
    state = after(state, back, {"type": "settle"})
    assert state["phase"] == "buy" and state["turn"] == 1 and gold(state) == [12, 2, 13, 13]


def test_end_a_card_that_takes_a_players_last_gold_ends_the_game_too():
    state = after(with_gold(started(5), 13, 13, 4, 13, 13), {"type": "loot", "roll": 2})
    move = {
        "type": "card",
        "seat": 1,
        "card": "Drzost",
        "transfers": [{"from": 2, "to": "bank", "gold": 4}],
    }
    state = after(state, move)
    assert state["phase"] == "ending" and state["bank"] == 4
    refused(state, {"type": "target", "roll": 3}, "lost their last gold")
    assert after(state, {"type": "settle"})["phase"] == "game_over"


@pytest.mark.parametrize(
    "move",
    [
        {"type": "loot", "roll": 3},
        {"type": "buy"},
        {"type": "settle"},
        {"type": "rob"},
        {"type": "card", "seat": 0, "card": "Alarm"},
        {"type": "start", "seat": 0},
    ],
)
def test_end_a_move_after_the_end_is_refused(move):
    state = after(with_gold(started(4), 13, 1, 13, 13), {"type": "loot", "roll": 5})
    state = after(state, {"type": "target", "roll": 1}, {"type": "rob"}, {"type": "settle"})
    refused(state, move, "The game is over")


def test_results_most_gold_wins_a_tie_goes_to_more_cards_then_is_shared():
    state = after(with_gold(started(4), 13, 1, 16, 16), {"type": "loot", "roll": 5})
    state = after(state, {"type": "target", "roll": 1}, {"type": "rob"}, {"type": "settle"})
    # Eva 13 + 1 - 1 = 13; Jana and Karel 16 with 3 cards each: a shared win.
    final = thieves_guild.results(state)
    assert [row["rank"] for row in final["players"]] == [3, 4, 1, 1]
    assert thieves_guild.summary(state)["winners"] == ["Jana", "Karel"]


def test_results_a_tie_of_gold_goes_to_the_player_with_more_cards():
    state = with_gold(started(4), 13, 13, 16, 16)
    state = after(state, {"type": "loot", "roll": 1}, {"type": "target", "roll": 5})
    state = after(state, {"type": "rob"})  # Eva robs Karel (right) of 1: 14, 13, 16, 15
    state = after(state, {"type": "buy"}, {"type": "loot", "roll": 6})  # Petr 12, 4 cards
    state = after(state, {"type": "target", "roll": 1}, {"type": "rob"})  # Petr robs Jana of 6
    assert gold(state) == [14, 18, 10, 15]
    state = with_gold(state, 0, 15, 10, 15)
    final = thieves_guild.results({**state, "phase": "game_over", "ranks": None})
    assert [row["rank"] for row in final["players"]] == [4, 1, 3, 2]


# -- the cards (RULES.md §3 "Cards") ----------------------------------------------------------


def test_cards_a_played_card_leaves_the_hand_for_the_discard_pile():
    state = after(
        started(4), {"type": "loot", "roll": 2}, {"type": "card", "seat": 3, "card": "Alarm"}
    )
    assert state["players"][3]["cards"] == 2 and state["discard"] == 1 and ledger_ok(state)


def test_cards_a_player_without_cards_cannot_play_one():
    state = after(started(4), {"type": "loot", "roll": 2})
    state["players"][2]["cards"] = 0
    state["discard"] += 3
    refused(state, {"type": "card", "seat": 2, "card": "Alarm"}, "Jana has no card in hand")


def test_cards_a_gold_effect_taking_more_than_the_player_has_is_refused():
    state = after(started(4), {"type": "loot", "roll": 2})
    move = {
        "type": "card",
        "seat": 1,
        "card": "Drzost",
        "transfers": [{"from": 2, "to": 1, "gold": 14}],
    }
    refused(state, move, "Jana has only 13 gold; the card cannot take 14")


@pytest.mark.parametrize(
    ("transfer", "match"),
    [
        ({"from": 1, "to": 1, "gold": 1}, "another player or to the bank"),
        ({"from": 1, "to": 2, "gold": 0}, "1 or more"),
        ({"from": 1, "to": "pot", "gold": 1}, "to: the gold goes to one of the 4 players"),
        ({"from": 1, "to": 2, "gold": 1, "why": "x"}, "Unknown field"),
    ],
)
def test_cards_a_malformed_gold_effect_is_refused(transfer, match):
    state = after(started(4), {"type": "loot", "roll": 2})
    refused(state, {"type": "card", "seat": 1, "card": "X", "transfers": [transfer]}, match)


def test_cards_a_card_is_named_as_printed():
    state = after(started(4), {"type": "loot", "roll": 2})
    refused(state, {"type": "card", "seat": 1}, "Name the card played")
    refused(state, {"type": "card", "seat": 1, "card": "A\u202eB"}, "hidden character")


def test_cards_spatna_informace_changes_the_loot_roll_right_after_it():
    state = after(started(4), {"type": "loot", "roll": 2})
    state = after(state, {"type": "card", "seat": 2, "card": "Špatná informace", "roll": 6})
    assert state["loot"] == 6
    state = after(state, {"type": "target", "roll": 1}, {"type": "rob"})
    assert gold(state)[:2] == [19, 7]


def test_cards_spatna_informace_on_the_second_roll_only_once_the_robber_chose_the_side():
    state = robbery(7, 3, 2)
    change = {"type": "card", "seat": 2, "card": "Špatná informace", "roll": 4}
    refused(state, change, "once the robber has chosen the side")
    state = after(state, {"type": "aim", "direction": "left"}, change)
    assert state["target"] == 4 and thieves_guild.actions(state)["victim"] == 4


def test_cards_spatna_informace_cannot_make_a_six_with_five_players():
    state = robbery(5, 3, 2, "left")
    refused(state, {"type": "card", "seat": 2, "card": "Š", "roll": 6}, "six is rolled again")


def test_cerny_petr_costs_its_holder_2_gold_at_the_start_of_their_turn():
    state = after(started(4), {"type": "loot", "roll": 2})
    state = after(state, {"type": "card", "seat": 0, "card": "Černý Petr", "black_peter": 1})
    assert state["black_peter"] == 1 and state["players"][1]["cards"] == 4
    assert state["discard"] == 0 and ledger_ok(state)
    state = after(state, {"type": "end_turn"})
    assert state["turn"] == 1 and gold(state)[1] == 11 and state["bank"] == 2


def test_cerny_petr_is_not_paid_while_jailed_but_at_the_next_turn():
    state = after(started(4), {"type": "loot", "roll": 2})
    state = after(state, {"type": "card", "seat": 0, "card": "Černý Petr", "black_peter": 1})
    state = after(state, {"type": "card", "seat": 2, "card": "Vazba", "jail": 1})
    state = after(state, {"type": "end_turn"})
    assert state["turn"] == 2 and gold(state)[1] == 13 and state["jailed"] == []
    for _ in range(3):  # Jana, Karel, Eva
        state = after(state, {"type": "loot", "roll": 1}, {"type": "end_turn", "no_card": True})
    assert state["turn"] == 1 and gold(state)[1] == 11


def test_a_jailed_players_turn_is_skipped_once():
    state = after(started(5), {"type": "loot", "roll": 2})
    state = after(state, {"type": "card", "seat": 3, "card": "Vazba", "jail": 1})
    move = thieves_guild.complete_move(state, {"type": "end_turn"}, random.Random(0))
    assert {"event": "jailed", "seat": 1} in move["log"]
    state = thieves_guild.apply(state, move)
    assert state["turn"] == 2
    for _ in range(4):
        state = after(state, {"type": "loot", "roll": 1}, {"type": "end_turn", "no_card": True})
    assert state["turn"] == 1


def test_cerny_petr_taking_the_last_gold_ends_the_game():
    state = after(with_gold(started(4), 13, 2, 13, 13), {"type": "loot", "roll": 2})
    state = after(state, {"type": "card", "seat": 0, "card": "Černý Petr", "black_peter": 1})
    state = after(state, {"type": "end_turn"})
    assert gold(state)[1] == 0 and state["phase"] == "ending"


def test_cerny_petr_is_one_card_only_its_holder_hands_it_on():
    state = after(started(4), {"type": "loot", "roll": 2})
    state = after(state, {"type": "card", "seat": 0, "card": "Černý Petr", "black_peter": 1})
    refused(
        state, {"type": "card", "seat": 2, "card": "Černý Petr", "black_peter": 3}, "is with Petr"
    )
    state = after(state, {"type": "card", "seat": 1, "card": "Černý Petr", "black_peter": 3})
    assert state["black_peter"] == 3 and ledger_ok(state)


# -- the log and the contract --------------------------------------------------------------


def test_a_stored_log_that_does_not_match_the_rules_is_refused():
    state = robbery(4, 4, 1)
    move = thieves_guild.complete_move(state, {"type": "rob"}, random.Random(0))
    move["log"][0]["took"] = 1
    refused(state, move, "log does not match")


def test_unknown_move_fields_are_refused_by_name():
    refused(started(4), {"type": "loot", "roll": 3, "dice": 2}, "Unknown field")


def test_device_display_shows_the_loot_and_the_step_of_the_turn():
    state = robbery(9, 5, 4)
    shown = thieves_guild.device_display(state)
    assert shown == {"police": 5, "limit": 7, "round": 3, "rounds": 4, "seats": 6}
