"""Shared fixtures in the flaskr style: `app` on a temporary instance folder, `client`, `runner`."""

import pytest

from companion_app import create_app


@pytest.fixture
def app(tmp_path):
    """A fresh app whose database, session key and files live in a temporary instance folder."""
    return create_app({"TESTING": True, "SECRET_KEY": "test"}, instance_path=str(tmp_path))


@pytest.fixture
def client(app):
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """A runner for the app's Flask CLI commands."""
    return app.test_cli_runner()
