"""Sheet and setup paths in the player's words: "players[0].checks[1]" -> "Ann, check 2".

Rule messages start with the path of the field they refuse (SCORESHEETS.md); the API keeps
it, the pages show the field as the table names it.
"""

import re

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from companion_app.i18n import labels

#: "players[2].checks[1]: ...", "money: ...", "megaphones.Ann: ..." and the rest of the message.
LEADING_PATH = re.compile(
    r"^(?P<path>players\[\d+\](?:\.\w+)*(?:\[\d+\])?"
    r"|[a-z_]+(?:\[\d+\])?(?:\.[^:\s]+)?): (?P<rest>.*)$",
    re.S,
)
PLAYER_PATH = re.compile(r"^players\[(\d+)\]((?:\.\w+)*)(?:\[(\d+)\])?$")

#: Top-level setup and sheet keys as the forms label them.
TOP_FIELDS = {
    "messengers": _l("Messengers each"),
    "money": _l("Property: starting money (£)"),
    "districts": _l("Property: districts"),
    "district": _l("Property: district marker starts at"),
    "votes": _l("Election: starting votes"),
    "hyde_park": _l("Hyde Park"),
    "society_tokens": _l("Society: chart values under the 4 tokens at the start"),
    "society_range": _l("Society: the chart’s lowest and highest score (optional)"),
    "society_chart": _l("Society chart (optional): the value of every space"),
    "competitions": _l("Competitions"),
    "players": _l("Players"),
    "round": _l("Round"),
    "megaphones": _l("Megaphones"),
    "losses": _l("Votes lost"),
    "order": _l("Turn order"),
    "card_costs": _l("Card prices in one turn (the table in the rulebook)"),
    "loot_roll": _l("First roll: the loot"),
    "target_roll": _l("Second roll: the target"),
    "direction": _l("Side"),
    "robber": _l("Robber"),
}
#: Fields of a move as the table page's controls name them (Klub's entries mostly).
MOVE_FIELDS = {
    "seat": _l("Player"),
    "action": _l("Entry"),
    "cash": _l("Cash"),
    "amount": _l("Amount"),
    "value": _l("Value"),
    "tile": _l("Tile"),
    "tiles": _l("Tiles"),
    "give": _l("Tile given"),
    "take": _l("Tile taken"),
    "discount": _l("Discount"),
    "limit": _l("Exchange limit"),
    "delta": _l("Votes"),
    "tokens": _l("Society tokens"),
    "sum": _l("Society score"),
    "label": _l("Label"),
    "property": _l("Legacy property"),
    "exempt": _l("Exempt this round"),
    "from": _l("From"),
    "to": _l("To"),
    "jail": _l("Jail"),
    "black_peter": _l("Černý Petr"),
}
#: A player's fields below players[i] (the last key of the path), as the forms label them.
PLAYER_FIELDS = {
    "name": _l("name"),
    "checks": _l("check"),
    "coins": _l("coins"),
    "cash": _l("cash"),
    "tiles": _l("tile"),
    "properties": _l("Legacy property"),
    "election": _l("Election"),
    "society": _l("Society"),
    "property": _l("Property"),
    "legacy": _l("Legacy"),
    "cards": _l("Cards in hand"),
}


def _player_words(found: re.Match, names: list[str]) -> str:
    """A player's field: "Ann, check 2" (or "Player 3, coins" without a name)."""
    index, keys, item = int(found.group(1)), found.group(2).lstrip("."), found.group(3)
    name = names[index] if index < len(names) and names[index] else ""
    who = name or gettext("Player %(number)s", number=index + 1)
    key = keys.split(".")[-1] if keys else ""
    label = PLAYER_FIELDS.get(key) or labels.KINDS.get(key) or labels.CATEGORIES.get(key)
    if label is None:
        return who
    what = str(label) if item is None else f"{label} {int(item) + 1}"
    return gettext("%(who)s, %(what)s", who=who, what=what)


def words_for(path: str, names: list[str] | None = None, fields: dict | None = None) -> str | None:
    """The field a message's path names, in the page's language; None when it is unknown."""
    found = PLAYER_PATH.match(path)
    if found:
        return _player_words(found, names or [])
    top = re.split(r"[.\[]", path, maxsplit=1)[0]
    label = (fields or {}).get(top) or TOP_FIELDS.get(top)
    return None if label is None else str(label)


def in_words(message: str, names: list[str] | None = None, fields: dict | None = None) -> str:
    """A translated refusal with its leading path put in words ("Ann, check 2: ...").

    `fields` labels further top-level keys (MOVE_FIELDS for the table page's moves).
    """
    found = LEADING_PATH.match(message)
    if not found:
        return message
    words = words_for(found.group("path"), names, fields)
    return message if words is None else f"{words}: {found.group('rest')}"
