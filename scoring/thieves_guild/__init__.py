"""Cech zlodějů / Thieves' Guild (DinoToys): the pure rules (RULES.md §3)."""

from scoring.thieves_guild.device import device_display
from scoring.thieves_guild.moves import apply, complete_move
from scoring.thieves_guild.queries import actions, legal_moves, live_standings, summary
from scoring.thieves_guild.results import results
from scoring.thieves_guild.secrets import LOG_SECRETS, SECRETS
from scoring.thieves_guild.sheet import score_sheet
from scoring.thieves_guild.table import new_table

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
