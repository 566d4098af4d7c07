"""A table's short label (issue 32 item 6): the host's own words, checked, or a free number.

The room display and the tablet show the label, or "Table <number>" when the host typed none;
the number is the lowest one free among the tables in play (as the room display counts them:
unfinished, not abandoned, moved within its idle window), so the tables of one evening read
Table 1, Table 2, ... and a table that finishes hands its number to the next game started.
"""

import sqlite3
import unicodedata

from scoring.errors import N_, InvalidSetup

#: Longest label: it heads a tile of the room display beside the game's name.
MAX_LABEL = 24


class InvalidLabel(InvalidSetup):
    """A label the companion cannot show: too long, or not text."""


def clean_label(text: object) -> str | None:
    """The label as it will be shown (spaces collapsed), or None for an empty one."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise InvalidLabel(N_("A table's label must be text, like “By the window”."))
    shown = " ".join(
        "".join(" " if unicodedata.category(char)[0] in "CZ" else char for char in text).split()
    )
    if len(shown) > MAX_LABEL:
        raise InvalidLabel(
            N_("A table's label may be at most {limit} characters long; it has {length}."),
            limit=MAX_LABEL,
            length=len(shown),
        )
    return shown or None


def free_number(conn: sqlite3.Connection, playing_since: str) -> int:
    """The lowest number no table in play holds (tables moved since `playing_since`)."""
    taken = {
        row[0]
        for row in conn.execute(
            "SELECT number FROM tables WHERE number IS NOT NULL AND finished = 0"
            " AND updated_at >= ? AND id NOT IN (SELECT table_id FROM abandoned_tables)",
            (playing_since,),
        )
    }
    number = 1
    while number in taken:
        number += 1
    return number
