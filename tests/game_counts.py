"""How many random games the property tests play: a quick count for every run, the full count
on demand (`COMPANION_LONG_PROPERTIES=1`, see bench/README.md), so CI stays under 10 minutes."""

import os

#: Set to 1 to play the full counts (what the property tests played before issue 22).
LONG_ENV = "COMPANION_LONG_PROPERTIES"


def games(full: int, quick: int) -> int:
    """`full` games when the long run is asked for, otherwise `quick`."""
    return full if os.environ.get(LONG_ENV) == "1" else quick
