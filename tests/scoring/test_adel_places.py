"""Adel Verpflichtet: every card in one place, and hands left to the players (RULES.md §4).

RULES.md §4 "Material": "Each collection card is one physical card: a card (letter and year) is
in exactly one place (a hand, a pile, an exhibition on the table), so the same card entered in
a second place is a mistake. [...] the same year on a different letter is accepted with a
warning." §4 "Hidden information": "Hands are secret [...] bought cards are public".
"""

import copy

import pytest

from scoring import adel_verpflichtet as adel
from scoring.adel_verpflichtet.sheet import score_sheet
from scoring.errors import IllegalMove, InvalidSetup, InvalidSheet
from tests.scoring.adel_play import card, deck, hand, setup, split, table, untracked
from tests.scoring.test_adel_rules import EXH, chk, go, refused, thf

A, C = "auction", "castle"


# -- Setup -------------------------------------------------------------------------------------


def test_material_one_card_dealt_to_two_players_is_refused_naming_it():
    hands = setup(3)["hands"]
    hands[2][1] = hands[0][3]
    with pytest.raises(InvalidSetup) as refused_setup:
        adel.new_table(setup(3, hands=hands))
    assert str(refused_setup.value) == "Card 2 of player 3: D 1521 is already dealt to player 1."


def test_material_a_card_twice_in_one_hand_is_refused():
    hands = setup(3)["hands"]
    hands[1][2] = hands[1][0]
    with pytest.raises(InvalidSetup, match="Card 3 of player 2: E 1528 is already dealt"):
        adel.new_table(setup(3, hands=hands))


def test_material_a_pile_top_that_was_dealt_is_refused_naming_the_hand():
    values = setup(3)
    values["tops"] = [values["hands"][1][0], values["tops"][1]]
    with pytest.raises(InvalidSetup, match="Top card of pile 1: E 1528 is already dealt to pl"):
        adel.new_table(values)


def test_material_the_two_pile_tops_the_same_card_is_refused():
    values = setup(3)
    values["tops"] = [values["tops"][0]] * 2
    with pytest.raises(InvalidSetup, match="is already the top card of pile 1"):
        adel.new_table(values)


def test_hidden_information_without_hands_each_player_holds_4_unseen_cards():
    state = untracked(5).state
    assert state["tracked"] is False
    assert [(p["hand"], p["unseen"]) for p in state["players"]] == [([], 4)] * 5
    assert [pile["size"] for pile in state["piles"]] == [13, 12]


def test_material_a_year_on_two_letters_is_accepted_and_reported():
    values = setup(3)
    values["tops"] = [values["tops"][0], {"letter": "F", "year": values["tops"][0]["year"]}]
    state = adel.new_table(values)
    year = values["tops"][0]["year"]
    assert state["clashes"] == [
        {"year": year, "letters": sorted(["F", values["tops"][0]["letter"]])}
    ]
    assert adel.new_table(setup(3))["clashes"] == []


# -- The auction house -------------------------------------------------------------------------


def bought_by_ann(t) -> None:
    """Ann buys at the auction house with check 11; the others go to the castle."""
    go(t, [A, C, C], [chk(11), {"card": "detective"}, {"card": "detective"}])


def test_auction_the_card_coming_up_may_not_be_one_held():
    t = table()
    bought_by_ann(t)
    held = t.state["players"][1]["hand"][0]
    refused(t.state, {"type": "buy", "pile": 0, "next": held}, "E 1528 is already in Bob's hand")


def test_auction_the_card_coming_up_may_not_be_the_other_piles_top_or_the_card_bought():
    t = table()
    bought_by_ann(t)
    other, bought = t.state["piles"][1]["top"], t.state["piles"][0]["top"]
    refused(t.state, {"type": "buy", "pile": 0, "next": other}, "already on top of pile 2")
    refused(t.state, {"type": "buy", "pile": 0, "next": bought}, "already in Ann's hand")


def test_auction_hands_kept_a_bought_card_is_seen_and_cannot_come_up_again():
    t = untracked()
    bought_by_ann(t)
    first = t.state["piles"][0]["top"]
    t.play({"type": "buy", "pile": 0})
    assert t.state["players"][0]["hand"] == [first] and t.state["players"][0]["unseen"] == 4
    t.play({"type": "next"})
    go(t, [A, C, C], [chk(12), {"card": "detective"}, {"card": "detective"}])
    refused(t.state, {"type": "buy", "pile": 1, "next": first}, "already in Ann's hand")


def test_auction_the_stored_purchase_names_buyer_check_and_card():
    t = table()
    bought_by_ann(t)
    move = adel.complete_move(t.state, {"type": "buy", "pile": 0, "next": card("F 9999")}, None)
    assert move == {
        "type": "buy",
        "pile": 0,
        "next": card("F 9999"),
        "seat": 0,
        "check": 11,
        "card": t.state["piles"][0]["top"],
    }
    adel.apply(t.state, move)
    refused(t.state, {**move, "seat": 1}, "This purchase is Ann's with check 11")


def test_auction_paid_check_goes_to_the_register_as_its_own_step_a_stolen_one_does_not():
    t = table()
    go(t, [A, A, C], [chk(11), chk(21), {"card": "detective"}])
    t.play({"type": "buy", "pile": 0})
    assert [step["step"] for step in t.state["report"]][:2] == ["bought", "register"]
    t = table()
    go(t, [A, A, C], [chk(11), thf(3), {"card": "detective"}])
    t.play({"type": "buy", "pile": 0})
    steps = [step["step"] for step in t.state["report"]]
    assert "register" not in steps and "check_stolen" in steps


# -- The castle --------------------------------------------------------------------------------


def test_castle_hands_kept_exhibit_is_offered_to_anyone_holding_3_cards():
    t = untracked()
    t.play({"type": "locations", "places": [C, C, C]})
    assert all({"card": "exhibit"} in offered for offered in adel.actions(t.state)["cards"])


def exhibiting_table():
    """Hands kept: Ann and Cid exhibit, Bob's thief 3 is at the castle."""
    t = untracked()
    go(t, [C, C, C], [EXH, thf(3), EXH])
    return t


def test_castle_hands_kept_an_exhibition_reveals_cards_and_counts_them_off_the_unseen():
    t = exhibiting_table()
    ann = t.unseen[0][:3]  # A B C
    t.play({"type": "exhibitions", "shows": [ann, None, t.unseen[2][:3]]})
    assert t.state["players"][0]["unseen"] == 1 and t.state["shows"][0] == ann
    t.play({"type": "steal", "thief": 3, "cards": [ann[0], None, t.state["shows"][2][0]]})
    assert t.state["players"][0]["hand"] == ann[1:] and t.state["players"][0]["unseen"] == 1
    assert ann[0] in t.state["players"][1]["hand"]


def test_castle_a_card_in_two_exhibitions_is_refused_naming_the_first():
    t = exhibiting_table()
    shared = t.unseen[0][:3]
    move = {"type": "exhibitions", "shows": [shared, None, shared]}
    refused(t.state, move, "A 1500 is already in Ann's exhibition")


def test_castle_a_pile_top_in_an_exhibition_is_refused():
    t = exhibiting_table()
    top = t.state["piles"][0]["top"]  # the unshuffled deck: pile 1's top is A 1584
    shown = [top, card("B 1507"), card("C 1514")]
    move = {"type": "exhibitions", "shows": [shown, None, t.unseen[2][:3]]}
    refused(t.state, move, f"{top['letter']} {top['year']} is already on top of pile 1")


def test_castle_more_new_cards_than_the_hand_holds_unseen_is_refused():
    t = untracked()
    bought_by_ann(t)
    t.play({"type": "buy", "pile": 0})
    t.play({"type": "next"})
    go(t, [C, C, C], [EXH, {"card": "detective"}, EXH])
    strangers = hand("A 1", "B 2", "C 3", "D 4", "E 5")
    move = {"type": "exhibitions", "shows": [strangers, None, t.unseen[2][:3]]}
    refused(t.state, move, "Ann shows 5 cards the table has not seen before, but holds only 4")


def test_castle_tracked_hands_a_card_not_dealt_or_bought_is_refused_without_listing_the_hand():
    t = table()
    go(t, [C, C, C], [EXH, thf(3), EXH])
    cid = t.state["players"][2]["hand"][:3]
    move = {"type": "exhibitions", "shows": [hand("A 1", "B 1507", "C 1514"), None, cid]}
    with pytest.raises(IllegalMove) as refusal:
        adel.apply(t.state, move)
    assert "Ann does not hold A 1" in str(refusal.value)
    assert "D 1521" not in str(refusal.value)  # the rest of Ann's hand stays secret


def test_prison_two_thieves_caught_at_once_each_reported_in_the_cell_it_ends_in():
    """§4 "Castle": several caught at once go in lowest number first."""
    t = table()
    go(t, [C, C, C], [thf(1), thf(3), {"card": "detective"}])
    caught = {
        step["number"]: step["cell"] for step in t.state["report"] if step["step"] == "caught"
    }
    assert caught == {1: 2, 3: 1}
    assert [thief["number"] for thief in t.state["jail"]] == [3, 1]


# -- The end -----------------------------------------------------------------------------------


def test_end_hands_kept_nothing_proposed_the_shown_final_exhibitions_score():
    t = untracked(3, banquet=2)
    go(t, [C, C, C], [EXH, {"card": "detective"}, {"card": "detective"}])
    t.play({"type": "exhibitions", "shows": [t.unseen[0][:3], None, None]})
    t.play({"type": "next"})
    assert t.state["phase"] == "final"
    assert adel.actions(t.state)["proposals"] == [[], [], []]
    t.play({"type": "final", "shows": [t.state["players"][0]["hand"][:3], [], t.unseen[2][:3]]})
    assert t.state["phase"] == "game_over"
    assert [p["gained"]["final"] for p in t.state["players"]] == [8, 0, 4]


def test_summary_has_no_round_count_the_game_ends_at_the_banquet():
    summary = adel.summary(table().state)
    assert summary["round"] == 1 and summary["rounds"] is None


# -- The calculator (SCORESHEETS.md) -----------------------------------------------------------

CASTLE = {
    "game": "adel_verpflichtet",
    "kind": "castle",
    "players": ["A", "B", "C"],
    "positions": {"A": 3, "B": 2, "C": 1},
    "fraction": [3, 1],
}


def test_calculator_castle_one_card_in_two_exhibitions_is_refused_naming_it():
    shown = hand("B 1700", "C 1720", "D 1650")
    sheet = {**CASTLE, "exhibitions": {"A": shown, "B": [shown[2], *hand("E 1600", "F 1610")]}}
    with pytest.raises(InvalidSheet) as refusal:
        score_sheet(sheet)
    assert str(refusal.value) == (
        "exhibitions.B[0]: D 1650 is already in A's exhibition; each card is one physical card."
    )


def test_calculator_final_one_card_in_two_hands_or_twice_in_one_is_refused():
    sheet = {
        "game": "adel_verpflichtet",
        "kind": "final",
        "positions": {"A": 10, "B": 9},
        "hands": {"A": hand("A 1700", "B 1710"), "B": hand("B 1710")},
    }
    with pytest.raises(InvalidSheet, match=r"hands.B\[0\]: B 1710 is already in A's hand"):
        score_sheet(sheet)
    sheet["hands"] = {"A": hand("A 1700", "A 1700"), "B": []}
    with pytest.raises(InvalidSheet, match=r"hands.A\[1\]: A 1700 is already in A's hand"):
        score_sheet(sheet)


def test_calculator_a_year_on_two_letters_is_scored_with_a_warning():
    sheet = {
        "game": "adel_verpflichtet",
        "kind": "final",
        "positions": {"A": 10, "B": 10},
        "hands": {"A": hand("A 1700", "B 1710", "C 1720"), "B": hand("D 1700", "E 1711", "F 1712")},
    }
    result = score_sheet(sheet)
    assert result["clashes"] == [{"year": 1700, "letters": ["A", "D"]}]
    assert score_sheet({**sheet, "hands": {"A": [], "B": []}})["clashes"] == []


def test_junk_cards_entered_twice_never_change_the_state():
    t = exhibiting_table()
    before = copy.deepcopy(t.state)
    for shows in ([deck()[:3], None, deck()[:3]], [deck()[40:43], None, None]):
        with pytest.raises(IllegalMove):
            adel.apply(t.state, {"type": "exhibitions", "shows": shows})
    assert t.state == before
    assert split(deck(), 3)[0][0] == t.state["piles"][0]["top"]


def test_end_results_expose_the_tiebreak_the_final_exhibition_size_then_oldest_object():
    """§4 "End": "Furthest along wins; tie → better final exhibition"."""
    t = untracked(3, banquet=2)
    go(t, [C, C, C], [EXH, {"card": "detective"}, {"card": "detective"}])
    t.play({"type": "exhibitions", "shows": [t.unseen[0][:3], None, None]})
    t.play({"type": "next"})
    t.play({"type": "final", "shows": [t.state["players"][0]["hand"][:3], [], t.unseen[2][:3]]})
    final = adel.results(t.state)
    assert final["tiebreaks"] == ["final_cards", "oldest_object"]
    assert [row["tiebreak"] for row in final["players"]] == [[3, 1500], [0, None], [3, 1556]]
