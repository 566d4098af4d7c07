"""The bridge inside `companion serve`: with a detected board, `--device PORT`, or `--simulate`.

With none of them, a watcher keeps looking for a board by its USB id, so a box plugged in
after the start is driven too; until then the on-screen panel is the device ("virtual").
"""

import logging
import threading

from companion_app.bridge import detect
from companion_app.bridge.driver import Bridge
from companion_app.device.status import get_status

log = logging.getLogger(__name__)


class Plan:
    """What serve runs for the box: mode (serial, simulator, None) and how to find its port."""

    def __init__(self, mode, find_port=None, message="", engine="auto"):
        self.mode = mode
        self.find_port = find_port
        self.message = message
        self.engine = engine  # the simulator's: auto, micropython or cpython


def plan(device=None, simulate=False, find_board=detect.find_board):
    """Decide from the flags and what is plugged in: explicit port, simulator, detected, none.

    `simulate` is False or an engine name (True means auto: MicroPython if it can run).
    """
    if simulate:
        engine = "auto" if simulate is True else simulate
        message = "Box: simulated (companion device simulate, in-process)."
        return Plan("simulator", message=message, engine=engine)
    if device:
        return Plan("serial", lambda: device, f"Box: {device}.")
    found = find_board()
    if found:
        return Plan("serial", find_board, f"Box: found on {found}.")
    return Plan(
        None,
        find_board,
        "No box found: the on-screen panel is the device (a box plugged in later is picked up).",
    )


class Embedded:
    """A bridge (and simulator) running in this process next to the app; `stop()` ends both."""

    WATCH_S = 2.0  # how often to look for a board plugged in after the start

    def __init__(self, app, url, chosen):
        self.sim = None
        self.bridge = None
        self._url = url
        self._status = get_status(app)
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._watcher = None
        if chosen.mode is None:
            if chosen.find_port is not None:
                self._watcher = threading.Thread(
                    target=self._watch, args=(chosen.find_port,), name="box-watcher", daemon=True
                )
                self._watcher.start()
            return
        find_port = chosen.find_port
        if chosen.mode == "simulator":
            from companion_app.simulator.micropython import make_simulator

            self.sim = make_simulator(chosen.engine).start()
            self._status.update(simulator=self.sim.ENGINE)
            find_port = self._sim_path
        self._start_bridge(find_port, chosen.mode)

    def _start_bridge(self, find_port, mode):
        """Start the bridge on whatever port `find_port()` names, unless stopping."""
        with self._lock:
            if not self._stopping.is_set():
                self.bridge = Bridge(
                    self._url, find_port, mode=mode, report=self._status.update
                ).start()

    def _watch(self, find_board):
        """Look for a board every WATCH_S; once one appears, bridge it (and stop looking)."""
        while not self._stopping.wait(self.WATCH_S):
            try:
                found = find_board()
            except OSError as exc:  # listing ports failed this time; try again later
                log.warning("could not list serial ports: %s", exc)
                continue
            if found:
                log.info("box plugged in on %s", found)
                self._start_bridge(find_board, "serial")
                return

    def _sim_path(self):
        """The simulator's current pty path."""
        return self.sim.path

    def stop(self):
        """Stop the watcher, the bridge and the simulator; the status goes back to virtual."""
        with self._lock:
            self._stopping.set()
        if self._watcher is not None:
            self._watcher.join()
        if self.bridge is not None:
            self.bridge.stop()
            self._status.reset()
        if self.sim is not None:
            self.sim.stop()
            self._status.update(simulator=None)
