"""Final standings of an Adel Verpflichtet table in the shape of docs/game-contract.md."""

from scoring.adel_verpflichtet import ending

#: Where the spaces came from, in display order (pawns start at space 0).
CATEGORIES = ["exhibitions", "detectives", "final"]
#: What breaks a tie on the track (RULES.md §4 "End": "tie → better final exhibition"):
#: its number of cards, then its oldest object (the lowest year).
TIEBREAKS = ["final_cards", "oldest_object"]


def results(state: dict) -> dict:
    """Track position per player, with the spaces from each source, ranks and winners."""
    players = state["players"]
    finished = state["phase"] == "game_over"
    ranks = state["ranks"] or ending.final_ranks(
        [player["position"] for player in players], [[] for _ in players]
    )
    shows = state["final"] or [[]] * len(players)
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
                "final_exhibition": shows[seat],
                "tiebreak": tiebreak(shows[seat]),
            }
            for seat, (player, rank) in enumerate(zip(players, ranks, strict=True))
        ],
        "categories": list(CATEGORIES),
        "tiebreaks": list(TIEBREAKS),
        "rounds": [],
    }


def tiebreak(shown: list[dict]) -> list[int | None]:
    """[cards in the final exhibition, its oldest year (None without one)]."""
    return [len(shown), min((card["year"] for card in shown), default=None)]
