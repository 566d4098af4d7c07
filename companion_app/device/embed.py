"""The bridge inside `companion serve`: with a detected board, `--device PORT`, or `--simulate`."""

import logging

from companion_app.device import detect
from companion_app.device.bridge import Bridge
from companion_app.device_status import get_status

log = logging.getLogger(__name__)


class Plan:
    """What serve runs for the box: mode (serial, simulator, None) and how to find its port."""

    def __init__(self, mode, find_port=None, message=""):
        self.mode = mode
        self.find_port = find_port
        self.message = message


def plan(device=None, simulate=False, find_board=detect.find_board):
    """Decide from the flags and what is plugged in: explicit port, simulator, detected, none."""
    if simulate:
        return Plan("simulator", message="Box: simulated (companion device simulate, in-process).")
    if device:
        return Plan("serial", lambda: device, f"Box: {device}.")
    found = find_board()
    if found:
        return Plan("serial", find_board, f"Box: found on {found}.")
    return Plan(None, message="No box found: the on-screen panel is the device.")


class Embedded:
    """A bridge (and simulator) running in this process next to the app; `stop()` ends both."""

    def __init__(self, app, url, chosen):
        self.sim = None
        self.bridge = None
        if chosen.mode is None:
            return
        find_port = chosen.find_port
        if chosen.mode == "simulator":
            from companion_app.device.simulator import Simulator

            self.sim = Simulator().start()
            find_port = self._sim_path
        status = get_status(app)
        self.bridge = Bridge(url, find_port, mode=chosen.mode, report=status.update).start()
        self._status = status

    def _sim_path(self):
        """The simulator's current pty path."""
        return self.sim.path

    def stop(self):
        """Stop the bridge and the simulator; the status goes back to virtual."""
        if self.bridge is not None:
            self.bridge.stop()
            self._status.reset()
        if self.sim is not None:
            self.sim.stop()
