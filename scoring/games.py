"""Registry of the games the companion can track or score."""

import importlib
import importlib.util
from collections.abc import Callable
from types import ModuleType

from scoring.errors import InvalidSetup


def _package(path: str) -> Callable[[], ModuleType | None]:
    """A loader of the rules package at `path`; None while that package does not exist yet."""

    def load() -> ModuleType | None:
        return importlib.import_module(path) if exists() else None

    def exists() -> bool:
        return importlib.util.find_spec(path) is not None

    load.exists = exists  # type: ignore[attr-defined]
    return load


#: Game name -> loader of its rules package under `scoring/` (imported on first use).
_GAMES: dict[str, Callable[[], ModuleType | None]] = {
    "razzia": _package("scoring.razzia"),
    "for_sale": _package("scoring.for_sale"),
    "prodigals_club": _package("scoring.prodigals_club"),
    "adel_verpflichtet": _package("scoring.adel_verpflichtet"),
    "thieves_guild": _package("scoring.thieves_guild"),
}


def game_names() -> list[str]:
    """Names of the games that can be tracked live."""
    return sorted(name for name, load in _GAMES.items() if getattr(load, "exists", lambda: True)())


def get_game(name: object) -> ModuleType:
    """The rules module of a game, or InvalidSetup naming the unknown game."""
    module = _GAMES[name]() if isinstance(name, str) and name in game_names() else None
    if module is None:
        raise InvalidSetup(f"Unknown game {name!r}; known games: {', '.join(game_names())}.")
    return module
