"""Klub ztroskotanců row notes: each player's recent score changes, ending at the score now."""

from scoring.prodigals_club.scores import competition_scores

#: How many changes a player's row note shows (the full history is the move log).
NOTES_SHOWN = 4


def change_notes(state: dict) -> list[list[dict]]:
    """Per seat, the last changes as {competition, before, after}, oldest first.

    The rules record the changes a player's own moves make; Hyde Park (and any other change
    of the round's end) moves the score without one, so a note kept "Election 31 → 32" after
    Hyde Park set 29 (issue 32 item 7). A score that differs from its last recorded change
    gets one more step to the value it has now.
    """
    notes = []
    for seat, recorded in enumerate(state["changes"]):
        shown = [dict(change) for change in recorded]
        now = competition_scores(state, seat, game_end=False)
        last = {change["competition"]: change["after"] for change in shown}
        for competition, after in last.items():
            if competition in now and now[competition] != after:
                step = {"competition": competition, "before": after, "after": now[competition]}
                shown.append(step)
        notes.append(shown[-NOTES_SHOWN:])
    return notes
