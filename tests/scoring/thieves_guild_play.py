"""Small helpers for Cech zlodějů rule tests: a started table and a chain of moves."""

from scoring import thieves_guild
from tests.scoring.thieves_guild_random import names

COSTS = [1, 2, 4, 7]


def started(count: int, first: int = 0, costs: list[int] | None = None) -> dict:
    """A table of `count` players (Eva, Petr, ...) where `first` begins the first turn."""
    state = thieves_guild.new_table({"players": names(count), "card_costs": costs or COSTS})
    return thieves_guild.apply(state, {"type": "start", "seat": first})


def after(state: dict, *moves: dict) -> dict:
    """The state after each move in turn."""
    for move in moves:
        state = thieves_guild.apply(state, move)
    return state


def with_gold(state: dict, *gold: int) -> dict:
    """The state with the players' gold set (the difference taken from / put in the supply)."""
    players = [
        dict(player, gold=amount) for player, amount in zip(state["players"], gold, strict=True)
    ]
    change = sum(p["gold"] for p in players) - sum(p["gold"] for p in state["players"])
    return {**state, "players": players, "supply": state["supply"] - change}


def gold(state: dict) -> list[int]:
    """Everyone's gold in seat order."""
    return [player["gold"] for player in state["players"]]
