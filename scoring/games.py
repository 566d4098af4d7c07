"""Registry of the games the companion can track or score."""

from types import ModuleType

from scoring.errors import InvalidSetup


def _razzia() -> ModuleType:
    from scoring import razzia

    return razzia


_GAMES = {"razzia": _razzia}


def game_names() -> list[str]:
    """Names of the games that can be tracked live."""
    return sorted(_GAMES)


def get_game(name: object) -> ModuleType:
    """The rules module of a game, or InvalidSetup naming the unknown game."""
    if not isinstance(name, str) or name not in _GAMES:
        raise InvalidSetup(f"Unknown game {name!r}; known games: {', '.join(game_names())}.")
    return _GAMES[name]()
