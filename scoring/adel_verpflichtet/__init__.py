"""Adel Verpflichtet / Hoity Toity (Klaus Teuber): the pure rules (RULES.md §4)."""

from scoring.adel_verpflichtet.device import device_display
from scoring.adel_verpflichtet.moves import apply, complete_move
from scoring.adel_verpflichtet.queries import (
    actions,
    legal_moves,
    live_standings,
    reveal_seats,
    reveal_step,
    summary,
)
from scoring.adel_verpflichtet.results import results
from scoring.adel_verpflichtet.sealing import (
    check_sealed,
    sealed_move,
    sealed_options,
    sealed_seats,
)
from scoring.adel_verpflichtet.secrets import LOG_SECRETS, SECRETS
from scoring.adel_verpflichtet.sheet import score_sheet
from scoring.adel_verpflichtet.table import new_table

__all__ = [
    "LOG_SECRETS",
    "SECRETS",
    "actions",
    "apply",
    "check_sealed",
    "complete_move",
    "device_display",
    "legal_moves",
    "live_standings",
    "new_table",
    "results",
    "reveal_seats",
    "reveal_step",
    "score_sheet",
    "sealed_move",
    "sealed_options",
    "sealed_seats",
    "summary",
]
