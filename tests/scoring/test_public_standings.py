"""What a shared screen may show of a running game (scoring/public_standings.py, issue 26).

Each game is walked through random legal games; at every state the public standings show
exactly the public facts, and changing what the players keep hidden changes nothing shown.
"""

import random

import pytest

from scoring import adel_verpflichtet, for_sale, prodigals_club, razzia, thieves_guild
from scoring.prodigals_club.scores import competition_scores
from scoring.public_standings import PUBLIC_STANDINGS, public_standings
from scoring.razzia.rounds import live_standings
from tests.scoring import (
    adel_random,
    for_sale_random,
    prodigals_random,
    razzia_random,
    thieves_guild_random,
)
from tests.scoring.adel_play import Table as AdelTable
from tests.scoring.prodigals_play import setup as prodigals_setup

SEEDS = range(4)
#: Most moves walked per game (a random Cech zlodějů game can run for thousands).
MOST_MOVES = 400
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def walk(rules, state: dict, next_move) -> list[dict]:
    """Every state of a random game from `state` (at most MOST_MOVES moves on)."""
    states = [state]
    while not rules.summary(state)["finished"] and len(states) <= MOST_MOVES:
        state = next_move(state)
        states.append(state)
    return states


def razzia_states(seed: int) -> list[dict]:
    """A random Razzia! game, state by state."""
    rng = random.Random(seed)
    start = razzia.new_table({"players": NAMES[:4]})
    return walk(razzia, start, lambda s: razzia.apply(s, razzia_random.random_move(s, rng)))


def for_sale_states(seed: int) -> list[dict]:
    """A random For Sale game, state by state."""
    rng = random.Random(seed)

    def step(state):
        move = for_sale.complete_move(state, for_sale_random.random_move(state, rng), rng)
        return for_sale.apply(state, move)

    return walk(for_sale, for_sale.new_table({"players": NAMES[:4]}), step)


def thieves_states(seed: int) -> list[dict]:
    """A random Cech zlodějů game, state by state."""
    rng = random.Random(seed)
    start = thieves_guild.new_table({"players": NAMES[:5], "card_costs": [1, 2, 4]})

    def step(state):
        move = thieves_guild_random.random_move(state, rng)
        return thieves_guild.apply(state, thieves_guild.complete_move(state, move, rng))

    return walk(thieves_guild, start, step)


def adel_states(seed: int) -> list[dict]:
    """A random Adel Verpflichtet game (its hidden piles known to the walk), state by state."""
    rng = random.Random(seed)
    values, piles = adel_random.random_setup(4, rng)
    table = AdelTable(values, piles)
    return walk(
        adel_verpflichtet, table.state, lambda s: table.play(adel_random.random_move(s, rng))
    )


def prodigals_states(seed: int) -> list[dict]:
    """A random Klub ztroskotanců game, state by state."""
    rng = random.Random(seed)
    start = prodigals_club.new_table(prodigals_setup(players=NAMES[:3], order=range(3)))
    return walk(
        prodigals_club,
        start,
        lambda s: prodigals_club.apply(s, prodigals_random.random_move(s, rng)),
    )


def running(states: list[dict], rules) -> list[dict]:
    """The states of a game still running (the public standings are for those)."""
    found = [state for state in states if not rules.summary(state)["finished"]]
    assert len(found) > 3
    return found


def values(standings: dict) -> list[dict]:
    """Each row's values, in seat order."""
    return [row["values"] for row in standings["rows"]]


def test_every_game_with_a_table_page_has_public_standings():
    assert set(PUBLIC_STANDINGS) == {
        "razzia",
        "for_sale",
        "thieves_guild",
        "adel_verpflichtet",
        "prodigals_club",
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_razzia_shows_the_points_scored_and_this_rounds_if_it_ended_now(seed):
    """RULES.md §1: families are face up and every round is scored openly; in round 3 the
    check points count the checks lying face down, so while one does, this round's score is
    held back (scoring/razzia/secrets.py, the table page's rule too)."""
    for state in running(razzia_states(seed), razzia):
        shown = public_standings("razzia", state)
        assert [row["name"] for row in shown["rows"]] == [p["name"] for p in state["players"]]
        assert [row["points"] for row in values(shown)] == state["totals"]
        face_down = any(player["down"] for player in state["players"])
        live = [entry["points"]["total"] for entry in live_standings(state)]
        if live and state["round"] == 3 and face_down:
            live = [None] * len(live)
            assert "check_points" in shown["hidden"]
        assert [row.get("this_round") for row in values(shown)] == (live or [None] * 4)
        assert ("face_down_checks" in shown["hidden"]) == (bool(live) and face_down)


@pytest.mark.parametrize("seed", SEEDS)
def test_for_sale_never_shows_coins_or_what_the_checks_are_worth(seed):
    """RULES.md §2 "Coins": coins may be kept secret, won checks lie face down (counts only)."""
    for state in running(for_sale_states(seed), for_sale):
        shown = public_standings("for_sale", state)
        assert shown["columns"] == ["houses", "checks"]
        assert values(shown) == [
            {"houses": len(player["houses"]), "checks": len(player["checks"])}
            for player in state["players"]
        ]
        assert shown["hidden"] == ["coins", "check_values"]
        secret = {
            **state,
            "players": [
                {**player, "coins": player["coins"] + 7, "checks": [0] * len(player["checks"])}
                for player in state["players"]
            ],
        }
        assert public_standings("for_sale", secret) == shown


@pytest.mark.parametrize("seed", SEEDS)
def test_thieves_guild_shows_the_gold_on_the_table_and_how_many_cards(seed):
    """RULES.md §3: gold lies on the table (a robbery counts it); the cards' texts stay hidden."""
    for state in running(thieves_states(seed), thieves_guild):
        shown = public_standings("thieves_guild", state)
        assert values(shown) == [
            {"gold": player["gold"], "cards": player["cards"]} for player in state["players"]
        ]
        assert shown["hidden"] == ["hands"]


@pytest.mark.parametrize("seed", SEEDS)
def test_adel_shows_the_pawns_and_never_the_hands(seed):
    """RULES.md §4 "Hidden information": hands are secret; the track is public."""
    for state in running(adel_states(seed), adel_verpflichtet):
        shown = public_standings("adel_verpflichtet", state)
        assert values(shown) == [{"space": player["position"]} for player in state["players"]]
        assert shown["hidden"] == ["hands"]
        other_hands = {
            **state,
            "players": [{**player, "hand": player["hand"][:1]} for player in state["players"]],
        }
        assert public_standings("adel_verpflichtet", other_hands) == shown


@pytest.mark.parametrize("seed", SEEDS)
def test_prodigals_club_shows_each_competition_without_the_end_penalty(seed):
    """RULES.md §5: scores are on the boards; the £3 tile penalty counts only at the end."""
    for state in running(prodigals_states(seed), prodigals_club):
        shown = public_standings("prodigals_club", state)
        assert shown["columns"] == state["competitions"]
        expected = [
            competition_scores(state, seat, game_end=False) for seat in range(len(state["players"]))
        ]
        assert values(shown) == expected


def test_an_unknown_game_has_no_public_standings():
    with pytest.raises(KeyError):
        public_standings("chess", {"players": []})
