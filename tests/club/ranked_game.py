"""A made-up game for the club's tests: seat the players, then one move sets their final ranks.

It honours the game contract (docs/game-contract.md) far enough for the store and the club:
`summary`, `results` (ranks as given, ties allowed) and an end that can be undone.
"""

import random
from types import SimpleNamespace

from scoring.common import player_names
from scoring.errors import IllegalMove

NAME = "ranked"


def new_table(setup: dict) -> dict:
    """2-9 validated names, no ranks yet (the game's name too, as the API's views read it)."""
    names = player_names(setup.get("players"), 2, 9, "Ranked needs 2 to 9 players, not {count}.")
    return {"game": NAME, "players": [{"name": name} for name in names], "ranks": None}


def complete_move(state: dict, move: dict, rng: random.Random) -> dict:
    """Nothing is drawn."""
    return dict(move)


def apply(state: dict, move: dict) -> dict:
    """`{"type": "finish", "ranks": [...]}` ends the game with those ranks (1 = best)."""
    if state["ranks"] is not None:
        raise IllegalMove("The game is over.")
    ranks = move.get("ranks")
    if not isinstance(ranks, list) or len(ranks) != len(state["players"]):
        raise IllegalMove("Give every seat a rank.")
    return {**state, "ranks": list(ranks)}


def summary(state: dict) -> dict:
    """Names, finished once ranked."""
    names = [player["name"] for player in state["players"]]
    ranks = state["ranks"] or []
    winners = [name for name, rank in zip(names, ranks, strict=False) if rank == 1]
    return {
        "players": names,
        "round": 1,
        "finished": state["ranks"] is not None,
        "winners": winners,
    }


def results(state: dict) -> dict:
    """The final standings in the contract's shape; the score is minus the rank."""
    ranks = state["ranks"] or [1] * len(state["players"])
    return {
        "finished": state["ranks"] is not None,
        "highest_wins": True,
        "players": [
            {
                "seat": seat,
                "name": player["name"],
                "score": -rank,
                "rank": rank,
                "winner": rank == 1,
            }
            for seat, (player, rank) in enumerate(zip(state["players"], ranks, strict=True))
        ],
        "categories": [],
        "rounds": [],
    }


MODULE = SimpleNamespace(
    new_table=new_table,
    complete_move=complete_move,
    apply=apply,
    actions=lambda state: {},
    legal_moves=lambda state: [],
    live_standings=lambda state: [],
    summary=summary,
    results=results,
    device_display=lambda state: {"police": 0, "limit": 7, "round": 0, "rounds": 1, "seats": 0},
)
