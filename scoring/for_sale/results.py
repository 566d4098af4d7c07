"""Final standings of a For Sale table in the shape of docs/game-contract.md `results`."""

from scoring.for_sale import cards, selling

CATEGORIES = ["checks", "coins"]
#: What breaks a tie of money (RULES.md §2 "End": "tie → more coins").
TIEBREAKS = ["coins"]


def results(state: dict) -> dict:
    """Money per player (checks + coins), ranks, winners and the money after each sale."""
    players = state["players"]
    ranks = state["ranks"] or selling.ranks(players)
    finished = state["phase"] == "game_over"
    return {
        "finished": finished,
        "highest_wins": True,
        "players": [
            {
                "seat": seat,
                "name": player["name"],
                "score": selling.money(player),
                "rank": rank,
                "winner": finished and rank == 1,
                "start_player": seat == state["start_player"],
                "breakdown": _breakdown(player),
                "coins": player["coins"] + player["bid"],
                "tiebreak": [player["coins"] + player["bid"]],
            }
            for seat, (player, rank) in enumerate(zip(players, ranks, strict=True))
        ],
        "categories": list(CATEGORIES),
        "tiebreaks": list(TIEBREAKS),
        "rounds": _rounds(state),
    }


def _breakdown(player: dict) -> dict:
    """Money from checks and from coins."""
    coins = (player["coins"] + player["bid"]) * cards.COIN_VALUE
    return {"checks": sum(player["checks"]), "coins": coins}


def _rounds(state: dict) -> list[dict]:
    """Per selling round: the checks each seat took, and money so far (coins are fixed now)."""
    coins = [(p["coins"] + p["bid"]) * cards.COIN_VALUE for p in state["players"]]
    totals = list(coins)
    rounds = []
    for sale in state["sales"]:
        taken = [sum(checks) for checks in sale["got"]]
        totals = [total + value for total, value in zip(totals, taken, strict=True)]
        rounds.append(
            {
                "round": sale["round"],
                "breakdown": [{"checks": value, "coins": 0} for value in taken],
                "cumulative": list(totals),
            }
        )
    return rounds
