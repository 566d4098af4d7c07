"""The standings in words: the points rule, what ordered tied rows, and the CSV export."""

import csv
import io
import re
import unicodedata

from babel.numbers import get_decimal_symbol
from flask_babel import get_locale, gettext, ngettext
from flask_babel import lazy_gettext as _l

from companion_app.club.league import Board
from scoring.league.points import BEATEN
from scoring.league.standings import PER_GAME, SHARED, WINS, Standing

ORDER_SENTENCE = _l(
    "Order: league points; level on points, more wins (first places, shared ones too); still"
    " level, more points per game; rows level on all three share their place."
)
#: The CSV's columns in the page's language; the person's id (stable across renames) comes
#: last so the earlier columns keep their places.
CSV_COLUMNS = (
    _l("Place"),
    _l("Shared place"),
    _l("Player"),
    _l("Points"),
    _l("Games"),
    _l("Wins"),
    _l("Points per game"),
    _l("Tie"),
    _l("Person id"),
)
#: A spreadsheet treats a cell starting with one of these as a formula; such text is quoted.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Longest slug of a season's or an evening's name in a file name.
MAX_SLUG = 60
CSV_DECIMALS = 2


def rule_sentence(rule: dict) -> str:
    """What a season's points rule gives, in the page's language."""
    if rule["kind"] == BEATEN:
        return gettext(
            "Points per share of players beaten: %(points)s for finishing ahead of everyone at"
            " the table, 0 for last; a player tied with you counts as half beaten.",
            points=rule["points"],
        )
    places = ", ".join(
        gettext("place %(place)s: %(points)s", place=place, points=points)
        for place, points in enumerate(rule["points"], start=1)
    )
    return gettext(
        "Points per placing (%(places)s; later places 0); players tied for a place share the"
        " points of the places they cover.",
        places=places,
    )


def tie_note(row: Standing, board: Board) -> str:
    """Why a row level on points with others stands where it does ("" when not level)."""
    if not row.level_with:
        return ""
    names = ", ".join(board.name(person) for person in row.level_with)
    count = len(row.level_with)
    if row.decided_by == WINS:
        return ngettext(
            "Level on points with %(names)s; more wins come first.",
            "Level on points with %(names)s; more wins come first.",
            count,
            names=names,
        )
    if row.decided_by == PER_GAME:
        return ngettext(
            "Level on points and wins with %(names)s; more points per game come first.",
            "Level on points and wins with %(names)s; more points per game come first.",
            count,
            names=names,
        )
    if row.decided_by == SHARED:
        return ngettext(
            "Level with %(names)s on points, wins and points per game: the place is shared.",
            "Level with %(names)s on points, wins and points per game: the place is shared.",
            count,
            names=names,
        )
    return ""


def standings_csv(board: Board, notes: list[str]) -> str:
    """One CSV line per person, best first, as a spreadsheet in the page's language reads it:
    where the decimal mark is a comma (Czech), cells are separated by ";" and numbers written
    with a decimal comma; else "," and a decimal point. Two decimals, no digit grouping."""
    mark = get_decimal_symbol(get_locale())
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if mark == "," else ",", lineterminator="\r\n")
    writer.writerow([str(column) for column in CSV_COLUMNS])
    for row, note in zip(board.rows, notes, strict=True):
        writer.writerow(
            (
                row.place,
                int(row.shared),
                _cell(board.name(row.person)),
                _decimal(row.points, mark),
                row.games,
                row.wins,
                _decimal(row.per_game, mark),
                _cell(note),
                row.person,
            )
        )
    return out.getvalue()


def _decimal(value, mark: str) -> str:
    """A number with CSV_DECIMALS decimals and the locale's decimal mark."""
    return f"{float(value):.{CSV_DECIMALS}f}".replace(".", mark)


def file_slug(*names: str) -> str:
    """A file name's part from names ("Jarní liga 2026" -> "jarni-liga-2026"): ASCII letters
    and digits, accents dropped, anything else one hyphen."""
    text = unicodedata.normalize("NFKD", " ".join(names))
    text = "".join(char for char in text if not unicodedata.combining(char)).lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:MAX_SLUG].strip("-")


def _cell(text: str) -> str:
    """Text a spreadsheet will show as text, never run as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
