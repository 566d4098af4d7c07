"""Razzia! final results in the shape every game shares (docs/game-contract.md, "Final results")."""

from scoring.razzia import cards
from scoring.razzia.score import CATEGORIES, ranks


def results(state: dict) -> dict:
    """Standings, per-category totals and the score after every round (RULES.md §1 "Scoring")."""
    count = len(state["players"])
    finished = state["phase"] == "game_over"
    totals = list(state["totals"])
    placed = state["ranks"] if finished and state["ranks"] else ranks(totals)
    starter = start_player(state)
    played = state["rounds"]
    return {
        "finished": finished,
        "highest_wins": True,
        "players": [
            {
                "seat": seat,
                "name": player["name"],
                "score": totals[seat],
                "rank": placed[seat],
                "winner": finished and placed[seat] == 1,
                "start_player": seat == starter,
                "breakdown": {
                    key: sum(round_["scores"][seat][key] for round_ in played) for key in CATEGORIES
                },
                "tiebreak": [],
            }
            for seat, player in enumerate(state["players"])
        ],
        "categories": list(CATEGORIES),
        "tiebreaks": [],  # RULES.md §1: most points wins; the seed breaks no tie (shared)
        "rounds": _rounds(played, count),
    }


def start_player(state: dict) -> int | None:
    """The seat that started round 1: the one dealt the highest check (None before the deal)."""
    if not state["sets"]:
        return None
    count = len(state["players"])
    dealt = [cards.CHECK_SETS[count][cards.SET_LABELS.index(label)] for label in state["sets"]]
    return max(range(count), key=lambda seat: max(dealt[seat]))


def _rounds(played: list[dict], count: int) -> list[dict]:
    """Each scored round's categories per seat and everyone's running total after it."""
    running = [0] * count
    rows = []
    for round_ in played:
        scores = round_["scores"]
        running = [total + scores[seat]["total"] for seat, total in enumerate(running)]
        rows.append(
            {
                "round": round_["round"],
                "breakdown": [{key: score[key] for key in CATEGORIES} for score in scores],
                "cumulative": list(running),
            }
        )
    return rows
