"""The roster's rules: what a person's name may be and when two spellings are one person.

A person's name follows the table's name rule (scoring/names.py): stripped, NFC, at most 40
characters, no hidden or control characters, at least one letter. Two spellings are the same
person's when scoring.names finds them one name (`same_name`: equal by letters, where
capitals, spaces, width, hidden variation selectors and look-alike letters do not count, or
equal by look, UTS #39's skeleton as typed), the same comparison that keeps two seats of a
table apart. A spelling is looked up by letters first: "Ilse" finds the person "ilse" before
one spelled "1lse", whom it only looks like.
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
    names.NO_LETTER: N_(
        "The name {name} has no letter, only marks such as {char} that sit on a letter."
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
    mark = names.lone_mark(name)
    if mark is not None:
        raise RosterError(
            REFUSED[names.NO_LETTER], name=names.shown(name), char=names.char_label(mark)
        )
    if len(name) > names.MAX_NAME_LENGTH:
        raise RosterError(TOO_LONG, name=names.shown(name), limit=names.MAX_NAME_LENGTH)
    return name


class SpellingIndex:
    """Who each spelling is: by letters first, then by look (scoring.names' two comparisons)."""

    def __init__(self) -> None:
        self._by_letters: dict[str, Hashable] = {}
        self._by_look: dict[str, Hashable] = {}

    def add(self, spelling: str, person: Hashable) -> None:
        """Let `spelling` find `person`, unless an earlier spelling already takes its keys."""
        self._by_letters.setdefault(names.same_name_key(spelling), person)
        self._by_look.setdefault(names.look_key(spelling), person)

    def get(self, name: str) -> Hashable | None:
        """The person `name` spells, or None."""
        person = self._by_letters.get(names.same_name_key(name))
        return person if person is not None else self._by_look.get(names.look_key(name))


def spelling_index(people: Iterable[tuple[Hashable, Iterable[str]]]) -> SpellingIndex:
    """Who each spelling is, from each person's spellings (name first, then aliases)."""
    index = SpellingIndex()
    for person, spellings in people:
        for spelling in spellings:
            index.add(spelling, person)
    return index
