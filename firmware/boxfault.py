"""What the box tells the host about a fault: the exception's text as a `fault=` field value.

Built when the loop has just raised, possibly for want of memory: every step may fail, so a
failure falls back to a fixed text made at import (no allocation needed to send it).
"""

import protocol as P

FAULT_CHARS = 64  # of the `fault=` value: the longest HB (t=, quiet=1, fault=) stays < 120 B
OUT_OF_MEMORY = "MemoryError"  # the text when there was no memory to describe the fault
UNKNOWN = "fault"  # the text when describing it failed for another reason


def describe(exc: BaseException) -> str:
    """`Type: message` of `exc`, escaped for the wire; a fixed text if that cannot be built."""
    if isinstance(exc, MemoryError):
        return OUT_OF_MEMORY
    try:
        name = type(exc).__name__
        message = str(exc)
        return P.escape_text(name + ": " + message if message else name, FAULT_CHARS)
    except MemoryError:
        return OUT_OF_MEMORY
    except Exception:  # a __str__ that raises: the fault is still reported, without words
        return UNKNOWN
