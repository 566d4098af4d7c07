"""Fixtures: the real app served live, the simulated box on a pty, the bridge between them."""

import pytest

from companion_app.bridge.driver import Bridge
from companion_app.simulator.box import Simulator
from tests.device.liveapp import LiveApp


@pytest.fixture
def live(tmp_path):
    """The companion app on a free port; closed (threads joined) after the test."""
    server = LiveApp(tmp_path)
    yield server
    server.close()


@pytest.fixture
def sim():
    """A running simulated box; stopped after the test."""
    box = Simulator().start()
    yield box
    box.stop()


def start_bridge(live, sim, table=None):
    """A bridge from `sim`'s current port to `live`, reporting into the app's status."""
    return Bridge(
        live.url, lambda: sim.path, table=table, mode="simulator", report=live.status.update
    ).start()


@pytest.fixture
def bridge(live, sim):
    """The bridge between the live app and the simulated box; stopped after the test."""
    running = start_bridge(live, sim)
    yield running
    running.stop()


@pytest.fixture
def make_sim():
    """Simulators with options (filters); all stopped after the test."""
    made = []

    def make(**options):
        """A started simulator."""
        box = Simulator(**options).start()
        made.append(box)
        return box

    yield make
    for box in made:
        box.stop()


@pytest.fixture
def make_bridge(live):
    """Bridges from a simulator to the live app; all stopped after the test."""
    made = []

    def make(box, table=None):
        """A started bridge."""
        running = start_bridge(live, box, table)
        made.append(running)
        return running

    yield make
    for running in made:
        running.stop()
