"""Klub ztroskotanců (The Prodigals Club): the scorekeeper's rules (RULES.md §5)."""

from scoring.prodigals_club.moves import apply, complete_move
from scoring.prodigals_club.queries import (
    actions,
    device_display,
    legal_moves,
    live_standings,
    results,
    summary,
)
from scoring.prodigals_club.secrets import LOG_SECRETS, SECRETS
from scoring.prodigals_club.sheet import (
    final_standings,
    handicap_sheet,
    hyde_park_sheet,
    score_sheet,
)
from scoring.prodigals_club.table import new_table

__all__ = [
    "LOG_SECRETS",
    "SECRETS",
    "actions",
    "apply",
    "complete_move",
    "device_display",
    "final_standings",
    "handicap_sheet",
    "hyde_park_sheet",
    "legal_moves",
    "live_standings",
    "new_table",
    "results",
    "score_sheet",
    "summary",
]
