"""Razzia!'s `device_display`: police of the limit, round of three, seats (RULES.md §1)."""

import random

import pytest

from scoring import razzia
from scoring.games import get_game
from tests.device_app.razzia_drive import draw_police
from tests.scoring.razzia_random import random_move

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
SETS = ["A", "B", "C", "D"]


def shown(police: int, limit: int, round_: int, seats: int) -> dict:
    """The display expected for a Razzia! table (always 3 rounds)."""
    return {"police": police, "limit": limit, "round": round_, "rounds": 3, "seats": seats}


def dealt(players=PLAYERS) -> dict:
    """A table with its check sets dealt in seat order."""
    state = razzia.new_table({"players": players})
    return razzia.apply(state, {"type": "deal", "sets": SETS[: len(players)]})


def test_before_the_deal_no_round_has_started():
    """Round 0 until the deal; 3 rounds; the limit is 7 police with 4 players."""
    state = razzia.new_table({"players": PLAYERS})
    assert razzia.device_display(state) == shown(0, 7, 0, 4)


def test_the_deal_starts_round_one():
    """After the deal the box shows round 1 of 3 and no police."""
    assert razzia.device_display(dealt()) == shown(0, 7, 1, 4)


def test_two_players_end_a_round_at_five_police():
    """RULES.md §1 "Round end": the 5th police card ends the round with 2 players."""
    display = razzia.device_display(dealt(PLAYERS[:2]))
    assert (display["limit"], display["seats"]) == (5, 2)


def test_each_police_card_in_the_row_counts():
    """Police drawn this round are what the strip shows."""
    assert razzia.device_display(draw_police(dealt(), 3))["police"] == 3


def test_a_raid_stays_on_the_strip_until_the_next_round():
    """The 7th police ends the round at once: police stays at the limit on the round-end screen."""
    state = draw_police(dealt(), 7)
    assert state["phase"] == "round_end"
    assert razzia.device_display(state) == shown(7, 7, 1, 4)
    state = razzia.apply(state, {"type": "next_round"})
    assert razzia.device_display(state)["police"] == 0
    assert razzia.device_display(state)["round"] == 2


def test_the_last_round_ends_the_game_on_round_three():
    """After round 3 the box keeps showing round 3 and its raid."""
    state = dealt(PLAYERS[:2])
    for _ in range(3):
        state = draw_police(state, 5)
        if state["phase"] == "round_end":
            state = razzia.apply(state, {"type": "next_round"})
    assert state["phase"] == "game_over"
    assert razzia.device_display(state) == shown(5, 5, 3, 2)


def test_the_registry_exposes_it():
    """The app reaches it through the game registry, like every other game function."""
    assert get_game("razzia").device_display is razzia.device_display


@pytest.mark.parametrize("seed", range(20))
def test_random_games_stay_inside_what_the_box_can_show(seed):
    """Every state of a random legal game maps to values the wire protocol accepts."""
    rng = random.Random(seed)
    players = [*PLAYERS, "Eve"][: rng.randint(2, 5)]
    state = razzia.new_table({"players": players})
    shown_round = 0
    while state["phase"] != "game_over":
        state = razzia.apply(state, random_move(state, rng))
        display = razzia.device_display(state)
        assert 0 <= display["police"] <= display["limit"] <= 7
        assert shown_round <= display["round"] <= display["rounds"] == 3
        assert display["seats"] == len(players)
        shown_round = display["round"]
