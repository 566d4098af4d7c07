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
from typing import IO

LOCK_FILE = "companion.lock"


class InstanceBusy(Exception):
    """Another process holds the instance lock in a way that excludes this one."""


def lock_path(instance_path: str) -> str:
    """The lock file of an instance folder."""
    return os.path.join(instance_path, LOCK_FILE)


def _open(instance_path: str) -> IO[bytes]:
    """The lock file, created (with its folder) if missing."""
    os.makedirs(instance_path, exist_ok=True)
    return open(lock_path(instance_path), "ab")  # noqa: SIM115 -- held for the caller's lifetime


def hold_shared(instance_path: str) -> IO[bytes]:
    """Hold the lock shared until the returned file is closed (or the process ends).

    Waits while a restore holds it: the server then opens the restored database.
    """
    handle = _open(instance_path)
    fcntl.flock(handle.fileno(), fcntl.LOCK_SH)
    return handle


def try_shared(instance_path: str) -> IO[bytes]:
    """Hold the lock shared, or InstanceBusy at once if a restore holds it."""
    return _try(instance_path, fcntl.LOCK_SH)


@contextmanager
def exclusive(instance_path: str) -> Iterator[None]:
    """Hold the lock alone for the block, or InstanceBusy at once if anyone else holds it."""
    handle = _try(instance_path, fcntl.LOCK_EX)
    try:
        yield
    finally:
        handle.close()


def _try(instance_path: str, mode: int) -> IO[bytes]:
    """Take the lock in `mode` without waiting; InstanceBusy when it is taken."""
    handle = _open(instance_path)
    try:
        fcntl.flock(handle.fileno(), mode | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise InstanceBusy(lock_path(instance_path)) from None
    return handle
