"""Fixtures for the app tests: the fake counter game, an API helper, Razzia move scripts."""

import pytest

from scoring import games
from tests.app import fake_game
from tests.app.helpers import ApiActions


@pytest.fixture
def counter(monkeypatch):
    """Register the fake "counter" game for the duration of a test."""
    monkeypatch.setitem(games._GAMES, "counter", lambda: fake_game.MODULE)
    return fake_game


@pytest.fixture
def store(app):
    """The app's store, inside an app context."""
    from companion_app.store import get_store

    with app.app_context():
        yield get_store()


@pytest.fixture
def api(client):
    """Helper for repeated API calls."""
    return ApiActions(client)
