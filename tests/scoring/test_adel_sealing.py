"""Adel Verpflichtet on the players' phones: what each seat may seal, the refusals, and the one
move the sealed choices make (RULES.md §4; scoring/sealed.py's contract, issue 31).

The unshuffled test deck deals Ann A B C D, Bob E F A B, Cid C D E F (tests/scoring/adel_play.py).
"""

import pytest

from scoring import adel_verpflichtet as adel
from scoring import sealed
from scoring.errors import IllegalMove
from tests.scoring.adel_play import card, hand, table, untracked

A, C = "auction", "castle"
DET, EXH = {"card": "detective"}, {"card": "exhibit"}


def chk(value: int) -> dict:
    """A check action card."""
    return {"card": "check", "value": value}


def thf(number: int) -> dict:
    """A thief action card."""
    return {"card": "thief", "value": number}


def sealed_turn(state: dict, choices: dict) -> dict:
    """Every seat's choice checked as a phone's seal is, then the move they make, applied."""
    checked = {seat: sealed.check(adel, state, seat, choice) for seat, choice in choices.items()}
    move = sealed.move(adel, state, checked)
    assert move is not None
    return adel.apply(state, move)


def at_castle(t, played: list[dict]) -> dict:
    """Everyone at the castle with these action cards (entered by the scorer)."""
    t.play({"type": "locations", "places": [C] * len(played)})
    return t.play({"type": "actions", "actions": played})


# -- Each turn: the location, sealed ----------------------------------------------------------


def test_each_turn_location_every_seat_seals_auction_house_or_castle():
    """RULES.md §4 "Each turn": all players secretly and simultaneously choose a location."""
    state = table(3).state
    assert sealed.supports(adel)
    assert sealed.choosing_seats(adel, state) == [0, 1, 2] == adel.reveal_seats(state)
    assert all(sealed.options(adel, state, seat) == [A, C] for seat in range(3))
    after = sealed_turn(state, {0: C, 1: A, 2: C})
    assert after["places"] == [C, A, C] and after["phase"] == "action"


def test_each_turn_location_anything_else_is_refused():
    state = table(3).state
    for wrong in ("garden", None, ["castle"], {"place": C}):
        with pytest.raises(IllegalMove, match="Ann: choose the auction house or the castle"):
            sealed.check(adel, state, 0, wrong)


def test_each_turn_no_move_until_every_seat_sealed():
    state = table(3).state
    assert sealed.move(adel, state, {0: C, 1: A}) is None


# -- Each turn: the action card, sealed ------------------------------------------------------


def test_each_turn_action_card_one_the_seat_holds_and_may_play_at_its_location():
    """RULES.md §4 "Each turn": then secretly and simultaneously an action card."""
    t = table(3)
    state = t.play({"type": "locations", "places": [C, A, C]})
    assert sealed.options(adel, state, 1) == [chk(21), chk(22), chk(23), chk(24), thf(3), thf(4)]
    assert sealed.options(adel, state, 0) == [EXH, thf(1), thf(2), DET]
    after = sealed_turn(state, {0: EXH, 1: chk(21), 2: DET})
    assert after["played"] == [EXH, chk(21), DET] and after["phase"] == "buy"


@pytest.mark.parametrize(
    ("seat", "wrong", "match"),
    [
        (1, chk(11), "Bob does not hold that check; Bob holds checks 21, 22, 23, 24"),
        (0, chk(11), "Ann cannot play that card there"),
        (1, DET, "Bob cannot play that card there"),
        (0, thf(3), "Ann does not have that thief at hand"),
        (1, "check:21", "Bob's action card is not one of"),
    ],
)
def test_each_turn_action_card_not_held_or_not_for_that_location_is_refused(seat, wrong, match):
    state = table(3).play({"type": "locations", "places": [C, A, C]})
    with pytest.raises(IllegalMove, match=match):
        sealed.check(adel, state, seat, wrong)


def test_each_turn_exhibit_needs_a_valid_exhibition_in_a_tracked_hand():
    """RULES.md §4 "Castle": Bob's E F A B holds no three letters in a row."""
    state = table(3).play({"type": "locations", "places": [C, C, C]})
    assert EXH not in sealed.options(adel, state, 1)
    with pytest.raises(IllegalMove, match="Bob holds no valid exhibition"):
        sealed.check(adel, state, 1, EXH)


def test_two_players_surprise_location_and_action_card_sealed_at_once():
    """RULES.md §4 "Two players": surprise, location and action chosen at once (one reveal)."""
    state = table(2, "surprise").state
    assert state["phase"] == "choose"
    options = sealed.options(adel, state, 0)
    assert {"place": A, "action": chk(11)} in options
    assert {"place": C, "action": EXH} in options
    assert {"place": C, "action": chk(11)} not in options
    with pytest.raises(IllegalMove, match="Ann: choose a location and an action card"):
        sealed.check(adel, state, 0, {"place": C, "action": chk(11)})
    after = sealed_turn(state, {0: {"place": C, "action": EXH}, 1: {"place": A, "action": chk(21)}})
    assert after["places"] == [C, A] and after["played"] == [EXH, chk(21)]


def test_two_players_conflict_of_interest_only_the_action_card_at_the_turns_place():
    """RULES.md §4 "Two players": conflict of interest, odd turns at the auction house."""
    state = table(2, "conflict").state
    assert state["phase"] == "action"
    assert sealed.options(adel, state, 0) == [chk(11), chk(12), chk(13), chk(14), thf(1), thf(2)]
    with pytest.raises(IllegalMove, match="Ann cannot play that card there"):
        sealed.check(adel, state, 0, DET)
    after = sealed_turn(state, {0: chk(12), 1: thf(3)})
    assert after["places"] == [A, A] and after["phase"] == "buy"


# -- Castle: each exhibitor enters their own cards --------------------------------------------


def test_castle_only_the_exhibitors_enter_their_cards_with_no_reveal_to_gate():
    """RULES.md §4 "Castle": exhibitors reveal at once; each enters their own exhibition."""
    state = at_castle(table(3), [EXH, DET, EXH])
    assert state["phase"] == "exhibit"
    assert adel.reveal_seats(state) == []  # no lock-in: the cards are laid out, not chosen
    assert sealed.choosing_seats(adel, state) == [0, 2]
    assert sealed.options(adel, state, 0) == [hand("A 1500", "B 1507", "C 1514", "D 1521")]
    assert sealed.options(adel, state, 1) == []
    with pytest.raises(IllegalMove, match="Bob has nothing to choose now"):
        sealed.check(adel, state, 1, hand("E 1528", "F 1535", "A 1542"))


def test_castle_an_exhibitor_may_show_fewer_cards_than_the_best_in_any_order():
    state = at_castle(table(3), [EXH, DET, EXH])
    shown = sealed.check(adel, state, 0, hand("C 1514", "A 1500", "B 1507"))
    assert shown == hand("A 1500", "B 1507", "C 1514")


@pytest.mark.parametrize(
    ("shown", "match"),
    [
        (hand("A 1500", "B 1507"), "Ann's exhibition is not valid"),
        (hand("A 1500", "C 1514", "D 1521"), "Ann's exhibition is not valid"),
        (hand("C 1556", "D 1563", "B 1507"), "C 1556 is already in Cid's hand"),
        (hand("A 1500", "B 1507", "C 1521"), "Ann does not hold C 1521"),
        (hand("A 1500", "A 1500", "B 1507"), "A 1500 is entered twice"),
        ("A B C", "Enter the cards Ann exhibits"),
        ([{"letter": "G", "year": 1}] * 3, "a collection card is a letter A to F"),
    ],
)
def test_castle_an_exhibition_not_valid_or_not_held_is_refused(shown, match):
    """RULES.md §4 "Castle" (3+ consecutive letters) and "Material" (a card in one place)."""
    state = at_castle(table(3), [EXH, DET, EXH])
    with pytest.raises(IllegalMove, match=match):
        sealed.check(adel, state, 0, shown)


def test_castle_the_exhibitions_entered_make_the_move_with_the_boards_fraction():
    state = at_castle(table(3), [EXH, DET, EXH])
    choices = {0: sealed.options(adel, state, 0)[0], 2: sealed.options(adel, state, 2)[0]}
    move = sealed.move(adel, state, choices)
    assert move == {"type": "exhibitions", "shows": [choices[0], None, choices[2]]}
    after = adel.apply(state, move)
    assert [p["gained"]["exhibitions"] for p in after["players"]] == [2, 0, 1]


def test_castle_without_the_leaders_fraction_the_entries_wait_for_the_scorer():
    """RULES.md §4: the fraction is a board value, the table's to enter (the whole table sees
    it); the phones' entries then only prefill the scorer's form."""
    t = table(3, fractions=[None] * 30)
    state = at_castle(t, [EXH, DET, EXH])
    choices = {0: sealed.options(adel, state, 0)[0], 2: sealed.options(adel, state, 2)[0]}
    assert sealed.move(adel, state, choices) is None
    assert sealed.move(adel, state, {0: choices[0]}) is None


def test_castle_hands_with_the_players_any_unseen_cards_up_to_the_count_held():
    """RULES.md §4 "Hidden information": the app learns a card when the table reveals it."""
    t = untracked(3)
    state = at_castle(t, [EXH, DET, EXH])
    assert sealed.options(adel, state, 0) == []  # nothing proposed: the app sees no hand
    shown = hand("D 1521", "B 1507", "C 1514")
    assert sealed.check(adel, state, 0, shown) == hand("B 1507", "C 1514", "D 1521")
    five = hand("A 1500", "B 1507", "C 1514", "D 1521", "E 1528")
    with pytest.raises(IllegalMove, match="Ann shows 5 cards the table has not seen"):
        sealed.check(adel, state, 0, five)
    assert state["piles"][0]["top"] == card("A 1584")
    with pytest.raises(IllegalMove, match="A 1584 is already on top of pile 1"):
        sealed.check(adel, state, 0, hand("A 1584", "B 1900", "C 1901"))


# -- End: the final exhibition, everyone's own ------------------------------------------------


def test_end_final_exhibition_everyone_enters_theirs_none_is_a_choice():
    """RULES.md §4 "End": everyone shows the largest valid exhibition they can; best +8."""
    t = table(3)
    t.state = {**t.state, "phase": "final"}
    state = t.state
    assert sealed.choosing_seats(adel, state) == [0, 1, 2]
    assert sealed.options(adel, state, 1) == [[]]  # Bob's hand holds no exhibition
    assert sealed.options(adel, state, 0) == [hand("A 1500", "B 1507", "C 1514", "D 1521"), []]
    with pytest.raises(IllegalMove, match="Bob's exhibition is not valid"):
        sealed.check(adel, state, 1, hand("E 1528", "F 1535"))
    after = sealed_turn(
        state, {0: sealed.options(adel, state, 0)[0], 1: [], 2: hand("C 1556", "D 1563", "E 1570")}
    )
    assert after["phase"] == "game_over"
    assert [p["gained"]["final"] for p in after["players"]] == [8, 0, 4]


def test_nothing_to_seal_while_the_table_resolves_the_turn():
    """RULES.md §4 "Auction house": the buyer's pick is what the whole table sees."""
    state = table(3).play({"type": "locations", "places": [C, A, C]})
    state = adel.apply(state, {"type": "actions", "actions": [EXH, chk(21), DET]})
    assert state["phase"] == "buy"
    assert sealed.choosing_seats(adel, state) == []
    assert adel.sealed_move(state, {}) is None
    with pytest.raises(IllegalMove, match="Bob has nothing to choose now"):
        sealed.check(adel, state, 1, 0)
