"""Small disks for the storage tests: a tmpfs mounted on a temporary folder, filled or read-only.

Mounting needs root, as CI runs the tests; elsewhere the tests that need a disk are skipped.
"""

import errno
import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

#: The tmpfs under an instance: the schema and a game's log fit many times over.
DISK_SIZE = "4m"
FILL_CHUNK = 1 << 20


def mount(*args: str) -> None:
    """Run mount(8) with `args`; the test fails with its words if it refuses."""
    done = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@contextmanager
def small_disk(folder: Path):
    """A DISK_SIZE tmpfs mounted on `folder` for the block's duration."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs the tests as root)")
    folder.mkdir()
    mount("-t", "tmpfs", "-o", f"size={DISK_SIZE},mode=0700", "tmpfs", str(folder))
    try:
        yield folder
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(folder)], check=False)
        subprocess.run(["umount", "--lazy", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Write a file into `folder` until the disk has no byte left; the file, to delete later."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    chunk = b"\0" * FILL_CHUNK
    try:
        while True:
            os.write(fd, chunk)  # a short write fills the last pages; the next one refuses
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    finally:
        os.close(fd)
    return filler
