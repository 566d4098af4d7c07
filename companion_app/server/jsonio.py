"""Strict JSON reading shared by the API and the CLI: one sentence per kind of bad input."""

import json
import math


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


def parse(raw: str | bytes, what: str) -> object:
    """Parse `raw`, or raise BadJson saying why `what` (e.g. "The body") is not valid JSON."""
    try:
        return json.loads(raw, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise BadJson(f"{what} is not valid JSON: {exc.msg} at {where}.") from None
    except RecursionError:
        raise BadJson(f"{what} is not valid JSON: it is nested too deeply.") from None
    except ValueError as exc:  # bad UTF-8, NaN, integers with too many digits
        raise BadJson(f"{what} is not valid JSON: {exc}.") from None
