"""The confusable skeleton of Unicode Technical Standard #39 (section 4), for player names.

skeleton(X): X in NFD, every character replaced by its prototype from Unicode's
confusables.txt (the MA table, `scoring/confusables_data.py`), then NFD again. Two strings
that look alike have the same skeleton: Latin "Ann", Cyrillic "Аnn" and Greek "Αnn" all give
"Ann". The PyPI packages were looked at and not taken: `confusable-homoglyphs` keeps only a
symmetric list of look-alike characters (no prototypes, so no skeleton), and `confusables`
expands every combination of look-alikes (exponential in the length) instead of computing
the one skeleton the standard defines; the standard's algorithm is a dictionary lookup.
"""

import unicodedata
from functools import cache

from scoring.confusables_data import TABLE


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype, read once from the table."""
    table: dict[str, str] = {}
    for line in TABLE.splitlines():
        source, *target = line.split()
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target)
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton of `text`: NFD, each character by its prototype, NFD again."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in decomposed))
