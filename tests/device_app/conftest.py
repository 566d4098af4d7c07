"""Fixtures for the device tests: an app with short long polls, and a device API helper."""

import pytest

from companion_app import create_app
from tests.device_app.helpers import DeviceApi

#: Long polls in tests give up after this long (the app's default is 20 s)...
TEST_LONG_POLL_S = 1.0
#: ...and re-read the database this often for changes made by other processes.
TEST_RECHECK_S = 0.05


def make_app(instance_path: str, **config):
    """An app on `instance_path` with the test timings (overridable through `config`)."""
    settings = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "DEVICE_LONG_POLL_S": TEST_LONG_POLL_S,
        "DEVICE_RECHECK_S": TEST_RECHECK_S,
        **config,
    }
    return create_app(settings, instance_path=instance_path)


@pytest.fixture
def app(tmp_path):
    """A fresh app in a temporary instance folder, with short long polls."""
    return make_app(str(tmp_path))


@pytest.fixture
def device(client):
    """Device API calls against the test client."""
    return DeviceApi(client)
