"""Razzia! table rules, each test named after the rule of RULES.md §1 it checks."""

import pytest

from scoring import razzia
from scoring.errors import IllegalMove, InvalidSetup
from scoring.razzia import cards
from tests.scoring.razzia_play import dealt_table, family, play, player, seat

SEED_TABLE = ["Miriam", "Felix", "Elke", "Denis"]
# Miriam B (3,7,12), Felix C (4,8,11), Elke D (5,9,10), Denis A (2,6,13): Denis starts.
SEED_SETS = "BCDA"


def seed_table() -> dict:
    """The four players of the seed's examples, Denis holding the highest check."""
    return dealt_table(SEED_TABLE, SEED_SETS)


def test_checks_three_players_get_four_checks_each():
    """Checks by player count: 3 players play 1-13 with four checks each (the seed's slip)."""
    state = dealt_table(["A", "B", "C"], "CAB")
    assert [p["up"] for p in state["players"]] == [
        [4000, 7000, 10000, 11000],
        [2000, 5000, 8000, 13000],
        [3000, 6000, 9000, 12000],
    ]
    assert state["centre"] == 1000


@pytest.mark.parametrize(
    ("count", "per_player", "highest"), [(2, 4, 9000), (3, 4, 13000), (4, 3, 13000), (5, 3, 16000)]
)
def test_checks_by_player_count(count, per_player, highest):
    """Checks by player count: every seat gets its set; all in-play checks but the centre's."""
    state = dealt_table([f"P{i}" for i in range(count)], cards.SET_LABELS[:count])
    held = sorted(check for p in state["players"] for check in p["up"])
    assert all(len(p["up"]) == per_player for p in state["players"])
    assert held == sorted(cards.checks_in_play(count) - {1000})
    assert max(held) == highest


def test_checks_sets_drawn_by_lot_are_recorded_in_the_move():
    """Checks: the lot is a recorded outcome, so replaying the move gives the same deal."""
    import random

    state = razzia.new_table({"players": ["A", "B", "C", "D", "E"]})
    move = razzia.complete_move(state, {"type": "deal"}, random.Random(7))
    assert sorted(move["sets"]) == list("ABCDE")
    assert razzia.apply(state, move) == razzia.apply(state, dict(move))


def test_checks_deal_must_give_each_set_once():
    """Checks: each set goes to exactly one seat."""
    state = razzia.new_table({"players": ["A", "B", "C"]})
    with pytest.raises(IllegalMove, match="exactly one seat"):
        razzia.apply(state, {"type": "deal", "sets": ["A", "A", "B"]})


@pytest.mark.parametrize(
    "players", [["Solo"], ["A", "B", "C", "D", "E", "F"], ["A", "a"], ["A", " "]]
)
def test_setup_refuses_impossible_player_lists(players):
    """Razzia! is for 2-5 players with distinct names."""
    with pytest.raises(InvalidSetup):
        razzia.new_table({"players": players})


def test_turn_highest_check_starts_the_round():
    """Turn: the player holding the highest check starts each round."""
    assert seed_table()["turn"] == seat(seed_table(), "Denis")


def test_turn_acting_out_of_turn_is_refused():
    """Turn: only the player whose turn it is may act."""
    with pytest.raises(IllegalMove, match="It is Denis's turn, not Felix's"):
        play(seed_table(), ("Felix", "draw", "ring"))


def test_draw_loot_goes_to_the_row_and_turn_passes_left():
    """A. Draw: loot goes to the centre row; the next player clockwise plays."""
    state = play(seed_table(), ("Denis", "draw", "ring"))
    assert state["row"] == ["ring"]
    assert state["turn"] == seat(state, "Miriam")
    assert state["deck"]["ring"] == 3


def test_auction_worked_example_police_denis_miriam_felix_elke():
    """Auction (seed p.3): Denis draws police; Miriam 7,000, Felix passes, Elke 9,000 wins."""
    state = play(
        seed_table(),
        ("Denis", "draw", "watch"),
        ("Miriam", "draw", "car"),
        ("Felix", "draw", "bodyguard"),
        ("Elke", "draw", "ring"),
        ("Denis", "draw", "police"),
    )
    assert state["phase"] == "auction"
    assert state["auction"]["order"] == [
        seat(state, n) for n in ("Miriam", "Felix", "Elke", "Denis")
    ]
    state = play(
        state,
        ("Miriam", "bid", 7000),
        ("Felix", "pass"),
        ("Elke", "bid", 9000),
        ("Denis", "pass"),
    )
    assert family(state, "Elke") == {"watch": 1, "car": 1, "bodyguard": 1, "ring": 1}
    assert player(state, "Elke")["down"] == [1000]
    assert player(state, "Elke")["up"] == [5000, 10000]
    assert state["centre"] == 9000
    assert player(state, "Miriam")["up"] == [3000, 7000, 12000]
    assert state["police"] == 1 and state["row"] == []
    assert state["phase"] == "turn" and state["turn"] == seat(state, "Miriam")


def test_auction_police_all_pass_loot_stays_in_the_row():
    """Auction: after a police card, if all pass the loot stays and play goes on."""
    state = play(seed_table(), ("Denis", "draw", "ring"), ("Miriam", "draw", "police"))
    state = play(state, ("Felix", "pass"), ("Elke", "pass"), ("Denis", "pass"), ("Miriam", "pass"))
    assert state["row"] == ["ring"] and state["police"] == 1
    assert state["turn"] == seat(state, "Felix")


def test_auction_bid_must_be_higher():
    """Auction: each bid must beat the current highest check."""
    state = play(seed_table(), ("Denis", "draw", "police"), ("Miriam", "bid", 7000))
    with pytest.raises(IllegalMove, match="must beat the current 7,000 check; 4,000 is not higher"):
        play(state, ("Felix", "bid", 4000))


def test_auction_bid_only_with_a_face_up_check_you_hold():
    """Auction: bids only with your own face-up checks."""
    state = play(seed_table(), ("Denis", "draw", "police"))
    with pytest.raises(IllegalMove, match="Miriam holds no face-up 9,000 check"):
        play(state, ("Miriam", "bid", 9000))


def test_auction_face_down_check_cannot_be_bid_this_round():
    """Auction: the centre check is taken face down and usable only from the next round."""
    state = play(seed_table(), ("Denis", "draw", "police"), ("Miriam", "bid", 3000))
    state = play(state, ("Felix", "pass"), ("Elke", "pass"), ("Denis", "pass"))
    state = play(state, ("Miriam", "draw", "police"), ("Felix", "pass"), ("Elke", "pass"))
    with pytest.raises(IllegalMove, match="face down"):
        play(state, ("Denis", "pass"), ("Miriam", "bid", 1000))


def test_auction_bidding_out_of_order_is_refused():
    """Auction: once around clockwise from the trigger's left; the trigger bids last."""
    state = play(seed_table(), ("Denis", "draw", "police"))
    with pytest.raises(IllegalMove, match="It is Miriam's turn to bid or pass, not Denis's"):
        play(state, ("Denis", "bid", 13000))


def test_thief_worked_example_elke_takes_the_driver():
    """B. Thief (seed p.4): Elke discards a thief and takes the driver; Denis plays next."""
    state = play(
        seed_table(),
        ("Denis", "draw", "thief"),
        ("Miriam", "draw", "police"),
        ("Felix", "pass"),
        ("Elke", "bid", 5000),
        ("Denis", "pass"),
        ("Miriam", "pass"),
        ("Felix", "draw", "driver"),
        ("Elke", "thief", ["driver"]),
    )
    assert family(state, "Elke") == {"driver": 1}
    assert state["box"]["thief"] == 1 and state["row"] == []
    assert state["turn"] == seat(state, "Denis")


def test_thief_several_at_once():
    """B. Thief: several thieves at once take that many loot cards."""
    state = play(
        seed_table(),
        ("Denis", "draw", "thief"),
        ("Miriam", "draw", "thief"),
        ("Felix", "forced_auction"),
        ("Elke", "bid", 5000),
        ("Denis", "pass"),
        ("Miriam", "pass"),
        ("Felix", "pass"),
        ("Elke", "draw", "car"),
        ("Denis", "draw", "gold"),
        ("Miriam", "draw", "ring"),
        ("Felix", "draw", "car"),
    )
    state = play(state, ("Elke", "thief", ["gold", "car"]))
    assert family(state, "Elke") == {"gold": 1, "car": 1}
    assert sorted(state["row"]) == ["car", "ring"]
    with pytest.raises(IllegalMove, match="no thief"):
        play(state, ("Denis", "thief", ["car"]))


def test_thief_cannot_take_what_the_row_lacks():
    """B. Thief: the thief takes a card from the centre row, not one that is not there."""
    state = play(
        seed_table(),
        ("Denis", "draw", "thief"),
        ("Miriam", "forced_auction"),
        ("Felix", "bid", 4000),
        ("Elke", "pass"),
        ("Denis", "pass"),
        ("Miriam", "pass"),
    )
    state = play(state, ("Felix", "draw", "ring"), ("Elke", "draw", "car"))
    state = play(state, ("Denis", "draw", "car"), ("Miriam", "draw", "car"))
    with pytest.raises(IllegalMove, match="The row holds no diamond"):
        play(state, ("Felix", "thief", ["diamond"]))


def test_forced_auction_worked_example_miriam_must_bid_3000():
    """C. Forced auction (seed p.4): all others pass, so Miriam must bid; Felix plays next."""
    state = play(
        seed_table(),
        ("Denis", "draw", "ring"),
        ("Miriam", "forced_auction"),
        ("Felix", "pass"),
        ("Elke", "pass"),
        ("Denis", "pass"),
    )
    with pytest.raises(IllegalMove, match="must bid"):
        play(state, ("Miriam", "pass"))
    state = play(state, ("Miriam", "bid", 3000))
    assert family(state, "Miriam") == {"ring": 1}
    assert player(state, "Miriam")["down"] == [1000]
    assert state["centre"] == 3000
    assert state["turn"] == seat(state, "Felix")


def test_forced_auction_caller_may_pass_once_someone_bid():
    """C. Forced auction: if anyone bid, the caller may pass."""
    state = play(seed_table(), ("Denis", "forced_auction"), ("Miriam", "bid", 3000))
    state = play(state, ("Felix", "pass"), ("Elke", "pass"), ("Denis", "pass"))
    assert player(state, "Miriam")["down"] == [1000]
    assert state["turn"] == seat(state, "Miriam")


def seven_loot(state: dict, first: str, cards_drawn: list[str]) -> dict:
    """Draw the given loot cards in turn order starting with `first`."""
    names = [p["name"] for p in state["players"]]
    start = names.index(first)
    steps = [(names[(start + i) % len(names)], "draw", card) for i, card in enumerate(cards_drawn)]
    return play(state, *steps)


def test_seventh_loot_card_triggers_a_regular_auction():
    """Auction: placing the 7th loot card starts a regular auction at the placer's left."""
    state = seven_loot(
        seed_table(), "Denis", ["ring", "car", "car", "film", "gold", "watch", "car"]
    )
    assert state["phase"] == "auction" and state["auction"]["reason"] == "seventh_loot"
    assert state["auction"]["trigger"] == seat(state, "Felix")
    assert state["auction"]["order"][0] == seat(state, "Elke")


def test_seventh_loot_all_pass_discards_the_row():
    """Auction: a 7th-loot auction where all pass sends the seven loot cards out of the game."""
    drawn = ["ring", "car", "car", "film", "gold", "watch", "car"]
    state = seven_loot(seed_table(), "Denis", drawn)
    state = play(state, ("Elke", "pass"), ("Denis", "pass"), ("Miriam", "pass"), ("Felix", "pass"))
    assert state["row"] == []
    assert state["box"]["car"] == 3 and state["box"]["gold"] == 1
    assert state["turn"] == seat(state, "Elke")


def used_up(state: dict, name: str) -> dict:
    """Make `name` win forced auctions on their own turns until their checks are used."""
    while player(state, name)["up"]:
        assert state["turn"] == seat(state, name), "helper expects it to be the player's turn"
        order = [p["name"] for p in state["players"]]
        state = play(state, (name, "forced_auction"))
        for bidder in order[order.index(name) + 1 :] + order[: order.index(name)]:
            if player(state, bidder)["up"]:
                state = play(state, (bidder, "pass"))
        state = play(state, (name, "bid", player(state, name)["up"][0]))
        if state["phase"] != "turn" or not player(state, name)["up"]:
            return state
        state = _turn_back_to(state, name)
    return state


def _turn_back_to(state: dict, name: str) -> dict:
    """Let everyone else draw a bodyguard until it is `name`'s turn again."""
    while state["turn"] != seat(state, name):
        state = play(state, (state["players"][state["turn"]]["name"], "draw", "bodyguard"))
        if state["phase"] == "auction":
            for _ in state["auction"]["order"]:
                state = play(state, (state["players"][razzia_next(state)]["name"], "pass"))
    return state


def razzia_next(state: dict) -> int:
    """The seat to bid next."""
    running = state["auction"]
    return running["order"][running["next"]]


def test_no_face_up_checks_sits_out_the_round():
    """Auction: a player with no face-up checks left sits out turns and auctions."""
    state = dealt_table(["Ann", "Bob", "Cid"], "ABC")  # Ann 2,5,8,13 starts
    state = used_up(state, "Ann")
    assert player(state, "Ann")["up"] == []
    assert state["turn"] != seat(state, "Ann")
    state = play(state, (state["players"][state["turn"]]["name"], "draw", "police"))
    assert seat(state, "Ann") not in state["auction"]["order"]


def test_lone_player_keeps_playing_and_must_bid_in_own_forced_auction():
    """A single remaining player keeps taking turns and must bid in their own forced auction."""
    state = dealt_table(["Ann", "Bob"], "AB")  # Ann 2,5,6,9 starts; Bob 3,4,7,8
    state = used_up(state, "Ann")
    assert state["turn"] == seat(state, "Bob")
    state = play(state, ("Bob", "draw", "ring"))
    assert state["turn"] == seat(state, "Bob")
    state = play(state, ("Bob", "forced_auction"))
    assert state["auction"]["order"] == [seat(state, "Bob")]
    with pytest.raises(IllegalMove, match="must bid"):
        play(state, ("Bob", "pass"))


def test_round_end_when_every_player_used_all_checks():
    """Round end: immediately when every player has used all their checks."""
    state = dealt_table(["Ann", "Bob"], "AB")
    state = used_up(state, "Ann")
    state = used_up(state, "Bob")
    assert state["phase"] == "round_end" and state["round_end_reason"] == "checks"
    assert len(state["rounds"]) == 1


def draw_police(state: dict, count: int) -> dict:
    """The players in turn draw `count` police cards, everyone passing every auction."""
    for _ in range(count):
        state = play(state, (state["players"][state["turn"]]["name"], "draw", "police"))
        while state["phase"] == "auction":
            state = play(state, (state["players"][razzia_next(state)]["name"], "pass"))
    return state


def test_round_end_at_seventh_police_without_auction():
    """Round end: the 7th police card ends the round at once, with no auction."""
    state = play(seed_table(), ("Denis", "draw", "ring"))
    state = draw_police(state, 6)
    assert state["phase"] == "turn" and state["police"] == 6
    state = play(state, (state["players"][state["turn"]]["name"], "draw", "police"))
    assert state["phase"] == "round_end" and state["auction"] is None
    assert state["round_end_reason"] == "police"
    assert state["row"] == ["ring"]


def test_round_end_two_players_at_fifth_police():
    """Round end: with 2 players the 5th police card ends the round."""
    state = draw_police(dealt_table(["Ann", "Bob"], "BA"), 5)
    assert state["police_limit"] == 5 and state["phase"] == "round_end"


def test_next_round_keeps_bodyguards_cars_businesses_discards_the_rest():
    """Kept vs discarded: jewelry, drivers, thieves, gold leave; the rest stays."""
    state = seven_loot(
        seed_table(), "Denis", ["ring", "car", "driver", "thief", "gold", "bodyguard", "film"]
    )
    state = play(state, ("Elke", "pass"), ("Denis", "pass"), ("Miriam", "pass"))
    state = play(state, ("Felix", "bid", 11000))
    state = draw_police(play(state, ("Elke", "draw", "diamond")), 7)
    state = razzia.apply(state, {"type": "next_round"})
    assert family(state, "Felix") == {"car": 1, "bodyguard": 1, "film": 1}
    assert state["box"]["ring"] == 1 and state["box"]["thief"] == 1
    assert state["box"]["diamond"] == 1  # loot left in the row leaves the game
    assert state["box"]["police"] == 7 and state["police"] == 0 and state["row"] == []


def test_next_round_checks_face_up_centre_stays_highest_starts():
    """Next round: all checks face up, the centre check stays, the highest check starts."""
    state = play(seed_table(), ("Denis", "forced_auction"), ("Miriam", "pass"), ("Felix", "pass"))
    state = play(state, ("Elke", "pass"), ("Denis", "bid", 13000))
    state = draw_police(state, 7)
    state = razzia.apply(state, {"type": "next_round"})
    assert (
        player(state, "Denis")["up"] == [1000, 2000, 6000] and player(state, "Denis")["down"] == []
    )
    assert state["centre"] == 13000
    assert state["turn"] == seat(state, "Miriam")  # 12,000 is now the highest check
    assert state["round"] == 2 and state["phase"] == "turn"


def test_scoring_every_round_breakdown_is_recorded():
    """Scoring every round: every category per player, totals accumulate."""
    state = play(seed_table(), ("Denis", "draw", "gold"), ("Miriam", "forced_auction"))
    state = play(
        state, ("Felix", "pass"), ("Elke", "pass"), ("Denis", "pass"), ("Miriam", "bid", 3000)
    )
    state = draw_police(state, 7)
    miriam = state["rounds"][0]["scores"][seat(state, "Miriam")]
    assert miriam["gold"] == 3 and miriam["jewelry"] == -5 and miriam["businesses"] == 0
    assert state["totals"][seat(state, "Miriam")] == miriam["total"]


def test_round_three_scores_businesses_and_checks_and_ranks():
    """Round 3 only: businesses and check sums score; the game ends with a ranking."""
    state = seed_table()
    for _ in range(2):
        state = razzia.apply(draw_police(state, 7), {"type": "next_round"})
    starter = state["players"][state["turn"]]["name"]
    state = play(state, (starter, "draw", "film"))
    state = draw_police(state, 7)
    assert state["phase"] == "game_over"
    last = state["rounds"][2]["scores"]
    sums = {p["name"]: sum(p["up"] + p["down"]) for p in state["players"]}
    for name, total in sums.items():
        expected = 5 if total == max(sums.values()) else -5 if total == min(sums.values()) else 0
        assert last[seat(state, name)]["checks"] == expected
    assert [row["businesses"] for row in last] == [0, 0, 0, 0]  # the film stayed in the row
    assert state["ranks"] is not None
    assert razzia.summary(state)["finished"] is True
    with pytest.raises(IllegalMove, match="game is over"):
        razzia.apply(state, {"type": "draw", "seat": 0, "card": "ring"})


def test_round_three_businesses_score_from_cards_kept_since_round_one():
    """Round 3 only: businesses won in round 1 stay in the family and score at the end."""
    state = play(seed_table(), ("Denis", "draw", "casino"), ("Miriam", "draw", "film"))
    state = play(state, ("Felix", "forced_auction"), ("Elke", "pass"), ("Denis", "pass"))
    state = play(state, ("Miriam", "pass"), ("Felix", "bid", 4000))
    state = draw_police(state, 7)
    assert state["rounds"][0]["scores"][seat(state, "Felix")]["businesses"] == 0
    for _ in range(2):
        state = draw_police(razzia.apply(state, {"type": "next_round"}), 7)
    assert family(state, "Felix") == {"casino": 1, "film": 1}
    assert state["rounds"][2]["scores"][seat(state, "Felix")]["businesses"] == 2


@pytest.mark.parametrize(("card", "limit"), [("ring", 4), ("car", 16), ("gold", 3)])
def test_card_limits_no_more_cards_than_the_box_holds(card, limit):
    """Cards (120): no fifth ring, no seventeenth car, no fourth gold coin."""
    state = dealt_table(["Ann", "Bob", "Cid", "Dan", "Eve"], "ABCDE")
    state["deck"][card] = 0  # all of them are already out
    with pytest.raises(IllegalMove, match=f"All {limit} cards of {card}"):
        play(state, (state["players"][state["turn"]]["name"], "draw", card))


def test_card_limits_no_twenty_second_police_card():
    """Cards (120): 21 police cards in all, across the three rounds."""
    state = seed_table()
    for _ in range(2):
        state = razzia.apply(draw_police(state, 7), {"type": "next_round"})
    state = draw_police(state, 6)
    state["deck"]["police"] = 0  # as if the table miscounted: none left
    with pytest.raises(IllegalMove, match="All 21 cards of police"):
        play(state, (state["players"][state["turn"]]["name"], "draw", "police"))


def test_apply_never_modifies_the_state_it_is_given():
    """Moves are pure: the input state is untouched, even by a refused move."""
    import copy

    state = seed_table()
    before = copy.deepcopy(state)
    play(state, ("Denis", "draw", "police"))
    with pytest.raises(IllegalMove):
        play(state, ("Miriam", "draw", "police"))
    assert state == before


@pytest.mark.parametrize(
    "move",
    [
        "not an object",
        {"type": "dance"},
        {"type": "draw", "seat": True, "card": "ring"},
        {"type": "draw", "seat": 9, "card": "ring"},
        {"type": "draw", "seat": 3, "card": "unicorn"},
        {"type": "thief", "seat": 3, "take": "ring"},
        {"type": "bid", "seat": 3, "check": 13000},
        {"type": "next_round"},
        {"type": "deal", "sets": ["A", "B", "C", "D"]},
    ],
)
def test_malformed_or_out_of_phase_moves_are_refused_with_a_reason(move):
    """Every refused move raises IllegalMove with a sentence, never another exception."""
    with pytest.raises(IllegalMove) as refused:
        razzia.apply(seed_table(), move)
    assert str(refused.value).endswith(".")


@pytest.mark.parametrize("card", [["ring"], {}, 7, None])
def test_draw_refuses_a_card_that_is_not_a_card_name(card):
    """A. Draw: the card turned up must be police or a loot kind, whatever the client sends."""
    with pytest.raises(IllegalMove, match="Unknown card"):
        razzia.apply(seed_table(), {"type": "draw", "seat": 3, "card": card})


@pytest.mark.parametrize("kind", [["draw"], {"a": 1}, None, 3])
def test_move_type_must_be_a_known_name(kind):
    """Every move has a type naming one of the actions."""
    with pytest.raises(IllegalMove, match="Unknown move type"):
        razzia.apply(seed_table(), {"type": kind, "seat": 3})


def test_actions_name_the_players_who_sit_out():
    """A player with no face-up checks left sits out; actions() says who, for the table view."""
    state = used_up(dealt_table(["Ann", "Bob", "Cid"], "ABC"), "Ann")
    assert razzia.actions(state)["sitting_out"] == [seat(state, "Ann")]
    assert razzia.actions(seed_table())["sitting_out"] == []
