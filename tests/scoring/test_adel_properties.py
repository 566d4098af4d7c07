"""Property tests: random legal Adel Verpflichtet games keep every invariant (RULES.md §4)."""

import copy
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import adel_verpflichtet as adel
from scoring.errors import IllegalMove
from tests.game_counts import games
from tests.scoring.adel_play import deck
from tests.scoring.adel_random import play, random_junk_move, random_setup

#: Seeded games per player count and variant (plain loops: cheaper than hypothesis).
GAMES = games(full=400, quick=60)
#: One step in this many also tries a random junk move that must be refused cleanly.
JUNK_EVERY = 4
TABLES = [(2, "surprise"), (2, "conflict"), (3, None), (4, None), (5, None)]


def key(card: dict) -> tuple:
    """A card as a hashable value."""
    return (card["letter"], card["year"])


def assert_cards_placed(table) -> None:
    """Every collection card is in exactly one place: a pile, a hand or an exhibition."""
    state = table.state
    places: Counter = Counter()
    for pile, hidden in zip(state["piles"], table.hidden, strict=True):
        assert pile["size"] == len(hidden) + (pile["top"] is not None)
        places.update(key(c) for c in ([pile["top"]] if pile["top"] else []) + hidden)
    for player, unseen in zip(state["players"], table.unseen, strict=True):
        places.update(key(c) for c in player["hand"] + unseen)
    for shown in state["shows"] or []:
        places.update(key(c) for c in shown or [])
    assert places == Counter(key(c) for c in deck()), "a card appeared or vanished"


def assert_checks_and_thieves(state: dict, first: dict) -> None:
    """Every check is in one hand or the register; every thief at hand or in one cell."""
    held = [value for player in state["players"] for value in player["checks"]]
    everyone = [value for player in first["players"] for value in player["checks"]]
    assert Counter(held + state["register"]) == Counter(everyone)
    cells = [thief["number"] for thief in state["jail"]]
    assert len(state["jail"]) <= len(state["players"]), "more prisoners than cells"
    assert len(set(cells)) == len(cells), "two thieves in one cell"
    for seat, player in enumerate(state["players"]):
        mine = {t["number"] for t in state["jail"] if t["owner"] == seat}
        assert set(player["thieves"]) | mine == set(first["players"][seat]["thieves"])
        assert not set(player["thieves"]) & mine


def assert_display_in_range(state: dict) -> None:
    """The LEDs stay inside the contract and never play the raid (police < limit)."""
    shown = adel.device_display(state)
    assert 0 <= shown["police"] < shown["limit"] == 7
    assert 1 <= shown["round"] <= shown["rounds"] == 4
    assert shown["seats"] == len(state["players"])


def assert_end(state: dict) -> None:
    """At the end a pawn is at the banquet, and the breakdown adds up to every position."""
    assert any(p["position"] >= state["banquet"] for p in state["players"])
    final = adel.results(state)
    assert final["finished"] and any(p["winner"] for p in final["players"])
    for row in final["players"]:
        assert sum(row["breakdown"].values()) == row["score"]


def try_junk(table, rng: random.Random) -> None:
    """A junk move is either legal or refused with a sentence, leaving the state unchanged."""
    before = copy.deepcopy(table.state)
    try:
        adel.apply(table.state, random_junk_move(table.state, rng))
    except IllegalMove as refused:
        assert str(refused)
    assert table.state == before


@pytest.mark.parametrize("tracked", [True, False], ids=["hands-tracked", "hands-kept"])
@pytest.mark.parametrize(("count", "variant"), TABLES)
def test_random_games_keep_every_card_check_and_thief_in_one_place(count, variant, tracked):
    """RULES.md §4 "Material": each card is in one place, whether the app tracks the hands or
    only learns the cards the table reveals (then a hand is its seen cards and a count)."""
    rng = random.Random(count * 1000 + len(variant or "") + tracked)
    for _ in range(GAMES if tracked else GAMES // 8):
        first = {}

        def check(table, first=first):
            if "state" not in first:  # setdefault would copy the state on every step
                first["state"] = copy.deepcopy(table.state)
            assert_cards_placed(table)
            assert_checks_and_thieves(table.state, first["state"])
            assert_display_in_range(table.state)
            if rng.randrange(JUNK_EVERY) == 0:
                try_junk(table, rng)

        table = play(count, rng, variant, junk=check, tracked=tracked)
        check(table)
        assert_end(table.state)


@pytest.mark.parametrize("tracked", [True, False], ids=["hands-tracked", "hands-kept"])
@pytest.mark.parametrize(("count", "variant"), TABLES)
def test_replaying_the_moves_gives_the_live_state(count, variant, tracked):
    rng = random.Random(count + 7)
    for _ in range(15):
        table = play(count, random.Random(rng.random()), variant, tracked=tracked)
        replayed = adel.new_table(table.setup)
        for move in table.moves:
            replayed = adel.apply(replayed, adel.complete_move(replayed, move, rng))
        assert replayed == table.state


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), table=st.sampled_from(TABLES))
def test_hypothesis_random_games_end_with_a_ranking(seed, table):
    count, variant = table
    played = play(count, random.Random(seed), variant)
    assert_end(played.state)
    ranks = played.state["ranks"]
    positions = [p["position"] for p in played.state["players"]]
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    assert winners and all(positions[seat] == max(positions) for seat in winners)


@pytest.mark.parametrize(("count", "variant"), TABLES)
def test_legal_moves_samples_are_accepted(count, variant):
    rng = random.Random(count)
    for _ in range(3):
        values, piles = random_setup(count, rng, variant)
        state = adel.new_table(values)
        fresh = iter(range(1, 10000))
        for _ in range(600):
            if state["phase"] == "game_over":
                break
            samples = adel.legal_moves(state)
            assert samples, state["phase"]
            move = rng.choice(samples)
            if move["type"] == "buy":
                move = {
                    **move,
                    "next": None if state["piles"][move["pile"]]["size"] == 1 else _any(fresh),
                }
            state = adel.apply(state, move)


def _any(fresh) -> dict:
    """A card the table has not seen, to put on top of a bought pile (each card is one card)."""
    return {"letter": "A", "year": next(fresh)}
