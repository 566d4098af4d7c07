"""Player names: one rule for every table setup, every score sheet and every free-text label.

A name is stripped of surrounding whitespace and put in Unicode NFC, so the same letters are
stored the same way whichever keyboard typed them. It is refused when it holds a character
that cannot be shown or that hides: a lone surrogate (half of a UTF-16 pair, which no page can
encode), a control character, an invisible format character (zero-width space and joiners,
word joiner, byte-order mark, soft hyphen, bidi embeddings, overrides, isolates and marks),
a line or paragraph separator, a private-use character or a noncharacter, or a letter that
shows as nothing (the Hangul fillers). Unassigned code points are let through: the server's
Unicode tables lag behind the phones' keyboards, and a new emoji is a fine name.

A name made only of blanks (spaces, or characters that show as nothing such as the braille
blank U+2800) is refused as empty, and blanks around a name are dropped. A name of combining
marks alone (accents with no letter to sit on, or with spaces only) is refused too: the
marks are drawn on whatever stands before the name on the page. A letter carrying more than
MAX_STACKED_MARKS combining marks is refused: no script needs more (Vietnamese stacks 2,
pointed Hebrew with cantillation 3, Tibetan 4), and dozens of stacked accents ("Zalgo"
text) spill over the lines above and below on every screen.

Two names are the same name (at one table, and the same person in the roster) when either
of two comparisons finds them equal; both start from NFKC, no variation selectors and any
run of blanks as one space, and both use the confusable skeleton of Unicode Technical
Standard #39 (section 4, `scoring/confusables.py`), which ignores underlines (U+0332, U+0333):

- by letters (`same_name_key`): case folded, the skeleton, case folded again, with a small
  capital counted as its capital (ɴ as N) and the dot above dropped where it sits on i or j,
  which show their own dot (İ folds to i + U+0307): "Ann", "ann", "ANN", "Aɴɴ", Cherokee
  "Ꭺnn", Cyrillic "Аnn", "A̲nn"; "Oto" and "0to" (0 looks like O, so like o); "Ivan" and
  "İvan". Folding after the skeleton as well as before is what makes the characters whose
  prototype is a capital (digit 0 is O, Cherokee Ꭺ is A) compare as small letters;
- by look (`look_key`): the skeleton of the name as typed, capitals as they are, as the
  standard defines it: "Ilse" and "1lse" (capital I, digit one and small l all look like
  l), Cyrillic "Оӏе" and "Ole", all-capital Cyrillic "КАТЕ" and "KATE" (though not "Kate":
  the two comparisons are not chained, see below).

A single key cannot do both: "ilse" is "Ilse" by letters and "Ilse" is "1lse" by look, but
"ilse" and "1lse" look different (the dot), and folding i and l together would make "Lia"
and "Ila" one name; chaining the two (folding case after the skeleton as typed) would make
"Iva" and "Lva" one, since capital I's prototype is small l. The skeleton keeps every Czech
accent apart ("Zdeněk" and "Zdenek", "Lída" and "Lida", "Cyril" and "Cýril" are different
names); "Ann" and "Anna", "Jan" and "Jana", "Eva" and "Ewa" stay different.
"""

import re
import unicodedata
from functools import lru_cache

from scoring.confusables import skeleton, small_capitals
from scoring.errors import N_, InvalidSetup, InvalidSheet, RuleError

#: Longest name in characters (after NFC); longer ones break the table layouts and printouts.
MAX_NAME_LENGTH = 40

SURROGATE, CONTROL, INVISIBLE, PRIVATE = "surrogate", "control", "invisible", "private"
#: Why a name with no letter is refused (its marks have nothing to sit on).
NO_LETTER = "no letter"
#: Why a character is refused, by its Unicode general category.
_REFUSED_CATEGORIES = {
    "Cs": SURROGATE,
    "Cc": CONTROL,
    "Zl": CONTROL,
    "Zp": CONTROL,
    "Cf": INVISIBLE,
    "Co": PRIVATE,
}
#: Letters and marks that show nothing (Default_Ignorable_Code_Point outside category Cf):
#: combining grapheme joiner, Hangul fillers, Khmer inherent vowels.
_BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")
#: Variation selectors: allowed (emoji need U+FE0F) but ignored when comparing names.
_VARIATION_SELECTORS = frozenset(
    [chr(code) for code in range(0xFE00, 0xFE10)]
    + [chr(code) for code in range(0x180B, 0x1810)]
    + [chr(code) for code in range(0xE0100, 0xE01F0)]
)
#: Symbols that show as an empty space (not White_Space, so str.strip keeps them): counted
#: as blanks, dropped around a name, and a name of nothing else is empty.
_BLANK_SYMBOLS = "\u2800"
_AROUND = re.compile(f"^[\\s{_BLANK_SYMBOLS}]+|[\\s{_BLANK_SYMBOLS}]+$")
#: Most combining marks one letter may carry (Tibetan stacks 4; Zalgo text dozens).
MAX_STACKED_MARKS = 4
_MARK_CATEGORIES = frozenset({"Mn", "Me"})
#: Every combining mark, spacing ones too (a Devanagari vowel sign alone is no name either).
_ANY_MARK = frozenset({"Mn", "Mc", "Me"})
#: Combining low line and double low line (the skeleton maps the equals sign below to the
#: double one): no letter of any script is made with them, and under a letter they read as
#: the underline a page draws under a link or the field being typed in.
_UNDERLINES = str.maketrans("", "", "\u0332\u0333")
#: The combining dot above, and the letters that show a dot of their own (Soft_Dotted).
_DOT_ABOVE = "\u0307"
_SOFT_DOTTED = frozenset("ij")
_ABOVE = 230  # canonical combining class of the marks drawn above a letter
#: Rounds of folding and the skeleton until they change nothing: measured over every assigned
#: character, one changes 15,250 of them and a second 68 (% gives o/0, whose 0 has the
#: prototype O again), so the fourth round only confirms.
_ROUNDS = 4
#: Longest text whose comparison keys are remembered (a name decomposed, with some margin).
_CACHED_LENGTH = 160
#: Noncharacters: U+FDD0..U+FDEF and the last two code points of every plane.
_NONCHARACTER_BLOCK = range(0xFDD0, 0xFDF0)
_PLANE_END = 0xFFFE

#: Refusals of a table seat's name, by reason ({seat} counts from 1).
SEAT_MESSAGES = {
    SURROGATE: N_(
        "The name of player {seat}, {name}, contains {char}, half of a character that"
        " cannot be shown; type the name again."
    ),
    CONTROL: N_("The name of player {seat}, {name}, contains the control character {char}."),
    INVISIBLE: N_(
        "The name of player {seat}, {name}, contains the invisible character {char} (a"
        " zero-width, direction or formatting mark); remove it."
    ),
    PRIVATE: N_(
        "The name of player {seat}, {name}, contains {char}, a private-use character or"
        " noncharacter that other devices cannot show."
    ),
    NO_LETTER: N_(
        "The name of player {seat}, {name}, has no letter, only marks such as {char} that sit"
        " on a letter; type the name with its letters."
    ),
}
SEAT_SAME = N_(
    "Players {first} and {second} have the same name ({name} and {other}); names must differ"
    " in more than capitals, spaces, hidden characters or look-alike letters."
)
SEAT_EMPTY = N_("Every player needs a name.")
SEAT_STACKED = N_(
    "The name of player {seat}, {name}, stacks {count} accents on one letter; at most {limit}"
    " are allowed."
)
SEAT_TOO_LONG = N_("The name {name} is longer than {limit} characters.")
NOT_A_LIST = N_("players must be a list of names.")

#: Refusals of a score sheet's name, by reason ({field} is the sheet path, e.g. order[2]).
SHEET_MESSAGES = {
    SURROGATE: N_(
        "{field}: the name {name} contains {char}, half of a character that cannot be shown."
    ),
    CONTROL: N_("{field}: the name {name} contains the control character {char}."),
    INVISIBLE: N_(
        "{field}: the name {name} contains the invisible character {char} (a zero-width,"
        " direction or formatting mark)."
    ),
    PRIVATE: N_(
        "{field}: the name {name} contains {char}, a private-use character or noncharacter."
    ),
    NO_LETTER: N_(
        "{field}: the name {name} has no letter, only marks such as {char} that sit on a letter."
    ),
}
SHEET_SAME = N_(
    "{field}: {name} is already the name of {other_field} ({other}); two players cannot have"
    " the same name, not even with other capitals, spaces, hidden characters or look-alike"
    " letters."
)
SHEET_EMPTY = N_("{field}: a player name must be a non-empty text, not {name}.")
SHEET_STACKED = N_(
    "{field}: the name {name} stacks {count} accents on one letter; at most {limit} are allowed."
)
SHEET_TOO_LONG = N_("{field}: the name {name} is longer than {limit} characters.")


def refused_character(text: str) -> tuple[str, str] | None:
    """(reason, character) of the first character a name may not hold, or None."""
    for char in text:
        reason = _REFUSED_CATEGORIES.get(unicodedata.category(char))
        if reason is None and char in _BLANK_LETTERS:
            reason = INVISIBLE
        if reason is None and _is_noncharacter(char):
            reason = PRIVATE
        if reason is not None:
            return reason, char
    return None


def _is_noncharacter(char: str) -> bool:
    """True for the 66 code points Unicode reserves as never being characters."""
    code = ord(char)
    return code in _NONCHARACTER_BLOCK or code & _PLANE_END == _PLANE_END


def clean(text: str) -> str:
    """Surrounding blanks stripped and NFC (call only on text with no refused character)."""
    return _AROUND.sub("", unicodedata.normalize("NFC", _AROUND.sub("", text)))


def _single_spaces(text: str) -> str:
    """Every run of blanks as one space, none at the ends."""
    return " ".join(text.translate({ord(blank): " " for blank in _BLANK_SYMBOLS}).split())


def _prepared(name: str) -> str:
    """What both comparisons start from: NFKC, no variation selectors, single spaces."""
    compatible = unicodedata.normalize("NFKC", name)
    return _single_spaces("".join(char for char in compatible if char not in _VARIATION_SELECTORS))


def _fold(text: str) -> str:
    """Case folded (NFKC), a small capital counted as its capital: ɴ as N, so as n."""
    lifted = unicodedata.normalize("NFKC", text).casefold().translate(small_capitals())
    return unicodedata.normalize("NFKC", lifted.casefold())


def _undotted(decomposed: str) -> str:
    """The dot above dropped where it is the first mark above i or j, which show a dot."""
    kept, base, above = [], "", False
    for char in decomposed:
        ccc = unicodedata.combining(char)
        if ccc == 0:
            base, above = char, False
        elif ccc == _ABOVE:
            dropped = char == _DOT_ABOVE and base in _SOFT_DOTTED and not above
            above = True
            if dropped:
                continue
        kept.append(char)
    return "".join(kept)


def _look(text: str) -> str:
    """UTS #39's skeleton without underlines, blanks as single spaces."""
    return _single_spaces(skeleton(text).translate(_UNDERLINES))


def same_name_key(name: str) -> str:
    """The comparison by letters (sorting and search use it too): case folded, the skeleton
    (UTS #39), case folded again; small capitals as capitals, no dot above on i or j."""
    return _by_letters_cached(name) if len(name) <= _CACHED_LENGTH else _by_letters(name)


def look_key(name: str) -> str:
    """The comparison by look: the skeleton (UTS #39) of the name as typed, capitals kept."""
    return _by_look_cached(name) if len(name) <= _CACHED_LENGTH else _by_look(name)


def _by_letters(name: str) -> str:
    """same_name_key, computed: folding and the skeleton until they change nothing."""
    key = _fold(_prepared(name))
    for _ in range(_ROUNDS):
        again = _fold(_undotted(_look(key)))
        if again == key:
            break
        key = again
    return key


def _by_look(name: str) -> str:
    """look_key, computed."""
    return _look(_prepared(name))


# The roster compares every spelling it has on each new table; only name-sized text is kept,
# so a search for a long text cannot fill the memory.
_by_letters_cached = lru_cache(maxsize=4096)(_by_letters)
_by_look_cached = lru_cache(maxsize=4096)(_by_look)


def same_name(first: str, second: str) -> bool:
    """True when two names are one: equal by letters or by look."""
    return same_name_key(first) == same_name_key(second) or look_key(first) == look_key(second)


def lone_mark(name: str) -> str | None:
    """The first mark of a name that has no letter for its marks to sit on, or None."""
    marks = [char for char in name if unicodedata.category(char) in _ANY_MARK]
    rest = "".join(char for char in name if unicodedata.category(char) not in _ANY_MARK)
    return marks[0] if marks and not _single_spaces(rest) else None


def stacked_marks(text: str) -> int:
    """The most combining marks on one letter of `text` (after canonical decomposition)."""
    most = run = 0
    for char in unicodedata.normalize("NFD", text):
        run = run + 1 if unicodedata.category(char) in _MARK_CATEGORIES else 0
        most = max(most, run)
    return most


def char_label(char: str) -> str:
    """A character as a message names it: U+202E (RIGHT-TO-LEFT OVERRIDE)."""
    code = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "") if unicodedata.category(char) != "Cs" else ""
    return f"{code} ({name})" if name else code


def shown(text: str, limit: int = MAX_NAME_LENGTH) -> str:
    """Text safe to show in a message: hidden characters as [U+XXXX], quoted, shortened."""
    parts = []
    for char in text[: limit + 1]:
        hidden = refused_character(char) is not None or char in _VARIATION_SELECTORS
        parts.append(f"[U+{ord(char):04X}]" if hidden else char)
    body = "".join(parts)
    return f'"{body[:limit]}..."' if len(text) > limit else f'"{body}"'


def seat_names(names: object, low: int, high: int, wrong_count: str) -> list[str]:
    """Validated, clean names in seat order; `wrong_count` is the game's {count} message."""
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise InvalidSetup(NOT_A_LIST)
    if not low <= len(names) <= high:
        raise InvalidSetup(wrong_count, count=len(names))
    cleaned = []
    for seat, name in enumerate(names, start=1):
        found = refused_character(name)
        if found is not None:
            reason, char = found
            raise InvalidSetup(
                SEAT_MESSAGES[reason], seat=seat, name=shown(name.strip()), char=char_label(char)
            )
        name = clean(name)
        if not same_name_key(name):
            raise InvalidSetup(SEAT_EMPTY)
        mark = lone_mark(name)
        if mark is not None:
            raise InvalidSetup(
                SEAT_MESSAGES[NO_LETTER], seat=seat, name=shown(name), char=char_label(mark)
            )
        stacked = stacked_marks(name)
        if stacked > MAX_STACKED_MARKS:
            raise InvalidSetup(
                SEAT_STACKED, seat=seat, name=shown(name), count=stacked, limit=MAX_STACKED_MARKS
            )
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidSetup(
                SEAT_TOO_LONG, name=name[:MAX_NAME_LENGTH] + "...", limit=MAX_NAME_LENGTH
            )
        cleaned.append(name)
    first, second = _first_clash(cleaned)
    if first is not None:
        raise InvalidSetup(
            SEAT_SAME,
            first=first + 1,
            second=second + 1,
            name=shown(cleaned[first]),
            other=shown(cleaned[second]),
        )
    return cleaned


def sheet_names(names: list, fields: list[str]) -> list[str]:
    """A sheet's clean names; `fields[i]` is the sheet path of `names[i]` for messages."""
    cleaned = []
    for name, field in zip(names, fields, strict=True):
        if not isinstance(name, str):
            raise InvalidSheet(SHEET_EMPTY, field=field, name=repr(name)[:MAX_NAME_LENGTH])
        found = refused_character(name)
        if found is not None:
            reason, char = found
            raise InvalidSheet(
                SHEET_MESSAGES[reason],
                field=field,
                name=shown(name.strip()),
                char=char_label(char),
            )
        name = clean(name)
        if not same_name_key(name):
            raise InvalidSheet(SHEET_EMPTY, field=field, name=shown(name))
        mark = lone_mark(name)
        if mark is not None:
            raise InvalidSheet(
                SHEET_MESSAGES[NO_LETTER], field=field, name=shown(name), char=char_label(mark)
            )
        stacked = stacked_marks(name)
        if stacked > MAX_STACKED_MARKS:
            raise InvalidSheet(
                SHEET_STACKED, field=field, name=shown(name), count=stacked, limit=MAX_STACKED_MARKS
            )
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidSheet(SHEET_TOO_LONG, field=field, name=shown(name), limit=MAX_NAME_LENGTH)
        cleaned.append(name)
    first, second = _first_clash(cleaned)
    if first is not None:
        raise InvalidSheet(
            SHEET_SAME,
            field=fields[second],
            name=shown(cleaned[second]),
            other_field=fields[first],
            other=shown(cleaned[first]),
        )
    return cleaned


def _first_clash(names: list[str]) -> tuple[int | None, int | None]:
    """Seats (0-based) of the first two names that count as the same, or (None, None)."""
    by_letters: dict[str, int] = {}
    by_look: dict[str, int] = {}
    for index, name in enumerate(names):
        letters, look = same_name_key(name), look_key(name)
        earlier = by_letters.get(letters, by_look.get(look))
        if earlier is not None:
            return earlier, index
        by_letters[letters], by_look[look] = index, index
    return None, None


def check_text(text: str, error: type[RuleError], template: str, **params: object) -> str:
    """Free text (a label) clean like a name, or `error` (template gets {text} and {char})."""
    found = refused_character(text)
    if found is not None:
        raise error(template, text=shown(text.strip()), char=char_label(found[1]), **params)
    return clean(text)
