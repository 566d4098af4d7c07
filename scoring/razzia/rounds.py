"""Razzia! round end, scoring and the next round's setup (RULES.md §1 "Round end", "Scoring")."""

from scoring.razzia import cards, table
from scoring.razzia.score import ranks, score_round


def add_to_family(player: dict, card: str, count: int = 1) -> None:
    """Change how many cards of a kind a family holds, keeping only non-zero kinds."""
    held = player["family"].get(card, 0) + count
    if held:
        player["family"][card] = held
    else:
        player["family"].pop(card, None)


def next_active_seat(state: dict, seat: int) -> int:
    """The next seat clockwise from `seat` with face-up checks (possibly `seat` itself)."""
    count = len(state["players"])
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if state["players"][candidate]["up"]:
            return candidate
    return seat


def round_scores(state: dict) -> list[dict[str, int]]:
    """Every player's points for the current round if it ended now."""
    families = [player["family"] for player in state["players"]]
    held = [player["up"] + player["down"] for player in state["players"]]
    final = state["round"] == cards.ROUNDS
    return score_round(families, state["round"], held if final else None)


def end_round(state: dict, reason: str) -> None:
    """Score the round at once; after round 3 rank the players."""
    scores = round_scores(state)
    state["rounds"].append({"round": state["round"], "reason": reason, "scores": scores})
    state["totals"] = [
        total + score["total"] for total, score in zip(state["totals"], scores, strict=True)
    ]
    state["round_end_reason"] = reason
    state["auction"] = None
    if state["round"] == cards.ROUNDS:
        state["phase"] = "game_over"
        state["ranks"] = ranks(state["totals"])
    else:
        state["phase"] = "round_end"


def start_next_round(state: dict) -> None:
    """Discard crossed loot, clear the rows, turn checks face up; the highest check starts."""
    box = state["box"]
    for card in state["row"]:
        box[card] += 1
    box[cards.POLICE] += state["police"]
    for player in state["players"]:
        for card in cards.DISCARDED_AFTER_SCORING:
            box[card] += player["family"].pop(card, 0)
        player["up"] = sorted(player["up"] + player["down"])
        player["down"] = []
    state["row"] = []
    state["police"] = 0
    state["round"] += 1
    state["round_end_reason"] = None
    state["phase"] = "turn"
    state["turn"] = table.seat_with_highest_check(state)


def live_standings(state: dict) -> list[dict]:
    """Per player: this round's points if it ended now and the total that would give."""
    if state["phase"] not in ("turn", "auction"):
        return []
    return [
        {"name": player["name"], "points": score, "total": total + score["total"]}
        for player, score, total in zip(
            state["players"], round_scores(state), state["totals"], strict=True
        )
    ]
