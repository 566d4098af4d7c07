"""Each player's competition scores in a live state (RULES.md §5)."""

from scoring.prodigals_club.board import ELECTION, LEGACY, PROPERTY, SOCIETY
from scoring.prodigals_club.legacy import legacy_score
from scoring.prodigals_club.standings import property_score


def competition_scores(state: dict, seat: int, game_end: bool) -> dict:
    """{competition: score} for the competitions in play; the tile penalty only at game end."""
    player = state["players"][seat]
    scores = {}
    for name in state["competitions"]:
        if name == PROPERTY:
            tiles = [item["value"] for item in player["tiles"]]
            scores[name] = property_score(player["cash"], tiles, game_end)
        elif name == LEGACY:
            scores[name] = legacy_score(player["legacy"])
        elif name == ELECTION:
            scores[name] = player["votes"]
        elif name == SOCIETY:
            scores[name] = player["society"]
    return scores


def all_scores(state: dict, game_end: bool) -> list[dict]:
    """competition_scores for every seat."""
    return [competition_scores(state, seat, game_end) for seat in range(len(state["players"]))]
