"""Reading the JSON the store wrote, repaired of what older versions let in.

Before names were checked (scoring/names.py), a setup could hold a lone surrogate ("\\ud800"
from a JSON client): stored as an escape, it loaded back as a string no page can encode, and
every page that showed the name answered 500. Text read back here has each lone surrogate
replaced by U+FFFD (the replacement character), so old tables show "�" instead of failing;
nothing in the database is rewritten.
"""

import json
import re

#: A surrogate code point left alone (a valid pair was already joined by json.loads).
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def loads(text: str) -> object:
    """`json.loads(text)` with every lone surrogate in keys and strings replaced by U+FFFD."""
    value = json.loads(text)
    # The store writes ASCII JSON, so a surrogate can only come from a \ud... escape.
    if "\\ud" in text or "\\uD" in text:
        value = _repaired(value)
    return value


def _repaired(value: object) -> object:
    """`value` with its strings (and object keys) free of lone surrogates."""
    if isinstance(value, str):
        return LONE_SURROGATE.sub(REPLACEMENT, value)
    if isinstance(value, list):
        return [_repaired(item) for item in value]
    if isinstance(value, dict):
        return {_repaired(key): _repaired(item) for key, item in value.items()}
    return value
