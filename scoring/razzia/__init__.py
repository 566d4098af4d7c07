"""Razzia! (Reiner Knizia): the pure rules behind the live table (RULES.md §1)."""

from scoring.razzia.device import device_display
from scoring.razzia.moves import apply, complete_move
from scoring.razzia.queries import actions, legal_moves, summary
from scoring.razzia.results import results
from scoring.razzia.rounds import live_standings
from scoring.razzia.secrets import LOG_SECRETS, SECRETS
from scoring.razzia.sheet import score_razzia_sheet as score_sheet
from scoring.razzia.table import new_table

__all__ = [
    "LOG_SECRETS",
    "SECRETS",
    "actions",
    "apply",
    "complete_move",
    "device_display",
    "legal_moves",
    "live_standings",
    "new_table",
    "results",
    "score_sheet",
    "summary",
]
