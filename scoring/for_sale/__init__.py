"""For Sale / Na prodej (Stefan Dorra, ALBI edition): the pure rules (RULES.md §2)."""

from scoring.for_sale.device import device_display
from scoring.for_sale.moves import apply, complete_move
from scoring.for_sale.queries import actions, legal_moves, live_standings, reveal_seats, summary
from scoring.for_sale.results import results
from scoring.for_sale.sealing import sealed_move, sealed_options
from scoring.for_sale.secrets import LOG_SECRETS, SECRETS
from scoring.for_sale.sheet import score_sheet
from scoring.for_sale.table import new_table

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
    "reveal_seats",
    "score_sheet",
    "sealed_move",
    "sealed_options",
    "summary",
]
