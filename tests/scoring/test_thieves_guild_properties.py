"""Property tests: random legal Cech zlodějů games keep every invariant (RULES.md §3).

Plain seeded loops rather than hypothesis: 2,100 whole games (300 per player count 3-9)
cost a few seconds this way.
"""

import random

import pytest

from scoring import thieves_guild
from scoring.errors import IllegalMove
from scoring.sheets import score_sheet
from scoring.thieves_guild import moves as move_rules
from scoring.thieves_guild.queries import gold_total
from tests.game_counts import games
from tests.scoring.thieves_guild_random import names, random_junk_move, random_move

GAMES_PER_COUNT = games(full=300, quick=100)
#: Every this many games is also replayed from its stored moves.
REPLAY_EVERY = 10
#: One step in this many also tries a random junk move, which must change nothing.
JUNK_EVERY = 4


def assert_ledger(state: dict) -> None:
    """Players + bank + supply = 120 gold; deck + hands + discard = 50 cards; nothing below 0."""
    assert gold_total(state) == 120
    cards = sum(player["cards"] for player in state["players"]) + state["deck"] + state["discard"]
    assert cards == 50
    assert all(player["gold"] >= 0 and player["cards"] >= 0 for player in state["players"])
    assert state["deck"] >= 0 and state["discard"] >= 0 and state["bank"] >= 0


def assert_sudden_end(state: dict) -> None:
    """Play goes on exactly while nobody has lost their last gold."""
    broke = any(player["gold"] == 0 for player in state["players"])
    if state["phase"] in ("buy", "reaction", "aim", "robbery"):
        assert not broke, "play went on with a player at 0 gold"
    if state["phase"] == "game_over":
        assert broke, "the game ended with nobody at 0 gold"


def assert_display(state: dict) -> None:
    """The box's LEDs stay inside the contract and never play the raid."""
    shown = thieves_guild.device_display(state)
    assert 0 <= shown["police"] < shown["limit"] == 7
    assert 0 <= shown["round"] <= shown["rounds"] == 4
    assert shown["seats"] == min(6, len(state["players"]))


def assert_results_match_the_calculator(state: dict) -> None:
    """The final ranking equals the `final` score sheet's for the same gold and cards."""
    sheet = {
        "game": "thieves_guild",
        "kind": "final",
        "players": [
            {"name": p["name"], "gold": p["gold"], "cards": p["cards"]} for p in state["players"]
        ],
    }
    ranks = [row["rank"] for row in score_sheet(sheet)["players"]]
    assert [row["rank"] for row in thieves_guild.results(state)["players"]] == ranks


def play_checked(count: int, rng: random.Random) -> tuple[dict, list[dict]]:
    """One random game, every invariant checked after every move and junk tried on the way."""
    state = thieves_guild.new_table({"players": names(count), "card_costs": [1, 2, 3, 5]})
    stored = []
    while state["phase"] != "game_over":
        if len(stored) % JUNK_EVERY == 0:
            junk_changes_nothing(state, random_junk_move(state, rng))
        move = random_move(state, rng)
        if move["type"] == "start" and "seat" not in move:
            move = thieves_guild.complete_move(state, move, rng)
        state, log = move_rules.play(state, move)
        stored.append({**move, "log": log})
        assert_ledger(state)
        assert_sudden_end(state)
        assert_display(state)
    return state, stored


def junk_changes_nothing(state: dict, junk: dict) -> None:
    """A junk move is refused with a sentence and leaves the state as it was (or is legal)."""
    before = repr(state)
    try:
        after = thieves_guild.apply(
            state, thieves_guild.complete_move(state, junk, random.Random(0))
        )
    except IllegalMove as refused:
        assert str(refused)
    else:
        assert_ledger(after)
    assert repr(state) == before


@pytest.mark.parametrize("count", range(3, 10))
def test_random_games_conserve_gold_and_cards_and_end_exactly_at_zero_gold(count):
    rng = random.Random(1000 + count)
    for game in range(GAMES_PER_COUNT):
        state, stored = play_checked(count, rng)
        assert_results_match_the_calculator(state)
        if game % REPLAY_EVERY == 0:
            replayed = thieves_guild.new_table(
                {"players": names(count), "card_costs": [1, 2, 3, 5]}
            )
            for move in stored:
                replayed = thieves_guild.apply(replayed, move)
            assert replayed == state, "replaying the stored moves gave another state"


def test_complete_move_writes_the_log_that_apply_checks():
    rng = random.Random(7)
    state = thieves_guild.new_table({"players": names(6), "card_costs": [1, 2]})
    for _ in range(200):
        if state["phase"] == "game_over":
            break
        move = thieves_guild.complete_move(state, random_move(state, rng), rng)
        assert move["log"], move
        state = thieves_guild.apply(state, move)


def test_legal_moves_are_all_accepted():
    rng = random.Random(3)
    for count in range(3, 10):
        state = thieves_guild.new_table({"players": names(count), "card_costs": [1, 2, 3]})
        for _ in range(80):
            legal = thieves_guild.legal_moves(state)
            if not legal:
                assert state["phase"] == "game_over"
                break
            for move in legal:
                assert_ledger(thieves_guild.apply(state, move))
            state = thieves_guild.apply(state, rng.choice(legal))
