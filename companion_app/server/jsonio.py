"""Strict JSON reading shared by the API and the CLI: one sentence per kind of bad input.

Nesting is capped at MAX_DEPTH before the document is parsed: the companion's deepest
documents (score sheets, setups) are five levels deep, and a move nested 500 levels deep used
to overflow the rules' `copy.deepcopy` (a 500 and a 3,000-line traceback in the log).
"""

import json
import logging
import math
import re

from companion_app.server.room import RefusalLog

#: Deepest nesting of arrays and objects accepted (ours are at most 5 deep).
MAX_DEPTH = 32
#: A JSON string (skipped whole) or a bracket: what the nesting scan looks at.
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_OPENING = frozenset("[{")
log = logging.getLogger(__name__)
_REFUSALS = RefusalLog()


class BadJson(ValueError):
    """Text that is not a JSON document; the message is a sentence for the person who sent it."""


def _reject_constant(name: str) -> None:
    """Refuse NaN and Infinity, which Python accepts but JSON does not."""
    raise ValueError(f"{name} is not a JSON value")


def _finite_float(text: str) -> float:
    """A JSON number as float, refusing ones too large for a float (1e999 would be infinity)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """True if arrays and objects in `text` nest deeper than `limit` (strings are skipped)."""
    depth = 0
    for token in _STRUCTURE.finditer(text):
        bracket = token.group()
        if bracket in _OPENING:
            depth += 1
            if depth > limit:
                return True
        elif len(bracket) == 1:
            depth -= 1
    return False


def _text(raw: str | bytes) -> str | bytes:
    """`raw` as text when its encoding is clear (UTF-8, -16 or -32 as JSON allows)."""
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode(json.detect_encoding(raw))
    except (UnicodeDecodeError, LookupError):
        return raw  # json.loads says what is wrong with it


def parse(raw: str | bytes, what: str) -> object:
    """Parse `raw`, or raise BadJson saying why `what` (e.g. "The body") is not valid JSON."""
    text = _text(raw)
    if isinstance(text, str) and too_deep(text):
        _REFUSALS.note("depth", f"Refused JSON nested more than {MAX_DEPTH} levels deep", log.info)
        raise BadJson(
            f"{what} is nested too deeply: lists and objects may nest at most {MAX_DEPTH}"
            " levels deep."
        )
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise BadJson(f"{what} is not valid JSON: {exc.msg} at {where}.") from None
    except RecursionError:
        raise BadJson(f"{what} is not valid JSON: it is nested too deeply.") from None
    except ValueError as exc:  # bad UTF-8, NaN, integers with too many digits
        raise BadJson(f"{what} is not valid JSON: {exc}.") from None
