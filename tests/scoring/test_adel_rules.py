"""Adel Verpflichtet rules, one test per rule of RULES.md §4 (names say which)."""

import copy

import pytest

from scoring import adel_verpflichtet as adel
from scoring.adel_verpflichtet import cards, castle
from scoring.errors import IllegalMove, InvalidSetup
from tests.scoring.adel_play import card, hand, setup, table

A, C = "auction", "castle"
DET, EXH, NONE = {"card": "detective"}, {"card": "exhibit"}, {"card": "none"}


def chk(value: int) -> dict:
    """A check action card."""
    return {"card": "check", "value": value}


def thf(number: int) -> dict:
    """A thief action card."""
    return {"card": "thief", "value": number}


def go(t, places: list[str], played: list[dict]) -> dict:
    """Both secret choices of a turn, revealed."""
    t.play({"type": "locations", "places": places})
    return t.play({"type": "actions", "actions": played})


def refused(state: dict, move: dict, match: str) -> None:
    """`move` is refused with a message matching `match`, and the state is unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove, match=match):
        adel.apply(state, move)
    assert state == before


# -- Material and setup ----------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_material_2_to_5_players_each_dealt_4_cards_rest_in_two_face_up_piles(count):
    state = adel.new_table(setup(count, "surprise" if count == 2 else None))
    assert [len(p["hand"]) for p in state["players"]] == [4] * count
    rest = 45 - 4 * count
    assert [pile["size"] for pile in state["piles"]] == [(rest + 1) // 2, rest // 2]
    assert state["jail"] == [] and state["register"] == []
    assert all(p["position"] == 0 for p in state["players"])


@pytest.mark.parametrize("count", [1, 6])
def test_material_fewer_than_2_or_more_than_5_players_refused(count):
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:count]
    with pytest.raises(InvalidSetup, match="2 to 5 players"):
        adel.new_table({**setup(3), "players": names})


def test_material_four_checks_each_a_blank_one_is_asked_for():
    checks = [[11, 12, 13, 14], [21, "", 23, 24], [31, 32, 33, 34]]
    with pytest.raises(InvalidSetup, match="Checks of player 2: enter 4 check values"):
        adel.new_table(setup(3, checks=checks))


def test_material_all_check_values_differ_two_equal_refused():
    checks = [[11, 12, 13, 14], [21, 22, 23, 12], [31, 32, 33, 34]]
    with pytest.raises(InvalidSetup, match="12 is entered twice .Ann and Bob."):
        adel.new_table(setup(3, checks=checks))


def test_material_a_value_twice_at_one_seat_names_that_player_once():
    """Issue 31: "the number 1 is entered twice (players 1 and 1)" read wrong."""
    with pytest.raises(InvalidSetup, match="^Bob: the number 3 is entered on both thieves;"):
        adel.new_table(setup(3, thieves=[[1, 2], [3, 3], [5, 6]]))
    with pytest.raises(InvalidSetup, match="^Ann: the value 11 is entered on two checks;"):
        adel.new_table(setup(3, checks=[[11, 11, 13, 14], [21, 22, 23, 24], [31, 32, 33, 34]]))


def test_setup_refuses_a_bad_banquet_its_fractions_and_equal_pile_tops_in_one_round():
    """Issue 31: the form reported board numbers, then fractions, then pile tops."""
    values = setup(3, hands=None)
    fractions = values["fractions"][:5]
    fractions[3] = [1, 4]
    bad = {"banquet": 1, "fractions": fractions, "tops": [values["tops"][0]] * 2}
    with pytest.raises(InvalidSetup) as refused:
        adel.new_table({**values, **bad})
    shown = [str(each) for each in (refused.value, *refused.value.others)]
    assert len(shown) == 3, shown
    assert shown[0].startswith("Banquet table:") and shown[1].startswith("Space 3:")
    assert "is already the top card of pile 1" in shown[2]


def test_material_two_thieves_with_different_numbers_equal_refused():
    with pytest.raises(InvalidSetup, match="number 2 is entered twice"):
        adel.new_table(setup(3, thieves=[[1, 2], [2, 4], [5, 6]]))


def test_setup_refuses_every_bad_board_value_at_once():
    fractions = setup(3)["fractions"]
    fractions[2], fractions[7] = [1, 3], [4, None]
    hands = setup(3)["hands"]
    hands[2][3] = {"letter": "G", "year": 1700}
    bad = {
        "checks": [[11, 12, 13, 14], [21, 22, 23, 12], [31, 32, 33, 34]],
        "thieves": [[1, 2], [3, "x"], [5, 6]],
        "fractions": fractions,
        "hands": hands,
        "profile": "",
    }
    with pytest.raises(InvalidSetup) as refused:
        adel.new_table(setup(3, **bad))
    shown = [str(each) for each in (refused.value, *refused.value.others)]
    assert len(shown) == 6, shown
    assert "12 is entered twice" in shown[0] and "Thieves of player 2: x" in shown[1]
    assert "Card 4 of player 3" in shown[2] and "profile:" in shown[3]
    assert shown[4].startswith("Space 2:") and shown[5].startswith("Space 7:")


def test_board_values_track_fraction_top_at_least_bottom():
    fractions = setup(3)["fractions"]
    fractions[4] = [1, 3]
    with pytest.raises(InvalidSetup, match="Space 4: the fraction"):
        adel.new_table(setup(3, fractions=fractions))


def test_board_values_one_fraction_entry_per_space_before_the_banquet():
    with pytest.raises(InvalidSetup, match="one entry per track space 0 to 29"):
        adel.new_table(setup(3, fractions=[[3, 1]] * 12))


def test_collection_card_is_a_letter_a_to_f_and_a_year():
    hands = setup(3)["hands"]
    hands[1][0] = {"letter": "G", "year": 1700}
    with pytest.raises(InvalidSetup, match="Card 1 of player 2: tap a letter A to F"):
        adel.new_table(setup(3, hands=hands))
    tops = setup(3)["tops"]
    tops[1] = {"letter": "B", "year": "1700"}
    with pytest.raises(InvalidSetup, match="Top card of pile 2: tap a letter A to F"):
        adel.new_table(setup(3, tops=tops))
    t = table(3)
    go(t, [A, C, C], [chk(11), DET, DET])
    refused(t.state, {"type": "buy", "pile": 0, "next": {"letter": "B"}}, "now on top of pile 1")


def test_two_players_choose_surprise_or_conflict_of_interest():
    with pytest.raises(InvalidSetup, match="surprise or conflict"):
        adel.new_table(setup(2))
    with pytest.raises(InvalidSetup, match="are for 2 players"):
        adel.new_table(setup(3, "surprise"))


# -- Each turn: location, then action card, each revealed together ---------------------------


def test_each_turn_location_then_action_each_a_secret_choice_of_everyone():
    t = table(3)
    assert adel.reveal_seats(t.state) == [0, 1, 2]
    first = adel.reveal_step(t.state)
    t.play({"type": "locations", "places": [A, C, C]})
    assert t.state["phase"] == "action"
    assert adel.reveal_seats(t.state) == [0, 1, 2]
    assert adel.reveal_step(t.state) != first


def test_each_turn_actions_offered_are_only_cards_still_held_at_that_location():
    t = table(3)
    t.play({"type": "locations", "places": [A, C, C]})
    offered = adel.actions(t.state)["cards"]
    assert offered[0] == [chk(11), chk(12), chk(13), chk(14), thf(1), thf(2)]
    # Bob holds no valid exhibition (E F A B): no exhibit card offered.
    assert offered[1] == [thf(3), thf(4), DET]
    assert offered[2] == [EXH, thf(5), thf(6), DET]


def test_each_turn_a_check_not_held_is_refused():
    t = table(3)
    t.play({"type": "locations", "places": [A, C, C]})
    refused(t.state, {"type": "actions", "actions": [chk(21), DET, EXH]}, "Ann does not hold")


def test_each_turn_exhibit_without_a_valid_exhibition_is_refused():
    t = table(3)
    t.play({"type": "locations", "places": [A, C, C]})
    refused(t.state, {"type": "actions", "actions": [chk(11), EXH, DET]}, "Bob holds no valid")


def test_each_turn_a_card_that_does_not_fit_the_location_is_refused():
    t = table(3)
    t.play({"type": "locations", "places": [A, C, C]})
    refused(t.state, {"type": "actions", "actions": [EXH, DET, DET]}, "cannot play that card")
    refused(t.state, {"type": "actions", "actions": [NONE, DET, DET]}, "still has an action")


def test_each_turn_actions_before_the_locations_are_refused():
    t = table(3)
    refused(t.state, {"type": "actions", "actions": [DET] * 3}, "location first")


# -- Auction house --------------------------------------------------------------------------


def test_auction_highest_check_buys_one_of_the_two_top_cards_buyer_picks():
    t = table(3)
    go(t, [A, A, A], [chk(11), chk(24), chk(32)])
    options = adel.actions(t.state)
    assert (options["buyer"], options["check"], options["piles"]) == (2, 32, [0, 1])
    top = t.state["piles"][1]["top"]
    t.play({"type": "buy", "pile": 1})
    assert top in t.state["players"][2]["hand"]
    assert t.state["piles"][1]["size"] == 15


def test_auction_paid_check_goes_to_the_register_for_good_other_checks_return():
    t = table(3)
    go(t, [A, A, A], [chk(11), chk(24), chk(32)])
    t.play({"type": "buy", "pile": 0})
    assert t.state["register"] == [32]
    assert 32 not in t.state["players"][2]["checks"]
    assert t.state["players"][0]["checks"] == [11, 12, 13, 14]


def test_auction_next_top_card_must_be_entered_as_it_appears():
    t = table(3)
    go(t, [A, A, A], [chk(11), chk(24), chk(32)])
    refused(t.state, {"type": "buy", "pile": 0}, "Enter the card now on top of pile 1")


def test_auction_lone_thief_takes_the_check_just_paid_and_may_spend_it_later():
    t = table(3)
    go(t, [A, A, C], [chk(11), thf(3), DET])
    t.play({"type": "buy", "pile": 0})
    assert t.state["register"] == []
    assert 11 in t.state["players"][1]["checks"]
    t.play({"type": "next"})
    t.play({"type": "locations", "places": [A, A, C]})
    assert chk(11) in adel.actions(t.state)["cards"][1]


def test_auction_two_thieves_scare_each_other_off():
    t = table(3)
    go(t, [A, A, A], [chk(11), thf(3), thf(5)])
    t.play({"type": "buy", "pile": 0})
    assert t.state["register"] == [11]
    assert {"step": "thieves_scared", "numbers": [3, 5]} in t.state["report"]


def test_auction_no_purchase_the_thief_gets_nothing():
    t = table(3)
    go(t, [A, C, C], [thf(1), DET, DET])
    assert t.state["phase"] == "review"
    assert t.state["players"][0]["checks"] == [11, 12, 13, 14]
    assert t.state["report"][0]["step"] == "thief_no_purchase"


def test_auction_only_one_card_offered_once_a_pile_is_empty():
    t = table(3)
    t.state["piles"][1] = {"size": 0, "top": None}
    go(t, [A, C, C], [chk(11), DET, DET])
    assert adel.actions(t.state)["piles"] == [0]
    refused(t.state, {"type": "buy", "pile": 1, "next": None}, "pile whose top card")


# -- Castle: exhibitions ---------------------------------------------------------------------


@pytest.mark.parametrize("letters", ["ABC", "AAB", "CCC", "BCCD"])
def test_exhibition_rulebook_examples_valid(letters):
    assert cards.is_exhibition([card(f"{letter} 1700") for letter in letters])


@pytest.mark.parametrize("letters", ["AAC", "DE", "AB", "ACD", "ABDE"])
def test_exhibition_gaps_or_fewer_than_three_cards_invalid(letters):
    assert not cards.is_exhibition([card(f"{letter} 1700") for letter in letters])


def test_exhibition_best_has_more_cards_tie_goes_to_the_oldest_object():
    four = hand("A 1800", "B 1800", "C 1800", "D 1800")
    old = hand("A 1600", "B 1800", "C 1800")
    young = hand("D 1700", "E 1700", "F 1700")
    assert cards.best_two({0: old, 1: four, 2: young}) == (1, 0)
    assert cards.best_two({0: young, 1: old}) == (1, 0)


def castle_table(positions=(12, 9, 9, 4), fraction=(4, 2)) -> object:
    """4 players at the positions given, every space's fraction `fraction`."""
    hands = [
        hand("A 1600", "B 1700", "C 1800", "F 1900"),
        hand("B 1650", "C 1750", "D 1850", "E 1610"),
        hand("A 1601", "A 1602", "B 1603", "F 1604"),
        hand("D 1605", "E 1606", "F 1607", "A 1608"),
    ]
    t = table(4, hands=hands, fractions=[list(fraction)] * 30)
    for player, position in zip(t.state["players"], positions, strict=True):
        player["position"] = position
    return t


def test_exhibition_best_two_advance_by_the_leaders_fraction_top_then_bottom():
    t = castle_table(fraction=(5, 3))
    go(t, [C, C, C, A], [EXH, EXH, EXH, chk(41)])
    t.play({"type": "buy", "pile": 0})
    t.play(
        {
            "type": "exhibitions",
            "shows": [
                hand("A 1600", "B 1700", "C 1800"),
                hand("B 1650", "C 1750", "D 1850", "E 1610"),
                hand("A 1601", "A 1602", "B 1603"),
                None,
            ],
        }
    )
    positions = [p["position"] for p in t.state["players"]]
    # Bob: 4 cards is best (+5); Ann (A 1600) beats Cid (A 1601) for second (+3); Cid stays.
    assert positions == [15, 14, 9, 4]
    steps = [s["step"] for s in t.state["report"] if s["step"].startswith("exhibition")]
    assert steps == ["exhibition_best", "exhibition_second", "exhibition_out"]


def test_exhibition_sole_exhibitor_counts_as_best():
    t = castle_table()
    go(t, [C, A, A, A], [EXH, chk(21), chk(31), chk(41)])
    t.play({"type": "buy", "pile": 0})
    t.play({"type": "exhibitions", "shows": [hand("A 1600", "B 1700", "C 1800"), None, None, None]})
    assert t.state["players"][0]["position"] == 16
    assert t.state["players"][0]["gained"]["exhibitions"] == 4


def test_exhibition_invalid_one_is_refused():
    t = castle_table()
    go(t, [C, A, A, A], [EXH, chk(21), chk(31), chk(41)])
    t.play({"type": "buy", "pile": 0})
    move = {"type": "exhibitions", "shows": [hand("A 1600", "C 1800", "F 1900"), None, None, None]}
    refused(t.state, move, "Ann's exhibition is not valid")


def test_exhibition_card_the_player_does_not_hold_is_refused():
    t = castle_table()
    go(t, [C, A, A, A], [EXH, chk(21), chk(31), chk(41)])
    t.play({"type": "buy", "pile": 0})
    move = {"type": "exhibitions", "shows": [hand("A 1600", "B 1700", "C 1700"), None, None, None]}
    refused(t.state, move, "Ann does not hold C 1700")


def test_exhibition_missing_fraction_of_the_leaders_space_is_asked_then_stored():
    t = castle_table()
    t.state["fractions"][12] = None
    go(t, [C, A, A, A], [EXH, chk(21), chk(31), chk(41)])
    t.play({"type": "buy", "pile": 0})
    move = {"type": "exhibitions", "shows": [hand("A 1600", "B 1700", "C 1800"), None, None, None]}
    refused(t.state, move, "Enter the fraction on space 12, the leader's space")
    t.play({**move, "fraction": [6, 3]})
    assert t.state["fractions"][12] == [6, 3]
    assert t.state["players"][0]["position"] == 18


# -- Castle: thieves, then detectives ---------------------------------------------------------


def test_castle_thieves_steal_one_card_of_each_exhibition_highest_number_first():
    t = castle_table()
    go(t, [C, C, C, C], [EXH, EXH, thf(5), thf(8)])
    t.play(
        {
            "type": "exhibitions",
            "shows": [
                hand("A 1600", "B 1700", "C 1800"),
                hand("B 1650", "C 1750", "D 1850"),
                None,
                None,
            ],
        }
    )
    assert adel.actions(t.state)["thief"] == 8
    refused(t.state, {"type": "steal", "thief": 5, "cards": [None] * 4}, "Thief 8 steals first")
    t.play({"type": "steal", "thief": 8, "cards": [card("A 1600"), card("D 1850"), None, None]})
    t.play({"type": "steal", "thief": 5, "cards": [card("C 1800"), card("B 1650"), None, None]})
    hands = [p["hand"] for p in t.state["players"]]
    assert card("A 1600") in hands[3] and card("D 1850") in hands[3]
    assert card("C 1800") in hands[2] and card("B 1650") in hands[2]
    # Exhibited cards go back to their owners, less what was stolen.
    assert hands[0] == hand("F 1900", "B 1700")
    assert t.state["phase"] == "review"


def test_castle_thief_must_take_a_card_from_every_exhibition_that_is_in_it():
    t = castle_table()
    go(t, [C, C, C, C], [EXH, DET, thf(5), DET])
    t.play({"type": "exhibitions", "shows": [hand("A 1600", "B 1700", "C 1800"), None, None, None]})
    refused(t.state, {"type": "steal", "cards": [None] * 4}, "Choose the card the thief takes")
    refused(t.state, {"type": "steal", "cards": [card("F 1900"), None, None, None]}, "not in Ann")


def test_castle_detective_catches_every_thief_present_after_they_steal():
    t = castle_table()
    go(t, [C, C, C, C], [EXH, thf(4), thf(5), DET])
    t.play({"type": "exhibitions", "shows": [hand("A 1600", "B 1700", "C 1800"), None, None, None]})
    t.play({"type": "steal", "cards": [card("A 1600"), None, None, None]})
    t.play({"type": "steal", "cards": [card("B 1700"), None, None, None]})
    assert t.state["jail"] == [{"owner": 2, "number": 5}, {"owner": 1, "number": 4}]
    assert 4 not in t.state["players"][1]["thieves"] and 5 not in t.state["players"][2]["thieves"]
    assert card("A 1600") in t.state["players"][2]["hand"]


def test_castle_detective_catches_thieves_even_when_nobody_exhibited():
    t = castle_table()
    go(t, [C, C, A, A], [thf(1), DET, chk(31), chk(41)])
    t.play({"type": "buy", "pile": 0})
    assert t.state["jail"] == [{"owner": 0, "number": 1}]


def test_castle_thieves_without_a_detective_go_back_to_their_owners():
    t = castle_table()
    go(t, [C, C, C, C], [EXH, thf(4), EXH, DET])
    t.state  # noqa: B018 - the turn is at the exhibitions
    t2 = castle_table()
    go(t2, [C, C, A, A], [EXH, thf(4), chk(31), chk(41)])
    t2.play({"type": "buy", "pile": 0})
    t2.play(
        {"type": "exhibitions", "shows": [hand("A 1600", "B 1700", "C 1800"), None, None, None]}
    )
    t2.play({"type": "steal", "cards": [card("C 1800"), None, None, None]})
    assert t2.state["jail"] == [] and t2.state["players"][1]["thieves"] == [3, 4]


def test_prison_newly_caught_in_cell_1_lower_number_first_pushed_past_last_returns():
    jail = [{"owner": 0, "number": 1}, {"owner": 1, "number": 3}]
    caught = [{"owner": 2, "number": 6}, {"owner": 1, "number": 4}]
    after, released = castle.imprison(jail, caught, 3)
    assert after == [
        {"owner": 2, "number": 6},
        {"owner": 1, "number": 4},
        {"owner": 0, "number": 1},
    ]
    assert released == [{"owner": 1, "number": 3}]


def test_prison_a_released_thief_is_its_owners_to_play_again():
    t = table(2, "surprise")
    t.state["jail"] = [{"owner": 0, "number": 1}, {"owner": 1, "number": 3}]
    t.state["players"][0]["thieves"] = [2]
    t.state["players"][1]["thieves"] = [4]
    t.play({"type": "choices", "places": [C, C], "actions": [thf(2), DET]})
    assert t.state["jail"] == [{"owner": 0, "number": 2}, {"owner": 0, "number": 1}]
    assert t.state["players"][1]["thieves"] == [3, 4]


def test_prison_a_thief_in_prison_cannot_be_played():
    t = table(2, "surprise")
    t.state["jail"] = [{"owner": 0, "number": 1}]
    t.state["players"][0]["thieves"] = [2]
    move = {"type": "choices", "places": [C, C], "actions": [thf(1), DET]}
    refused(t.state, move, "Ann does not have that thief at hand")


def test_detective_moves_by_rank_taken_after_the_exhibition_moves_all_at_once():
    # Ann 12, Bob 9, Cid 9, Dee 4; Dee exhibits alone (+4 -> 8): ranks Ann 1, Bob 2, Cid 2.
    t = castle_table()
    go(t, [C, C, C, C], [thf(1), DET, DET, EXH])
    t.play({"type": "exhibitions", "shows": [None, None, None, hand("D 1605", "E 1606", "F 1607")]})
    t.play({"type": "steal", "cards": [None, None, None, card("F 1607")]})
    assert [p["position"] for p in t.state["players"]] == [12, 11, 11, 8]
    moved = [s for s in t.state["report"] if s["step"] == "detective"]
    assert [(s["seat"], s["rank"], s["spaces"]) for s in moved] == [(1, 2, 2), (2, 2, 2)]


def test_detective_ranks_tied_share_a_rank_next_rank_skipped():
    assert castle.ranks([12, 9, 9, 4]) == [1, 2, 2, 4]


def test_detective_that_catches_no_thief_moves_nobody():
    t = castle_table()
    go(t, [C, A, A, A], [DET, chk(21), chk(31), chk(41)])
    t.play({"type": "buy", "pile": 0})
    assert t.state["players"][0]["position"] == 12
    assert t.state["report"][-1]["step"] == "detective_idle"


# -- End -------------------------------------------------------------------------------------


def test_end_a_pawn_at_the_banquet_finishes_the_turn_then_the_final_exhibition():
    t = castle_table(positions=(28, 0, 0, 0), fraction=(4, 2))
    go(t, [C, C, C, C], [EXH, thf(4), DET, DET])
    t.play({"type": "exhibitions", "shows": [hand("A 1600", "B 1700", "C 1800"), None, None, None]})
    t.play({"type": "steal", "cards": [card("A 1600"), None, None, None]})
    # The turn finished: the detectives still moved (rank 2 of 4) after Ann reached 32.
    assert [p["position"] for p in t.state["players"]] == [32, 0, 2, 2]
    assert {"step": "banquet", "seat": 0} in t.state["report"]
    t.play({"type": "next"})
    assert t.state["phase"] == "final"


def test_end_final_exhibition_proposed_from_tracked_hands_best_plus_8_second_plus_4():
    t = castle_table(positions=(28, 27, 0, 0))
    t.state["phase"], t.state["players"][0]["position"] = "final", 30
    proposals = adel.actions(t.state)["proposals"]
    assert proposals[0] == hand("A 1600", "B 1700", "C 1800")
    assert proposals[1] == hand("B 1650", "C 1750", "D 1850", "E 1610")
    assert proposals[2] == hand("A 1601", "A 1602", "B 1603")
    t.play({"type": "final", "shows": proposals})
    assert [p["position"] for p in t.state["players"]] == [34, 35, 0, 0]
    # Cid and Dee both stay at 0: Cid's A A B (A 1601) is older than Dee's D E F (D 1605).
    assert t.state["ranks"] == [2, 1, 3, 4]


def test_end_tie_on_the_track_goes_to_the_better_final_exhibition_still_tied_shared():
    from scoring.adel_verpflichtet.ending import final_ranks

    big, small = hand("A 1700", "B 1700", "C 1700", "D 1700"), hand("A 1600", "B 1600", "C 1600")
    assert final_ranks([30, 30, 30], [small, big, []]) == [2, 1, 3]
    assert final_ranks([30, 30], [[], []]) == [1, 1]


def test_end_results_breakdown_adds_exhibition_detective_and_final_moves():
    t = castle_table(positions=(0, 0, 0, 0))
    go(t, [C, C, C, C], [EXH, thf(4), DET, DET])
    t.play({"type": "exhibitions", "shows": [hand("A 1600", "B 1700", "C 1800"), None, None, None]})
    t.play({"type": "steal", "cards": [card("C 1800"), None, None, None]})
    row = adel.results(t.state)["players"][2]
    assert row["breakdown"] == {"exhibitions": 0, "detectives": 2, "final": 0}
    assert row["score"] == 2


def test_end_refuses_a_final_exhibition_that_is_not_valid():
    t = castle_table()
    t.state["phase"] = "final"
    shows = [hand("A 1600", "C 1800", "F 1900"), [], [], []]
    refused(t.state, {"type": "final", "shows": shows}, "Ann's exhibition is not valid")


# -- Two players ------------------------------------------------------------------------------


def test_two_players_surprise_location_and_action_chosen_at_once_one_reveal():
    t = table(2, "surprise")
    assert t.state["phase"] == "choose" and adel.reveal_seats(t.state) == [0, 1]
    t.play({"type": "choices", "places": [A, C], "actions": [chk(11), DET]})
    assert t.state["phase"] == "buy"


def test_two_players_conflict_of_interest_odd_turns_auction_even_turns_castle():
    t = table(2, "conflict")
    assert t.state["phase"] == "action"
    assert adel.actions(t.state)["places"] == [A, A]
    t.play({"type": "actions", "actions": [chk(11), chk(21)]})
    t.play({"type": "buy", "pile": 0})
    t.play({"type": "next"})
    assert adel.actions(t.state)["places"] == [C, C]
    refused(t.state, {"type": "actions", "actions": [chk(11), DET]}, "cannot play that card")


# -- The box ----------------------------------------------------------------------------------


def test_box_shows_the_turns_step_and_track_progress_never_the_raid():
    t = castle_table(positions=(29, 0, 0, 0))
    shown = adel.device_display(t.state)
    assert shown == {"police": 5, "limit": 7, "round": 1, "rounds": 4, "seats": 4}
    t.state["players"][0]["position"] = 60
    assert adel.device_display(t.state)["police"] == 6


# -- Bad input: refused by name, nothing changes ----------------------------------------------


def test_a_check_already_spent_at_the_auction_house_cannot_be_played_again():
    t = table(3)
    go(t, [A, C, C], [chk(14), DET, DET])
    t.play({"type": "buy", "pile": 0})
    t.play({"type": "next"})
    t.play({"type": "locations", "places": [A, C, C]})
    refused(t.state, {"type": "actions", "actions": [chk(14), DET, DET]}, "Ann does not hold")


def test_a_check_stolen_away_is_no_longer_its_first_owners():
    t = table(3)
    go(t, [A, A, C], [chk(14), thf(3), DET])
    t.play({"type": "buy", "pile": 0})
    t.play({"type": "next"})
    t.play({"type": "locations", "places": [A, A, C]})
    refused(t.state, {"type": "actions", "actions": [chk(14), chk(21), DET]}, "Ann does not")
    t.play({"type": "actions", "actions": [chk(11), chk(14), DET]})
    assert adel.actions(t.state)["buyer"] == 1


def test_unknown_setup_field_and_move_field_are_refused_by_name():
    with pytest.raises(InvalidSetup, match='Unknown setup field "colour"'):
        adel.new_table({**setup(3), "colour": "red"})
    t = table(3)
    move = {"type": "locations", "places": [A, C, C], "seat": 1}
    refused(t.state, move, 'Unknown field "seat" in a move of type locations')


def test_a_true_or_text_where_a_number_belongs_is_refused():
    t = table(3)
    t.play({"type": "locations", "places": [A, C, C]})
    move = {"type": "actions", "actions": [{"card": "check", "value": True}, DET, DET]}
    refused(t.state, move, "Ann")
    go_buy = table(3)
    go(go_buy, [A, C, C], [chk(11), DET, DET])
    refused(go_buy.state, {"type": "buy", "pile": True, "next": None}, "Choose the pile")
