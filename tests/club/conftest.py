"""Fixtures for the club's tests: the made-up ranked game and a helper that plays it."""

import pytest

from companion_app.store import get_store
from scoring import games
from tests.club import ranked_game


class Club:
    """Finished games of the ranked game through the store, as a club night would enter them."""

    def __init__(self, app) -> None:
        self.app = app

    def start(self, names: list[str]) -> str:
        """A new ranked table; its id."""
        with self.app.app_context():
            return get_store().create_table(ranked_game.NAME, {"players": list(names)}).id

    def finish(self, table_id: str, ranks: list[int]) -> None:
        """End a started table with these ranks."""
        with self.app.app_context():
            store = get_store()
            table = store.get(table_id)
            store.apply_move(table_id, {"type": "finish", "ranks": ranks}, table.version)

    def play(self, names: list[str], ranks: list[int]) -> str:
        """A table started and finished at once; its id."""
        table_id = self.start(names)
        self.finish(table_id, ranks)
        return table_id

    def undo_end(self, table_id: str) -> None:
        """Undo the move that ended the table."""
        with self.app.app_context():
            store = get_store()
            store.undo(table_id, store.get(table_id).version)


@pytest.fixture(autouse=True)
def ranked(monkeypatch):
    """Register the ranked game for each club test."""
    monkeypatch.setitem(games._GAMES, ranked_game.NAME, lambda: ranked_game.MODULE)
    return ranked_game


@pytest.fixture
def club(app):
    """Play ranked games through the app's store."""
    return Club(app)
