"""Final standings of a Cech zlodějů table in the shape of docs/game-contract.md `results`."""

from scoring.thieves_guild import turn

CATEGORIES = ["gold"]
#: What breaks a tie of gold (RULES.md §3 "End": "tie → more cards in hand").
TIEBREAKS = ["cards"]


def results(state: dict) -> dict:
    """Gold per player (the score), cards in hand (the tie-break), ranks and winners."""
    players = state["players"]
    ranks = state["ranks"] or turn.ranks(players)
    finished = state["phase"] == "game_over"
    return {
        "finished": finished,
        "highest_wins": True,
        "players": [
            {
                "seat": seat,
                "name": player["name"],
                "score": player["gold"],
                "rank": rank,
                "winner": finished and rank == 1,
                "start_player": seat == state["start_player"],
                "breakdown": {"gold": player["gold"]},
                "cards": player["cards"],
                "tiebreak": [player["cards"]],
            }
            for seat, (player, rank) in enumerate(zip(players, ranks, strict=True))
        ],
        "categories": list(CATEGORIES),
        "tiebreaks": list(TIEBREAKS),
        "rounds": [],
    }
