"""Property tests: random legal For Sale games keep every invariant (RULES.md §2)."""

import copy
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import for_sale
from scoring.errors import IllegalMove
from scoring.for_sale import cards
from scoring.sheets import score_sheet
from tests.game_counts import games
from tests.scoring.for_sale_random import random_junk_move, random_move

GAMES_PER_TABLE = games(full=120, quick=60)
#: One step in this many also tries a random junk move that must be refused cleanly.
JUNK_EVERY = 3


def assert_coins_conserved(state: dict) -> None:
    """Held + spent = dealt per player; everything spent is counted out of the game."""
    for player in state["players"]:
        assert player["coins"] >= 0 and player["bid"] >= 0
        assert player["coins"] + player["bid"] + player["spent"] == state["coins_each"]
    assert sum(player["spent"] for player in state["players"]) == state["coins_out"]


def assert_cards_placed(state: dict) -> None:
    """Every house and check turned over is in exactly one place: table, hand or out."""
    players = state["players"]
    houses = Counter(state["offer"]) + Counter(state["houses_out"])
    checks = Counter(state["checks_up"])
    for player in players:
        houses.update(player["houses"])
        checks.update(player["checks"])
    assert houses == Counter(state["houses_seen"]), "a house appeared or vanished"
    assert len(set(state["houses_seen"])) == len(state["houses_seen"])
    assert set(state["houses_seen"]) <= set(cards.HOUSES)
    assert checks == Counter(state["checks_seen"]), "a check appeared or vanished"
    assert all(n <= cards.COPIES_PER_CHECK for n in Counter(state["checks_seen"]).values())
    assert len(state["houses_seen"]) <= state["in_play"] >= len(state["checks_seen"])


def assert_display_in_range(state: dict) -> None:
    """The LEDs stay inside the contract and never play the raid (police < limit)."""
    shown = for_sale.device_display(state)
    assert 0 <= shown["police"] < shown["limit"] == 7
    assert 0 <= shown["round"] <= shown["rounds"] == 2
    assert shown["seats"] == len(state["players"])


def assert_end(state: dict, variant: bool) -> None:
    """At the end every card in play was dealt out and the ranks match the calculator."""
    assert len(state["houses_seen"]) == len(state["checks_seen"]) == state["in_play"]
    assert state["offer"] == [] and state["checks_up"] == []
    holding = [p for p in state["players"] if p["houses"]]
    assert len(holding) <= (1 if variant else 0)
    sheet = {
        "game": "for_sale",
        "players": [
            {"name": p["name"], "checks": p["checks"], "coins": p["coins"]}
            for p in state["players"]
        ],
    }
    calculated = score_sheet(sheet)["players"]
    final = for_sale.results(state)
    assert final["finished"]
    assert [p["money"] for p in calculated] == [p["score"] for p in final["players"]]
    assert [p["rank"] for p in calculated] == [p["rank"] for p in final["players"]]
    assert final["rounds"][-1]["cumulative"] == [p["score"] for p in final["players"]]


def try_junk(state: dict, rng: random.Random) -> None:
    """A junk move is either legal or refused with a sentence, leaving the state unchanged."""
    before = copy.deepcopy(state)
    try:
        for_sale.apply(state, random_junk_move(state, rng))
    except IllegalMove as refused:
        assert str(refused)
    assert state == before


def play_and_check(setup: dict, seed: int) -> None:
    """Play one random game to its end, checking the invariants after every move."""
    rng = random.Random(seed)
    state = for_sale.new_table(setup)
    moves = []
    while state["phase"] != "game_over":
        if rng.randrange(JUNK_EVERY) == 0:
            try_junk(state, rng)
        move = for_sale.complete_move(state, random_move(state, rng), rng)
        state = for_sale.apply(state, move)
        moves.append(move)
        assert_coins_conserved(state)
        assert_cards_placed(state)
        assert_display_in_range(state)
        assert len(moves) < 2000, "the game never ended"
    assert_end(state, setup["variant"])
    replayed = for_sale.new_table(setup)
    for move in moves:
        replayed = for_sale.apply(replayed, move)
    assert replayed == state


@pytest.mark.parametrize("variant", [False, True])
@pytest.mark.parametrize("count", [3, 4, 5, 6])
@settings(
    max_examples=GAMES_PER_TABLE,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), refund=st.sampled_from(cards.REFUNDS))
def test_random_legal_games_conserve_coins_and_cards_and_replay(count, variant, seed, refund):
    """Random legal games: coins conserved, every card in one place, replay equals live."""
    names = [f"P{i}" for i in range(count)]
    play_and_check({"players": names, "variant": variant, "refund": refund}, seed)


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_legal_moves_are_all_accepted(count):
    """Every move legal_moves offers applies cleanly, all through one game (RULES.md §2)."""
    rng = random.Random(count)
    state = for_sale.new_table({"players": [f"P{i}" for i in range(count)]})
    while state["phase"] != "game_over":
        offered = for_sale.legal_moves(state)
        assert offered
        for move in offered:
            for_sale.apply(state, move)
        state = for_sale.apply(state, rng.choice(offered))
    assert for_sale.legal_moves(state) == []
