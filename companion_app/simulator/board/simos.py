"""`os` and `open` for the simulated board: MicroPython's own, with the ESP32's error numbers.

The flash is an in-memory folder (VfsPosix) whose errors carry Emscripten's numbers (ENOENT is
44 there); the board's littlefs raises MicroPython's (ENOENT 2), which mpremote reads back.
"""

import os as _os

ERRNO = {44: 2, 20: 17, 55: 39, 54: 20, 31: 21, 28: 22, 2: 13, 63: 1, 29: 5, 51: 28, 8: 9}
_open = open
sep = "/"


def _board_errors(call, *args):
    """call(*args), an OSError renumbered as the board would number it."""
    try:
        return call(*args)
    except OSError as exc:
        code = exc.args[0] if exc.args else 0
        if code in ERRNO:
            raise OSError(ERRNO[code]) from None
        raise


def open_file(*args, **kwargs):
    """The built-in open()."""
    try:
        return _open(*args, **kwargs)
    except OSError as exc:
        code = exc.args[0] if exc.args else 0
        if code in ERRNO:
            raise OSError(ERRNO[code]) from None
        raise


def stat(path):
    return _board_errors(_os.stat, path)


def statvfs(path):
    return _board_errors(_os.statvfs, path)


def listdir(path="."):
    return _board_errors(_os.listdir, path)


def ilistdir(path="."):
    return iter(_board_errors(lambda p: list(_os.ilistdir(p)), path))


def mkdir(path):
    return _board_errors(_os.mkdir, path)


def rmdir(path):
    return _board_errors(_os.rmdir, path)


def remove(path):
    return _board_errors(_os.remove, path)


unlink = remove


def rename(old, new):
    return _board_errors(_os.rename, old, new)


def chdir(path):
    return _board_errors(_os.chdir, path)


def getcwd():
    return _os.getcwd()


mount = _os.mount
umount = _os.umount
VfsPosix = _os.VfsPosix
