"""The per-game view modules: how each game's table looks and posts on the tablet.

The shell (home, new table, table page, history, box panel) calls only the names listed in
`docs/game-views.md`; everything a game looks like lives in its package here
(`<game>/view.py` and its parts, mirroring `scoring/<game>/`) and in `templates/<game>/`.
A game is offered on the tablet when both its rules package and its view module exist.
`forms`, `sheet_errors` and `sheet_paths` are what every game's forms share. May import
`store`, `i18n`, `config` and `scoring` (docs/architecture.md).
"""

import importlib
from types import ModuleType

from scoring.games import game_names

#: Game name -> its view module (imported on first use).
VIEWS = {
    "razzia": "companion_app.games.razzia.view",
    "prodigals_club": "companion_app.games.prodigals_club.view",
    "for_sale": "companion_app.games.for_sale.view",
    "adel_verpflichtet": "companion_app.games.adel_verpflichtet.view",
    "thieves_guild": "companion_app.games.thieves_guild.view",
}


def view_for(game: str) -> ModuleType:
    """The view module of a game; KeyError for a game the tablet does not show."""
    return importlib.import_module(VIEWS[game])


def playable() -> list[ModuleType]:
    """The view modules of every game that can be started on the tablet, by title."""
    names = [name for name in game_names() if name in VIEWS]
    return sorted((view_for(name) for name in names), key=lambda view: str(view.TITLE))
