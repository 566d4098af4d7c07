"""MicroPython built-ins the firmware uses, with CPython stand-ins so the pure modules run on both.

Ticks follow MicroPython: milliseconds that wrap at 2**30; compare them only with ticks_diff.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(expr):  # type: ignore[no-redef,misc]
        """The value itself (MicroPython folds it at compile time)."""
        return expr


try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _time

    _PERIOD = 1 << 30
    _MASK = _PERIOD - 1
    _HALF = _PERIOD >> 1

    def ticks_ms():  # type: ignore[misc]
        """Milliseconds from an arbitrary point, wrapping at 2**30."""
        return int(_time.monotonic() * 1000) & _MASK  # type: ignore[attr-defined]

    def ticks_add(ticks, delta):  # type: ignore[misc]
        """`ticks` moved by `delta` ms, wrapped."""
        return (ticks + delta) & _MASK

    def ticks_diff(ticks1, ticks2):  # type: ignore[misc]
        """Signed ms from ticks2 to ticks1, correct across the wrap."""
        return ((ticks1 - ticks2 + _HALF) & _MASK) - _HALF


try:
    from sys import print_exception
except ImportError:  # CPython
    import traceback as _traceback  # type: ignore[import-not-found]  # not on the board

    def print_exception(exc, file=None):  # type: ignore[misc]
        """The traceback of `exc` on stderr (MicroPython's sys.print_exception)."""
        _traceback.print_exception(exc, file=file)


__all__ = ["const", "print_exception", "ticks_add", "ticks_diff", "ticks_ms"]
