"""Where a score-sheet refusal belongs on a form, read from the JSON path it starts with.

Every calculator message starts with the path of the sheet field it is about
("players[2].jewelry.ring: ...", "megaphones.Ann: ...", "round: ..."); the three score
forms place the message next to that field and show it there without the path.
"""

import re

#: "players[2].jewelry.ring[0]: ..." -> player 2, path ".jewelry.ring".
PLAYER_PATH = re.compile(r"^players\[(\d+)\]((?:\.\w+)*)")
#: "round: ...", "order[1]: ...", "megaphones.Čeněk Šťastný: ..." -> the top-level key.
TOP_KEY = re.compile(r"^(\w+)(?:\[\d+\]|\.[^:]+?)?: ")
#: The whole leading path of a message and its ": ".
LEADING_PATH = re.compile(r"^(?:players\[\d+\](?:\.\w+)*(?:\[\d+\])?|\w+(?:\[\d+\]|\.[^:]+?)?): ")


def player_field(message: str, columns: list[int]) -> tuple[int, str] | None:
    """(form column, dotted path below the player, "" for the player) of a player's field."""
    found = PLAYER_PATH.match(message)
    if not found or int(found.group(1)) >= len(columns):
        return None
    return columns[int(found.group(1))], found.group(2).lstrip(".")


def top_key(message: str) -> str | None:
    """The top-level sheet key a message is about ("round", "megaphones"), if it names one."""
    found = TOP_KEY.match(message)
    return found.group(1) if found else None


def without_path(message: str) -> str:
    """The message without its leading path, capitalised, for showing at its field."""
    rest = LEADING_PATH.sub("", message, count=1)
    return rest[:1].upper() + rest[1:]
