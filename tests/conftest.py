"""Shared fixtures: `app`, `client`, `runner`; a live server and the shared Chromium."""

import pytest
from hypothesis import settings

from companion_app import create_app
from tests.app_build import share_between_apps
from tests.live import chromium, served, stop_chromium

share_between_apps()

# No property test is held to a time per example: Hypothesis's default 200 ms deadline is a
# timed assertion, and a loaded CI host once took 272 ms for a Klub ranking that takes 0.5 ms.
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")


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


@pytest.fixture
def live_server(tmp_path):
    """The app on a real port in a thread, with its own instance folder; yields (base URL, app)."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "browser-test"}, instance_path=str(tmp_path / "instance")
    )
    with served(app) as server:
        yield f"http://127.0.0.1:{server.server_port}", app


@pytest.fixture
def browser():
    """Debian's headless Chromium through Playwright; fails (never skips) if it is missing."""
    with chromium() as launched:
        yield launched


@pytest.fixture(autouse=True)
def chromium_only_while_browser_tests_run(request):
    """The browser tests (marker `browser`) one after another share one Chromium (tests/live.py);
    it is closed before any other test and at the end: Playwright's sync API holds this
    thread's asyncio loop as running while it is started, and other tests run their own."""
    if request.node.get_closest_marker("browser") is None:
        stop_chromium()
    yield


@pytest.fixture(scope="session", autouse=True)
def chromium_closed_at_the_end():
    """The shared browser closes with the session."""
    yield
    stop_chromium()


def pytest_collection_modifyitems(items):
    """The long tests first: the browser tests (whole games, viewport walks), then the slow ones.

    pytest-xdist's worksteal hands each worker a run of the collected order and lets idle
    workers take from the others' ends; with the browser tests last (tests/web sorts last) a
    100 s walk could start when every other worker had run dry, and the run waited on it alone.
    Within each group the order stays as collected.
    """
    items.sort(key=_length_rank)


def _length_rank(item) -> int:
    """0 for a browser test, 1 for a slow one, 2 for the rest."""
    if item.get_closest_marker("browser") is not None:
        return 0
    return 1 if item.get_closest_marker("slow") is not None else 2
