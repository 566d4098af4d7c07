"""For Sale rules, one test per rule of RULES.md §2, including the rulebook's worked examples."""

import random

import pytest

from scoring import for_sale
from scoring.errors import IllegalMove, InvalidSetup
from scoring.for_sale.queries import round_in_play
from scoring.for_sale.selling import ranks
from tests.scoring.for_sale_play import (
    FILIP,
    JIRI,
    NAMES,
    VALERIE,
    buy_all,
    everyone_passes,
    lowest_each,
    play,
    started,
)

#: Ten buying rounds of three houses that put 28 in Filip's hand when Valerie starts.
_OTHERS = [house for house in range(1, 31) if house not in (3, 16, 28)]
THREE_PLAYER_ROUNDS = [[3, 16, 28], *[_OTHERS[i : i + 3] for i in range(0, 27, 3)]]


def refused(state: dict, move: dict, message: str) -> None:
    """The move is refused with `message` in its sentence and the state is unchanged."""
    before = repr(state)
    with pytest.raises(IllegalMove, match=message):
        for_sale.apply(state, move)
    assert repr(state) == before


# -- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "coins"), [(3, 28), (4, 21), (5, 16), (6, 14)])
def test_coins_per_player_by_player_count(count, coins):
    """§2 "Coins per player": 3 players 28 (ALBI edition), 4 21, 5 16, 6 14."""
    state = for_sale.new_table({"players": [f"P{i}" for i in range(count)]})
    assert [player["coins"] for player in state["players"]] == [coins] * count


@pytest.mark.parametrize("count", [2, 7])
def test_three_to_six_players(count):
    """§2 header: 3-6 players."""
    with pytest.raises(InvalidSetup, match="3 to 6 players"):
        for_sale.new_table({"players": [f"P{i}" for i in range(count)]})


@pytest.mark.parametrize(
    ("count", "variant", "in_play"),
    [(3, False, 30), (4, False, 28), (5, False, 30), (6, False, 30)]
    + [(3, True, 20), (4, True, 30), (5, True, 27), (6, True, 30)],
)
def test_cards_removed_unseen_at_setup(count, variant, in_play):
    """§2: 4 players remove 2 houses and 2 checks; the variant removes 10 (3p) or 3 (5p)."""
    state = for_sale.new_table({"players": [f"P{i}" for i in range(count)], "variant": variant})
    assert state["in_play"] == in_play


def test_four_players_enter_seven_rounds_and_then_the_selling_starts():
    """§2: with 4 players the 2 unseen houses leave 28: seven buying rounds of four."""
    state = started(["A", "B", "C", "D"])
    rounds = [[4 * r + 1, 4 * r + 2, 4 * r + 3, 4 * r + 4] for r in range(7)]
    state = buy_all(state, rounds)
    assert state["phase"] == "selling"
    assert for_sale.actions(state)["count"] == 4


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"players": ["A", "B", "C"], "variant": "yes"}, "variant must be true or false"),
        ({"players": ["A", "B", "C"], "refund": "half"}, "refund must be up"),
        ({"players": ["A", "B", "C"], "speed": 1}, "Unknown setup field"),
        ({"players": ["A", "B", "a"]}, "same name"),
        ({"players": ["A", "B", " "]}, "needs a name"),
        ("A, B, C", "must be an object"),
    ],
)
def test_bad_setup_is_refused_with_a_reason(setup, message):
    """A setup the game cannot start with names the field."""
    with pytest.raises(InvalidSetup, match=message):
        for_sale.new_table(setup)


def test_start_player_by_lot_is_drawn_once_and_recorded():
    """§2 "The first round starts with a random player": the draw is written into the move."""
    state = for_sale.new_table({"players": NAMES})
    move = for_sale.complete_move(state, {"type": "start"}, random.Random(7))
    assert move["seat"] == random.Random(7).randrange(3)
    after = for_sale.apply(state, move)
    assert after["start_player"] == after["leader"] == move["seat"]
    assert for_sale.actions(after)["leader"] == move["seat"]
    assert for_sale.complete_move(state, {"type": "start", "seat": 2}, random.Random(7)) == {
        "type": "start",
        "seat": 2,
    }


# -- phase 1, buying ------------------------------------------------------------------------


def test_rulebook_bidding_round_with_filip_valerie_and_jiri():
    """§2 worked example: Filip 1, Valerie 2, Jiří 3, Filip 4; Valerie and Jiří pass."""
    state = play(started(start=FILIP), {"type": "houses", "houses": [2, 28, 14]})
    state = play(
        state,
        {"type": "bid", "seat": FILIP, "coins": 1},
        {"type": "bid", "seat": VALERIE, "coins": 2},
        {"type": "bid", "seat": JIRI, "coins": 3},
        {"type": "bid", "seat": FILIP, "coins": 4},  # adds 3 coins to his stack of 1
    )
    assert state["players"][FILIP]["bid"] == 4 and state["players"][FILIP]["coins"] == 24
    state = play(state, {"type": "pass", "seat": VALERIE})
    valerie = state["players"][VALERIE]
    assert valerie["houses"] == [2] and valerie["coins"] == 27  # back 1 of 2
    state = play(state, {"type": "pass", "seat": JIRI})
    jiri, filip = state["players"][JIRI], state["players"][FILIP]
    assert jiri["houses"] == [14] and jiri["coins"] == 27  # back 2 of 3
    assert filip["houses"] == [28] and filip["coins"] == 24  # pays all 4
    assert state["coins_out"] == 1 + 1 + 4
    assert state["phase"] == "buying" and state["leader"] == FILIP  # he took the highest


def test_refund_house_rule_rounds_down():
    """§2 house-rule option: the refund is half rounded down (Jiří's 3 gives back 1)."""
    state = play(
        started(start=FILIP, refund="down"),
        {"type": "houses", "houses": [2, 28, 14]},
        {"type": "bid", "seat": FILIP, "coins": 1},
        {"type": "bid", "seat": VALERIE, "coins": 2},
        {"type": "bid", "seat": JIRI, "coins": 3},
        {"type": "pass", "seat": FILIP},
        {"type": "pass", "seat": VALERIE},
    )
    assert [p["coins"] for p in state["players"]] == [27, 27, 25]  # 1 -> 0, 2 -> 1 back
    assert [p["spent"] for p in state["players"]] == [1, 1, 3]


def test_the_first_bid_may_be_zero_and_later_bids_must_be_higher():
    """§2: the first bid may be any amount, even 0; every later bid must exceed it."""
    state = play(started(), {"type": "houses", "houses": [5, 6, 7]})
    state = play(state, {"type": "bid", "seat": 0, "coins": 0})
    refused(state, {"type": "bid", "seat": 1, "coins": 0}, "higher than the highest bid of 0")
    state = play(state, {"type": "bid", "seat": 1, "coins": 1})
    assert state["auction"]["turn"] == 2


def test_a_bid_needs_coins_the_player_owns():
    """§2: raise only with coins you own; the refusal stands on the shared screen, so it
    does not say how many ("Mince mohou být drženy tajně")."""
    state = play(started(), {"type": "houses", "houses": [5, 6, 7]})
    refused(state, {"type": "bid", "seat": 0, "coins": 29}, "not enough coins besides the bid")
    state = play(state, {"type": "bid", "seat": 0, "coins": 28})
    refused(state, {"type": "bid", "seat": 1, "coins": 29}, "cannot bid 29 coins: not enough")
    assert for_sale.actions(state)["min_bid"] is None  # Valerie cannot beat 28: pass only


def test_a_player_without_coins_must_pass():
    """§2: a player who has no coins must pass."""
    state = play(
        started(), {"type": "houses", "houses": [5, 6, 7]}, {"type": "bid", "seat": 0, "coins": 28}
    )
    state = play(state, {"type": "pass", "seat": 1}, {"type": "pass", "seat": 2})
    assert state["players"][0]["coins"] == 0
    state = play(state, {"type": "houses", "houses": [1, 2, 3]})
    refused(state, {"type": "bid", "seat": 0, "coins": 0}, "no coins left and must pass")


def test_bids_go_clockwise_from_the_round_leader_skipping_passed_players():
    """§2: in turn, bid or pass; a player who passed is out of this round."""
    state = play(started(start=1), {"type": "houses", "houses": [5, 6, 7]})
    refused(state, {"type": "bid", "seat": 0, "coins": 1}, "Valerie's turn to bid or pass")
    state = play(state, {"type": "pass", "seat": 1}, {"type": "bid", "seat": 2, "coins": 1})
    assert state["auction"]["turn"] == 0
    state = play(state, {"type": "bid", "seat": 0, "coins": 2})
    assert state["auction"]["turn"] == 2  # Valerie is out


def test_houses_are_numbered_1_to_30_and_never_turned_over_twice():
    """§2 "Cards": houses 1-30, one each; the app refuses a number already entered."""
    state = everyone_passes(started(), [4, 9, 30])
    refused(state, {"type": "houses", "houses": [4, 10, 11]}, "House 4 has already")
    refused(state, {"type": "houses", "houses": [10, 10, 11]}, "House 10 has already")
    refused(state, {"type": "houses", "houses": [0, 10, 11]}, "There is no house 0")
    refused(state, {"type": "houses", "houses": [31, 10, 11]}, "There is no house 31")
    refused(state, {"type": "houses", "houses": [10, 11]}, "Enter the 3 houses")
    refused(state, {"type": "bid", "seat": 0, "coins": 1}, "Enter the houses turned over")


# -- phase 2, selling -----------------------------------------------------------------------


def selling_table() -> dict:
    """Three players after the buying phase; Filip holds 28, Jiří 16 and Valerie 3."""
    return buy_all(started(start=VALERIE), THREE_PLAYER_ROUNDS)


def test_rulebook_selling_round_with_filip_jiri_and_valerie():
    """§2 worked example (seed p.7): Filip's highest house takes $13,000, Jiří's $12,000,
    Valerie's lowest the $0 check. The seed lost the house numbers; Filip's "2" is 28 with
    the dropped 8, and Jiří's and Valerie's are any two lower houses they hold."""
    state = selling_table()
    hands = [set(p["houses"]) for p in state["players"]]
    assert 28 in hands[FILIP] and 16 in hands[JIRI] and 3 in hands[VALERIE]
    state = play(state, {"type": "checks", "checks": [0, 13000, 12000]})
    assert for_sale.reveal_seats(state) == [FILIP, VALERIE, JIRI]
    state = play(state, {"type": "sell", "houses": [28, 3, 16]})
    assert [p["checks"] for p in state["players"]] == [[13000], [0], [12000]]
    assert 28 not in state["players"][FILIP]["houses"] and 28 in state["houses_out"]
    assert for_sale.reveal_seats(state) == []
    assert state["phase"] == "selling"


def test_a_player_can_only_reveal_a_house_they_hold():
    """§2 "Phase 2": each player picks a house from their own hand; nothing changes if not."""
    state = play(selling_table(), {"type": "checks", "checks": [0, 13000, 12000]})
    refused(state, {"type": "sell", "houses": [16, 3, 28]}, "Filip does not hold house 16")
    refused(state, {"type": "sell", "houses": [28, 3]}, "one revealed house per seat")
    refused(state, {"type": "sell", "houses": [28, None, 16]}, "house Valerie revealed")
    refused(state, {"type": "checks", "checks": [2000, 3000, 4000]}, "houses everyone revealed")


def test_checks_come_from_the_deck_two_of_each():
    """§2 "Cards": two $0 and two each of $2,000 ... $15,000."""
    state = selling_table()
    refused(state, {"type": "checks", "checks": [1000, 2000, 3000]}, "no check of 1,000")
    refused(state, {"type": "checks", "checks": [0, 0, 0]}, "only two checks of 0")
    refused(state, {"type": "checks", "checks": [2000, 3000]}, "Enter the 3 checks")
    refused(state, {"type": "sell", "houses": [28, 3, 16]}, "checks turned over for the next")


def test_the_game_ends_when_every_check_is_handed_out_and_money_decides():
    """§2 "End": money = checks + coins x $1,000; the richest wins."""
    state = selling_table()
    deck = [value for value in (0, *range(2000, 16000, 1000)) for _ in range(2)]
    for first in range(0, 30, 3):
        assert state["phase"] == "selling"
        state = play(state, {"type": "checks", "checks": deck[first : first + 3]})
        state = play(state, {"type": "sell", "houses": lowest_each(state)})
    assert state["phase"] == "game_over"
    final = for_sale.results(state)
    for player, row in zip(state["players"], final["players"], strict=True):
        assert row["score"] == sum(player["checks"]) + player["coins"] * 1000
        assert row["breakdown"] == {"checks": sum(player["checks"]), "coins": 28000}
    refused(state, {"type": "checks", "checks": [0]}, "The game is over")


def test_more_coins_break_a_tie_of_money_then_it_is_shared():
    """§2 "End": tie -> more coins; still tied -> shared win."""
    players = [
        {"checks": [5000], "coins": 3, "bid": 0},
        {"checks": [6000], "coins": 2, "bid": 0},
        {"checks": [5000], "coins": 3, "bid": 0},
        {"checks": [], "coins": 1, "bid": 0},
    ]
    assert ranks(players) == [1, 3, 1, 4]


# -- the variant "Na každého se nedostane!" -----------------------------------------------


def test_variant_turns_over_one_house_fewer_and_the_first_to_pass_gets_all_coins_back():
    """§2 variant: players - 1 houses; the first passer takes back all coins, no house."""
    state = started(start=FILIP, variant=True)
    assert for_sale.actions(state)["count"] == 2
    refused(state, {"type": "houses", "houses": [1, 2, 3]}, "Enter the 2 houses")
    state = play(
        state,
        {"type": "houses", "houses": [8, 20]},
        {"type": "bid", "seat": FILIP, "coins": 3},
        {"type": "bid", "seat": VALERIE, "coins": 5},
        {"type": "pass", "seat": JIRI},
        {"type": "pass", "seat": FILIP},
    )
    filip, valerie, jiri = state["players"]
    assert jiri["houses"] == [] and jiri["coins"] == 28
    assert filip["houses"] == [8] and filip["coins"] == 27  # 3 bid, 2 back
    assert valerie["houses"] == [20] and valerie["coins"] == 23


def test_variant_selling_deals_checks_to_holders_and_the_last_holder_takes_the_rest():
    """§2 variant: as many checks as players still holding houses; a lone holder takes all."""
    state = started(start=FILIP, variant=True)
    # Each round the leader passes first (no house), the next takes the low house and the
    # third the high one and leads next: hands end up uneven.
    state = buy_all(state, [[2 * r + 1, 2 * r + 2] for r in range(10)])
    sizes = [len(p["houses"]) for p in state["players"]]
    assert sum(sizes) == 20 and state["phase"] == "selling"
    deck = [v for v in (0, *range(2000, 16000, 1000)) for _ in range(2)][:20]
    while state["phase"] != "game_over":
        holders = [s for s, p in enumerate(state["players"]) if p["houses"]]
        due = for_sale.actions(state)["count"]
        left = 20 - len(state["checks_seen"])
        assert due == (left if len(holders) == 1 else len(holders))
        checks, deck = deck[:due], deck[due:]
        state = play(state, {"type": "checks", "checks": checks})
        if len(holders) == 1:
            assert state["phase"] == "game_over"
            assert state["sales"][-1]["got"][holders[0]] == sorted(checks, reverse=True)
            break
        assert for_sale.reveal_seats(state) == holders
        state = play(state, {"type": "sell", "houses": lowest_each(state)})
    assert len(state["checks_seen"]) == 20


# -- issue 14: the "pays nothing" sentence as §2 decides ------------------------------------


def test_rules_2_a_player_who_has_not_bid_pays_nothing_when_passing():
    """§2 "pays nothing": a player without a bid who passes takes the lowest house, and no
    coin of theirs leaves the game."""
    state = play(started(start=FILIP), {"type": "houses", "houses": [2, 28, 14]})
    assert for_sale.buying.pass_gets(state) == {"house": 2, "back": 0, "bid": 0}
    state = play(state, {"type": "pass", "seat": FILIP})
    filip = state["players"][FILIP]
    assert filip["houses"] == [2] and filip["coins"] == 28 and filip["spent"] == 0
    assert state["coins_out"] == 0


def test_rules_2_a_player_who_has_bid_and_cannot_raise_passes_and_gets_half_back():
    """§2 "pays nothing" is not for a player who has bid: without money to raise they must
    pass and get half their bid back, rounded up; the rest leaves the game."""
    state = play(
        started(start=FILIP),
        {"type": "houses", "houses": [2, 28, 14]},
        {"type": "bid", "seat": FILIP, "coins": 3},
        {"type": "bid", "seat": VALERIE, "coins": 28},
        {"type": "pass", "seat": JIRI},  # no bid: pays nothing
    )
    assert state["players"][JIRI]["coins"] == 28
    assert for_sale.actions(state)["min_bid"] is None  # Filip's 3 + 25 cannot beat 28
    refused(state, {"type": "bid", "seat": FILIP, "coins": 29}, "cannot bid 29 coins")
    assert for_sale.buying.pass_gets(state) == {"house": 14, "back": 2, "bid": 3}
    state = play(state, {"type": "pass", "seat": FILIP})
    filip = state["players"][FILIP]
    assert filip["houses"] == [14] and filip["coins"] == 25 + 2 and filip["spent"] == 1


def test_the_round_shown_while_its_cards_are_turned_over_is_the_round_about_to_be_played():
    """§2: a round starts by turning over its cards; until then the table is in that round."""
    state = started()
    assert state["phase"] == "buying" and round_in_play(state) == 1
    state = everyone_passes(state, THREE_PLAYER_ROUNDS[0])
    assert state["phase"] == "buying" and round_in_play(state) == 2
    state = buy_all(state, THREE_PLAYER_ROUNDS[1:])
    assert state["phase"] == "selling" and round_in_play(state) == 1
    assert for_sale.summary(state)["round"] == 1 and for_sale.summary(state)["rounds"] == 10
