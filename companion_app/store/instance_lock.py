"""The instance lock: `companion serve` holds it shared for its lifetime, a restore exclusively.

A lock on `<instance>/companion.lock` (flock), not a pid file: the kernel drops it when the
process ends, however it ends, so a crashed server never leaves the instance locked. Servers
share it (two on one instance stay possible), and a restore, which replaces the database
under them, needs it alone.
"""

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager

LOCK_FILE = "companion.lock"


class InstanceBusy(Exception):
    """Another process holds the instance lock in a way that excludes this one."""


class Held:
    """The lock, held until `close()` or until this object goes (a caller's local variable:
    when its function returns, however it returns)."""

    def __init__(self, fd: int) -> None:
        """Hold the lock taken on the open file descriptor `fd`."""
        self._fd: int | None = fd

    def close(self) -> None:
        """Release the lock (closing its file); again is harmless."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:
        """Release the lock when nobody holds this any more."""
        self.close()


def lock_path(instance_path: str) -> str:
    """The lock file of an instance folder."""
    return os.path.join(instance_path, LOCK_FILE)


def _open(instance_path: str) -> int:
    """A descriptor of the lock file, created (with its folder) if missing."""
    os.makedirs(instance_path, exist_ok=True)
    return os.open(lock_path(instance_path), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)


def hold_shared(instance_path: str) -> Held:
    """Hold the lock shared until the returned Held is closed or dropped (or the process ends).

    Waits while a restore holds it: the server then opens the restored database.
    """
    fd = _open(instance_path)
    fcntl.flock(fd, fcntl.LOCK_SH)
    return Held(fd)


def try_shared(instance_path: str) -> Held:
    """Hold the lock shared, or InstanceBusy at once if a restore holds it."""
    return _try(instance_path, fcntl.LOCK_SH)


@contextmanager
def exclusive(instance_path: str) -> Iterator[None]:
    """Hold the lock alone for the block, or InstanceBusy at once if anyone else holds it."""
    held = _try(instance_path, fcntl.LOCK_EX)
    try:
        yield
    finally:
        held.close()


def _try(instance_path: str, mode: int) -> Held:
    """Take the lock in `mode` without waiting; InstanceBusy when it is taken."""
    fd = _open(instance_path)
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise InstanceBusy(lock_path(instance_path)) from None
    return Held(fd)
