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
blank U+2800) is refused as empty, and blanks around a name are dropped. A letter carrying
more than MAX_STACKED_MARKS combining marks is refused: no script needs more (Vietnamese
stacks 2, pointed Hebrew with cantillation 3, Tibetan 4), and dozens of stacked accents
("Zalgo" text) spill over the lines above and below on every screen.

Two names at one table are the same when they are equal after NFKC, case folding, dropping
variation selectors and counting any run of blanks as one space, and then have the same
confusable skeleton (Unicode Technical Standard #39, `scoring/confusables.py`): "Ann" and
"ann", "Zoë" typed precomposed and decomposed, "Ann" and fullwidth "Ａｎｎ", Latin "Ann",
Cyrillic "Аnn" and Greek "Αnn", "Ann" and "Ann" followed by a braille blank are one name.
Case is folded before the skeleton, as UTS #39 does for case-insensitive comparison, so a
capital I and a small l stay different letters ("Il" is not "ll"), as i and l are.
"""

import re
import unicodedata

from scoring.confusables import skeleton
from scoring.errors import N_, InvalidSetup, InvalidSheet, RuleError

#: Longest name in characters (after NFC); longer ones break the table layouts and printouts.
MAX_NAME_LENGTH = 40

SURROGATE, CONTROL, INVISIBLE, PRIVATE = "surrogate", "control", "invisible", "private"
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


def same_name_key(name: str) -> str:
    """What two names are compared by: NFKC, case folded, no variation selectors, single
    spaces for any blanks, then the confusable skeleton (UTS #39)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    visible = "".join(char for char in folded if char not in _VARIATION_SELECTORS)
    return _single_spaces(skeleton(_single_spaces(visible)))


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
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        key = same_name_key(name)
        if key in seen:
            return seen[key], index
        seen[key] = index
    return None, None


def check_text(text: str, error: type[RuleError], template: str, **params: object) -> str:
    """Free text (a label) clean like a name, or `error` (template gets {text} and {char})."""
    found = refused_character(text)
    if found is not None:
        raise error(template, text=shown(text.strip()), char=char_label(found[1]), **params)
    return clean(text)
