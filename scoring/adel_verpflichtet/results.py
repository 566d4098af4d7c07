"""Final standings of an Adel Verpflichtet table in the shape of docs/game-contract.md."""

from scoring.adel_verpflichtet import ending

#: Where the spaces came from, in display order (pawns start at space 0).
CATEGORIES = ["exhibitions", "detectives", "final"]


def tiebreak(shown: list[dict]) -> dict:
    """What decides a tie on the track (RULES.md §4 "End"): the final exhibition's size, then
    its oldest object (null when the player showed none)."""
    return {"cards": len(shown), "oldest": min((card["year"] for card in shown), default=None)}


def results(state: dict) -> dict:
    """Track position per player, with the spaces from each source, ranks and winners."""
    players = state["players"]
    finished = state["phase"] == "game_over"
    ranks = state["ranks"] or ending.final_ranks(
        [player["position"] for player in players], [[] for _ in players]
    )
    return {
        "finished": finished,
        "highest_wins": True,
        "players": [
            {
                "seat": seat,
                "name": player["name"],
                "score": player["position"],
                "rank": rank,
                "winner": finished and rank == 1,
                "start_player": False,
                "breakdown": {key: player["gained"][key] for key in CATEGORIES},
                "final_exhibition": (state["final"] or [[]] * len(players))[seat],
                "tiebreak": tiebreak((state["final"] or [[]] * len(players))[seat]),
            }
            for seat, (player, rank) in enumerate(zip(players, ranks, strict=True))
        ],
        "categories": list(CATEGORIES),
        "rounds": [],
    }
