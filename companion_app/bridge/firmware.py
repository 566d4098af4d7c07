"""The firmware's pure modules loaded under CPython with their board names (`import protocol`).

The firmware imports its modules flat, as on the ESP32 (`import protocol as P`). Loading them
from firmware/ under those names, without putting firmware/ on sys.path, keeps `board`,
`pins` and friends from shadowing anything else in the host process.
"""

import importlib.util
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import firmware

FIRMWARE_DIR = Path(next(iter(firmware.__path__))).resolve()
#: The modules a Box (and its supervisor) needs, dependencies first (none touches `machine`).
PURE_MODULES = (
    "compat",
    "protocol",
    "boxfault",
    "frame",
    "strip",
    "buttons",
    "session",
    "box",
    "supervisor",
)
_lock = threading.Lock()


def firmware_files():
    """The firmware's .py files, as deployed to the board."""
    return sorted(FIRMWARE_DIR.glob("*.py"))


def _load(name):
    """firmware/<name>.py as top-level module `name` (the one already loaded, if it is that)."""
    path = FIRMWARE_DIR / f"{name}.py"
    loaded = sys.modules.get(name)
    if loaded is not None:
        origin = getattr(loaded, "__file__", None)
        if origin is None or Path(origin).resolve() != path:
            raise RuntimeError(f"a module named {name!r} from {origin} hides firmware/{name}.py")
        return loaded
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def load_pins():
    """firmware/pins.py (the board's wiring: button GPIOs, strip layout) as module `pins`."""
    with _lock:
        _load("compat")
        return _load("pins")


def load_firmware():
    """The firmware modules a simulated Box needs, as attributes (`fw.box.Box`, `fw.frame`...)."""
    with _lock:
        return SimpleNamespace(**{name: _load(name) for name in PURE_MODULES})
