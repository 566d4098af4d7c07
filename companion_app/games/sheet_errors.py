"""Every refusal of a score sheet at once, not only the first the calculator met.

The calculators stop at their first problem. To show a form's other problems too, the
refused entry is taken out of the sheet (a list item dropped, a player's key left out) and
the sheet scored again, until it passes, repeats a field or names the whole sheet.
"""

import copy
import re

from scoring.errors import InvalidSheet
from scoring.sheets import score_sheet

#: At most this many refusals are collected (a form has at most a few dozen fields).
MAX_REFUSALS = 12
#: The path a calculator message starts with: "players[2].checks[1]: ...".
MESSAGE_PATH = re.compile(r"^(players\[\d+\](?:\.\w+)*(?:\[\d+\])?): ")
STEP = re.compile(r"\.?(\w+)|\[(\d+)\]")


def _steps(path: str) -> list[str | int]:
    """A path as its keys and indexes: players[2].checks[1] -> players, 2, checks, 1."""
    return [int(index) if index else key for key, index in STEP.findall(path)]


def _take_out(sheet: dict, path: str) -> bool:
    """Drop the entry at a player's `path` from the sheet; False when it cannot be found."""
    steps = _steps(path)
    parent: object = sheet
    for step in steps[:-1]:
        try:
            parent = parent[step]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return False
    last = steps[-1]
    if isinstance(last, int) and isinstance(parent, list) and last < len(parent):
        del parent[last]
        return True
    if isinstance(last, str) and isinstance(parent, dict) and last in parent:
        del parent[last]
        return True
    return False


def every_refusal(sheet: dict, first: InvalidSheet) -> list[InvalidSheet]:
    """`first` and the refusals that follow once each refused player entry is taken out."""
    found, paths = [first], set()
    trial = copy.deepcopy(sheet)
    while len(found) < MAX_REFUSALS:
        matched = MESSAGE_PATH.match(str(found[-1]))
        if matched is None or matched.group(1) in paths or not _take_out(trial, matched.group(1)):
            break
        paths.add(matched.group(1))
        try:
            score_sheet(trial)
        except InvalidSheet as again:
            found.append(again)
        else:
            break
    return found
