"""Who else has the box's serial port open: the port must be the companion's alone.

A plain reader (`cat`, a serial monitor, a default pyserial) ignores the advisory lock the
bridge takes, and every byte it reads is lost to the link: the strip never settles. The bridge
names such programs in its status. Linux: every process's open files under /proc; macOS and
the BSDs: `lsof`; Windows cannot share a COM port at all (the open fails, detect.PortBusy).
"""

import os
import shutil
import subprocess
from pathlib import Path

PROC = Path("/proc")
LSOF_S = 2.0  # lsof on a busy Mac takes a moment; past this we report nobody


def port_holders(path, proc=PROC, me=None):
    """[(pid, program name)] of the other processes that have `path` open, pid order."""
    me = os.getpid() if me is None else me
    if proc.is_dir():
        found = _from_proc(Path(os.path.realpath(path)), proc)
    else:
        found = _from_lsof(path)
    return sorted((pid, name) for pid, name in found if pid != me)


def still_open(path, holders, proc=PROC):
    """The ones of `holders` [(pid, name)] that still have `path` open: a look at their own
    open files alone (a few links), cheap enough for every status report, so a reader that
    exits or closes the port leaves the status at once, not at the next full look."""
    if not proc.is_dir():
        return [(pid, name) for pid, name in holders if _alive(pid)]
    target = Path(os.path.realpath(path))
    return [(pid, name) for pid, name in holders if _holds(proc / str(pid), target)]


def describe(holders):
    """`cat (pid 4242), screen (pid 77)` for the status and the log."""
    return ", ".join(f"{name} (pid {pid})" for pid, name in holders)


def _from_proc(target, proc):
    """Linux: the processes with a file descriptor pointing at `target` (ours to read only:
    other users' processes are skipped where we may not look)."""
    return [
        (int(entry.name), _name(entry))
        for entry in proc.iterdir()
        if entry.name.isdigit() and _holds(entry, target)
    ]


def _holds(entry, target):
    """True if the process at /proc/<pid> `entry` has a file descriptor on `target`."""
    try:
        fds = list((entry / "fd").iterdir())
    except OSError:  # gone, or another user's
        return False
    for fd in fds:
        try:
            if Path(os.readlink(fd)) == target:
                return True
        except OSError:
            continue
    return False


def _alive(pid):
    """True if process `pid` still runs (macOS and the BSDs: lsof is too slow to ask often)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: it exists
        return True
    return True


def _name(entry):
    """A process's program name (its `comm`), or "?" if it is gone."""
    try:
        return (entry / "comm").read_text(encoding="utf-8", errors="replace").strip() or "?"
    except OSError:
        return "?"


def _from_lsof(path):
    """macOS and the BSDs: `lsof -F pc PATH` (pid and command lines), if lsof is there."""
    lsof = shutil.which("lsof")
    if lsof is None:
        return []
    try:
        out = subprocess.run(
            [lsof, "-F", "pc", "--", path], capture_output=True, text=True, timeout=LSOF_S
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found, pid = [], None
    for line in out.splitlines():
        if line.startswith("p") and line[1:].isdigit():
            pid = int(line[1:])
        elif line.startswith("c") and pid is not None:
            found.append((pid, line[1:] or "?"))
            pid = None
    return found
