"""Cech zlodějů cards that say what they did (issue 23 items 4 and 7), RULES.md §3 "Cards"."""

import random

import pytest

from scoring import thieves_guild
from scoring.errors import IllegalMove
from scoring.thieves_guild.queries import ledger_ok
from tests.scoring.thieves_guild_play import after, gold, started, with_gold
from tests.scoring.thieves_guild_random import COSTS, names, play

#: The seed's sentence (Cech zlodějů, "Další pravidlo Cechu zlodějů").
LAST_GOLD = "Zloděj nikdy nesmí připravit sám sebe o poslední zlatý"


def refused(state: dict, move: dict, match: str) -> IllegalMove:
    """The move is refused with a message matching `match`; the state is left as it was."""
    before = repr(state)
    with pytest.raises(IllegalMove, match=match) as caught:
        thieves_guild.apply(state, move)
    assert repr(state) == before
    return caught.value


def looted(count: int = 4, *gold_each: int) -> dict:
    """Eva (seat 0) has rolled 2 for the loot; the players hold `gold_each` (default 13)."""
    state = started(count)
    if gold_each:
        state = with_gold(state, *gold_each)
    return after(state, {"type": "loot", "roll": 2})


def test_the_seed_sentence_is_the_one_cited():
    """The rule below quotes the seed word for word."""
    with open("/work/shared/seeds/002_b7b693e9a69e0c99.txt", encoding="utf-8") as seed:
        assert LAST_GOLD in seed.read()


# -- the last-gold rule for card effects (seed: "Zloděj nikdy nesmí připravit sám sebe o
#    poslední zlatý"; RULES.md §3 "Turn" 1) ---------------------------------------------------


def test_last_gold_a_card_cannot_make_its_own_player_give_away_their_last_gold():
    """Seed: "Zloděj nikdy nesmí připravit sám sebe o poslední zlatý": refused, nothing changes."""
    state = looted(4, 13, 3, 13, 13)
    move = {
        "type": "card",
        "seat": 1,
        "card": "Trezor",
        "transfers": [{"from": 1, "to": "bank", "gold": 3}],
    }
    error = refused(state, move, "Petr cannot give away their last gold with their own card")
    assert error.field == "gold"


def test_last_gold_counts_every_effect_of_the_card_together():
    """Two effects that leave the player at 0 are refused; one that pays back is not."""
    state = looted(4, 13, 3, 13, 13)
    gives_all = {
        "type": "card",
        "seat": 1,
        "card": "Drzost",
        "transfers": [{"from": 1, "to": 2, "gold": 2}, {"from": 1, "to": "bank", "gold": 1}],
    }
    refused(state, gives_all, "last gold")
    paid_back = {
        **gives_all,
        "transfers": [*gives_all["transfers"], {"from": 3, "to": 1, "gold": 1}],
    }
    state = after(state, paid_back)
    assert gold(state) == [13, 1, 15, 12] and ledger_ok(state)


def test_last_gold_a_card_may_keep_one_gold():
    """Giving all but one gold is the player's choice; the last one stays."""
    state = looted(4, 13, 3, 13, 13)
    state = after(
        state,
        {
            "type": "card",
            "seat": 1,
            "card": "Trezor",
            "transfers": [{"from": 1, "to": 0, "gold": 2}],
        },
    )
    assert gold(state) == [15, 1, 13, 13] and state["phase"] == "reaction"


def test_last_gold_taking_another_players_last_gold_is_robbery_not_this_rule():
    """A card that takes someone else's last gold is allowed: it ends the game (§3 "End")."""
    state = looted(4, 13, 3, 13, 13)
    state = after(
        state,
        {
            "type": "card",
            "seat": 0,
            "card": "Drzost",
            "transfers": [{"from": 1, "to": 0, "gold": 3}],
        },
    )
    assert gold(state)[1] == 0 and state["phase"] == "ending"


def test_last_gold_a_player_already_at_0_reacting_is_not_refused():
    """In the sudden end the broke player's reaction gives nothing of theirs away."""
    state = looted(4, 13, 3, 13, 13)
    state = after(
        state,
        {
            "type": "card",
            "seat": 0,
            "card": "Drzost",
            "transfers": [{"from": 1, "to": 0, "gold": 3}],
        },
    )
    state = after(
        state,
        {
            "type": "card",
            "seat": 1,
            "card": "Alarm",
            "transfers": [{"from": 0, "to": 1, "gold": 2}],
        },
    )
    assert gold(state)[:2] == [14, 2] and state["phase"] == "ending"


def test_last_gold_the_random_tables_never_break_it():
    """Every card in many random games leaves its player with gold if they had any."""
    for seed in range(30):
        state = thieves_guild.new_table({"players": names(4), "card_costs": COSTS})
        _final, moves = play(4, random.Random(seed))
        for move in moves:
            if move["type"] == "card":
                seat = move["seat"]
                had = state["players"][seat]["gold"]
                state = thieves_guild.apply(state, move)
                gives = any(t["from"] == seat for t in move.get("transfers", []))
                assert not (gives and had and state["players"][seat]["gold"] == 0), move
            else:
                state = thieves_guild.apply(state, move)


# -- a card always says what it did: ending a robbery records the card ------------------------


def test_stop_ending_a_robbery_without_a_card_recorded_is_refused():
    """§3 "If no opponent reacts with a card": only a card stops a robbery, so it is recorded."""
    state = looted()
    refused(state, {"type": "end_turn"}, "Which card stopped the robbery")


def test_stop_the_card_and_the_end_of_the_turn_in_one_move():
    """`stop`: the card is recorded, leaves the hand, and the turn passes left."""
    state = looted(6)
    move = thieves_guild.complete_move(
        state, {"type": "card", "seat": 3, "card": "Alarm", "stop": True}, random.Random(0)
    )
    state = thieves_guild.apply(state, move)
    assert [p["cards"] for p in state["players"]] == [3, 3, 3, 2, 3, 3]
    assert state["turn"] == 1 and state["phase"] == "buy" and state["discard"] == 1
    assert [event["event"] for event in move["log"]] == ["card", "stopped", "turn"]


def test_stop_after_a_card_recorded_this_turn_the_turn_may_end():
    """A card recorded earlier in the turn (Alarm as a reaction) lets the table end the turn."""
    state = after(looted(), {"type": "card", "seat": 2, "card": "Alarm"})
    state = after(state, {"type": "end_turn"})
    assert state["turn"] == 1 and [p["cards"] for p in state["players"]] == [3, 3, 2, 3]


def test_stop_a_card_of_the_last_turn_does_not_count_for_this_one():
    """The count of cards recorded starts again with every turn."""
    state = after(looted(), {"type": "card", "seat": 2, "card": "Alarm", "stop": True})
    state = after(state, {"type": "loot", "roll": 3})
    refused(state, {"type": "end_turn"}, "Which card stopped the robbery")


def test_stop_the_table_may_confirm_that_no_card_was_played():
    """`no_card`: the table's word; the history line says no card was recorded."""
    state = looted()
    move = thieves_guild.complete_move(
        state, {"type": "end_turn", "no_card": True}, random.Random(0)
    )
    assert {"event": "stopped", "seat": 0, "no_card": True} in move["log"]
    state = thieves_guild.apply(state, move)
    assert state["turn"] == 1 and [p["cards"] for p in state["players"]] == [3] * 4


def test_stop_a_log_from_before_the_confirmation_replays_as_it_was_played():
    """An end_turn recorded before `no_card` existed (issue 23) carries its log ("stopped",
    no flag): replayed (an upgraded or imported club), the turn ends as it did then."""
    state = looted()
    recorded = {
        "type": "end_turn",
        "log": [{"event": "stopped", "seat": 0}, {"event": "turn", "seat": 1}],
    }
    state = thieves_guild.apply(state, recorded)
    assert state["turn"] == 1 and [p["cards"] for p in state["players"]] == [3] * 4


def test_stop_a_move_entered_now_needs_the_confirmation_whatever_log_it_brings():
    """Entry completes a move afresh (its own log dropped): an old-style log sent with a new
    end_turn does not stand in for the table's word."""
    state = looted()
    sent = {
        "type": "end_turn",
        "log": [{"event": "stopped", "seat": 0}, {"event": "turn", "seat": 1}],
    }
    completed = thieves_guild.complete_move(state, sent, random.Random(0))
    assert "log" not in completed
    refused(state, completed, "Which card stopped the robbery")


@pytest.mark.parametrize("value", [1, "true", None, [True]])
def test_stop_no_card_and_stop_are_true_or_false(value):
    state = looted()
    refused(state, {"type": "end_turn", "no_card": value}, "no_card: true or false")
    refused(
        state, {"type": "card", "seat": 1, "card": "Alarm", "stop": value}, "stop: true or false"
    )


def test_stop_a_card_in_the_sudden_end_stops_nothing():
    """After someone lost their last gold only reactions remain; there is no robbery to stop."""
    state = looted(4, 13, 3, 13, 13)
    state = after(
        state,
        {
            "type": "card",
            "seat": 0,
            "card": "Drzost",
            "transfers": [{"from": 1, "to": 0, "gold": 3}],
        },
    )
    refused(state, {"type": "card", "seat": 2, "card": "Alarm", "stop": True}, "nothing to stop")


def test_stop_a_card_that_takes_someones_last_gold_and_stops_the_robbery():
    """The sudden end comes first; should everyone have gold again, the next player goes on."""
    state = looted(4, 13, 3, 13, 13)
    move = {
        "type": "card",
        "seat": 0,
        "card": "Drzost",
        "transfers": [{"from": 1, "to": 0, "gold": 3}],
        "stop": True,
    }
    state = after(state, move)
    assert state["phase"] == "ending" and state["resume"] == "next_turn"
    state = after(
        state,
        {
            "type": "card",
            "seat": 1,
            "card": "Alarm",
            "transfers": [{"from": 0, "to": 1, "gold": 1}],
        },
        {"type": "settle"},
    )
    assert state["phase"] == "buy" and state["turn"] == 1


# -- one value per field: a chip and a typed value that disagree ------------------------------


def test_one_card_per_entry_two_names_are_refused_naming_both():
    state = looted()
    error = refused(state, {"type": "card", "seat": 1, "card": ["Drzost", "Past"]}, "Drzost / Past")
    assert error.field == "card"


def test_one_amount_per_gold_effect_two_amounts_are_refused_naming_both():
    state = looted()
    move = {
        "type": "card",
        "seat": 1,
        "card": "Drzost",
        "transfers": [{"from": 0, "to": 1, "gold": [2, 50]}],
    }
    error = refused(state, move, "2 / 50")
    assert error.field == "gold"


def test_a_seat_outside_the_table_is_refused_without_a_seat_number():
    """Setup numbers players from 1, moves from 0: the refusal names neither."""
    state = looted()
    error = refused(state, {"type": "card", "seat": 4, "card": "Alarm"}, "one of the 4 players")
    assert "0" not in str(error) and error.field == "seat"
