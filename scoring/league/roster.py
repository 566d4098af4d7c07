"""The roster's rules: what a person's name may be and when two spellings are one person.

A person's name follows the table's name rule (scoring/names.py): stripped, NFC, at most 40
characters, no hidden or control characters. Two spellings are the same person's when
scoring.names compares them equal (`same_name_key`: capitals, spaces, width and hidden
variation selectors do not count), the same comparison that keeps two seats of a table apart.
"""

from collections.abc import Hashable, Iterable

from scoring import names
from scoring.errors import N_, RuleError


class RosterError(RuleError):
    """A roster change refused (rename, merge, a seat's person), with the reason."""


EMPTY = N_("A person needs a name.")
TOO_LONG = N_("The name {name} is longer than {limit} characters.")
REFUSED = {
    names.SURROGATE: N_("The name {name} contains {char}, half of a character; type it again."),
    names.CONTROL: N_("The name {name} contains the control character {char}."),
    names.INVISIBLE: N_(
        "The name {name} contains the invisible character {char} (a zero-width, direction or"
        " formatting mark); remove it."
    ),
    names.PRIVATE: N_(
        "The name {name} contains {char}, a private-use character or noncharacter that other"
        " devices cannot show."
    ),
}


def name_key(name: str) -> str:
    """What two spellings are compared by: scoring.names' comparison of names at a table."""
    return names.same_name_key(name)


def check_person_name(text: object) -> str:
    """The clean name, or RosterError saying why it cannot be a person's name."""
    if not isinstance(text, str):
        raise RosterError(EMPTY)
    found = names.refused_character(text)
    if found is not None:
        reason, char = found
        raise RosterError(
            REFUSED[reason], name=names.shown(text.strip()), char=names.char_label(char)
        )
    name = names.clean(text)
    if not name_key(name):
        raise RosterError(EMPTY)
    if len(name) > names.MAX_NAME_LENGTH:
        raise RosterError(TOO_LONG, name=names.shown(name), limit=names.MAX_NAME_LENGTH)
    return name


def spelling_index(people: Iterable[tuple[Hashable, Iterable[str]]]) -> dict[str, Hashable]:
    """Comparison key -> person, from each person's spellings (name first, then aliases)."""
    index: dict[str, Hashable] = {}
    for person, spellings in people:
        for spelling in spellings:
            index.setdefault(name_key(spelling), person)
    return index
