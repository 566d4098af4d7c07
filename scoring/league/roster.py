"""The roster's rules: what a person's name may be and when two spellings are one person.

A person's name follows the table's name rule (scoring/names.py): stripped, NFC, at most 40
characters, no hidden or control characters, at least one letter. Two spellings are the same
person's when scoring.names finds them one name (`same_name`: equal by letters, where
capitals, spaces, width, hidden variation selectors and look-alike letters do not count, or
equal by look, UTS #39's skeleton as typed), the same comparison that keeps two seats of a
table apart. A spelling is looked up by letters first: "Ilse" finds the person "ilse" before
one spelled "1lse", whom it only looks like.

A typed name is matched against the roster (`match`): KNOWN when it spells a person (it
joins them), NEAR when it differs from a person's spelling only by accents on top of what
`same_name` ignores ("Cyril" and "Cýril"), so the organiser must say whether it is that
person or a new one, and NEW otherwise.
"""

import unicodedata
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

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


KNOWN, NEAR, NEW = "known", "near", "new"
#: Unicode categories of the accents `near_key` drops (marks that sit on a letter).
_ACCENTS = frozenset({"Mn", "Me"})


def near_key(name: str) -> str:
    """`name_key` without accents: "Cýril", "CYRIL" and "Cyríl" share one."""
    decomposed = unicodedata.normalize("NFD", name_key(name))
    bare = "".join(char for char in decomposed if unicodedata.category(char) not in _ACCENTS)
    return unicodedata.normalize("NFC", bare)


@dataclass(frozen=True)
class Match:
    """What a typed name is to the roster: KNOWN, NEAR or NEW, and the person it meets."""

    kind: str
    person: Hashable | None = None


class Matcher:
    """Matches typed names against the roster's spellings (see `match`)."""

    def __init__(self, people: Iterable[tuple[Hashable, Iterable[str]]]) -> None:
        self._index = SpellingIndex()
        self._near: dict[str, Hashable] = {}
        for person, spellings in people:
            for spelling in spellings:
                self._index.add(spelling, person)
                self._near.setdefault(near_key(spelling), person)

    def match(self, name: str) -> Match:
        """KNOWN (the person it spells), NEAR (the person it differs from by accents) or NEW."""
        person = self._index.get(name)
        if person is not None:
            return Match(KNOWN, person)
        person = self._near.get(near_key(name))
        return Match(NEAR, person) if person is not None else Match(NEW)


def match(name: str, people: Iterable[tuple[Hashable, Iterable[str]]]) -> Match:
    """What `name` is to the roster `people` (each person with their spellings)."""
    return Matcher(people).match(name)
