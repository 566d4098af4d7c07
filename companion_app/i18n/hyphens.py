"""Soft hyphens in short labels, so a narrow tile breaks a long word where the language may.

Browsers hyphenate `hyphens: auto` text only where they ship a dictionary for the page's
language, and Chromium on Linux ships none, so a tile's "restaurace" broke mid-syllable as
"restaur|ace" (issue 14). Pyphen's dictionaries (LibreOffice's) put the break points in the
text itself; the stylesheet then breaks only there (`hyphens: manual`) and draws the hyphen.
"""

from functools import lru_cache

import pyphen

SOFT_HYPHEN = "\u00ad"
#: Pyphen's dictionary per page language.
DICTIONARIES = {"cs": "cs_CZ", "en": "en_US"}
#: The fewest letters left before and after a break: "do-prava", never "restauran-t".
LEFT, RIGHT = 2, 3


@lru_cache(maxsize=8)
def _dictionary(lang: str) -> pyphen.Pyphen | None:
    """The hyphenation dictionary of `lang`, or None for a language without one."""
    name = DICTIONARIES.get(lang)
    return pyphen.Pyphen(lang=name, left=LEFT, right=RIGHT) if name else None


@lru_cache(maxsize=512)
def soft_hyphens(text: str, lang: str) -> str:
    """`text` with a soft hyphen at every break point its language allows in each word."""
    dictionary = _dictionary(lang)
    if dictionary is None:
        return text
    return " ".join(dictionary.inserted(word, hyphen=SOFT_HYPHEN) for word in text.split(" "))
