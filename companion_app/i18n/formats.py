"""One way to write dates and numbers per language (issue 32 item 5), all through Babel.

Every page, printout and message writes a date, a time or a number with these helpers: one
date format per language ("Dec 3, 2026" / "3. 12. 2026"), one date and time ("Dec 3, 2026,
11:25 AM" / "3. 12. 2026 11:25"), the minus sign U+2212 before a negative number (never the
hyphen), and whole numbers without decimals ("87 500", not "87 500,0").
"""

from datetime import date as Date
from datetime import datetime, timedelta
from datetime import time as Time
from functools import lru_cache

from babel.dates import format_date, format_time, format_timedelta, get_datetime_format
from babel.numbers import format_decimal, format_percent
from flask_babel import get_locale

#: The minus sign a printed number shows (U+2212), not the narrower hyphen.
MINUS = "\u2212"
#: The date's length in every format: Babel's "medium" ("Dec 3, 2026", "3. 12. 2026").
DATE_LENGTH = "medium"
#: The time's length: hours and minutes ("11:25 AM", "11:25").
TIME_LENGTH = "short"
#: The weekday spelled out ("Thursday", "čtvrtek").
WEEKDAY = "EEEE"
#: Where a weekday's name stands before the date, per language (English puts a comma).
WEEKDAY_JOIN = {"en": "{weekday}, {date}"}
DEFAULT_WEEKDAY_JOIN = "{weekday} {date}"
#: At most this many decimals in a plain number (league points: 8, 5,33).
NUMBER_DECIMALS = "#,##0.##"
#: One decimal: ratings and averages that are not whole (12,3).
ONE_DECIMAL = "#,##0.0"
#: A whole number with the locale's grouping (87 500).
WHOLE = "#,##0"
#: A number printed as it is, without grouping (a year in a tie-break stays "1620").
PLAIN = "0"


def _local(moment: Date) -> Date:
    """A stored time in this computer's time zone (what the players' clocks say); a date as is."""
    return moment.astimezone() if isinstance(moment, datetime) else moment


def date(moment: Date | None) -> str:
    """A day in the page's language ("Dec 3, 2026", "3. 12. 2026"; "" for none)."""
    if moment is None:
        return ""
    return format_date(_local(moment), DATE_LENGTH, locale=get_locale())


def time(moment: datetime | Time) -> str:
    """A time of day in the page's language ("11:25 AM", "11:25"); a clock time as is."""
    local = _local(moment)
    return format_time(local, TIME_LENGTH, tzinfo=local.tzinfo, locale=get_locale())


def date_time(moment: datetime | None) -> str:
    """A moment as a day and a time ("Dec 3, 2026, 11:25 AM", "3. 12. 2026 11:25")."""
    if moment is None:
        return ""
    pattern = get_datetime_format(DATE_LENGTH, locale=get_locale())
    return pattern.replace("'", "").format(time(moment), date(moment))


def day(moment: Date) -> str:
    """A day with its weekday, as evenings are named ("čtvrtek 3. 12. 2026")."""
    locale = get_locale()
    weekday = format_date(_local(moment), WEEKDAY, locale=locale)
    join = WEEKDAY_JOIN.get(getattr(locale, "language", None), DEFAULT_WEEKDAY_JOIN)
    return join.format(weekday=weekday, date=date(moment))


def ago(elapsed: timedelta) -> str:
    """How long ago, in words of the page's language ("5 minutes ago", "před 5 minutami")."""
    return format_timedelta(-elapsed, add_direction=True, locale=get_locale())


def _signed_text(value: float, pattern: str) -> str:
    """`value` in `pattern` with the minus sign before a negative (never "−0")."""
    locale = get_locale()
    return _written(value, pattern, str(locale) if locale else None)


@lru_cache(maxsize=4096)
def _written(value: float, pattern: str, locale: str | None) -> str:
    """`_signed_text` for one language (Babel parses its pattern anew on every call: cached)."""
    text = format_decimal(abs(value), format=pattern, locale=locale)
    shows_digit = any(ch in "123456789" for ch in text)
    return (MINUS + text) if value < 0 and shows_digit else text


def number(value: float | None) -> str:
    """A number with grouping and at most two decimals, whole where whole (87 500; −3; 5,33)."""
    return "" if value is None else _signed_text(value, NUMBER_DECIMALS)


def whole(value: float | None) -> str:
    """A whole number with grouping (13,000 / 13 000; −2)."""
    return "" if value is None else _signed_text(value, WHOLE)


def plain(value: float) -> str:
    """A number without grouping, as a year is written (1620; −3)."""
    return _signed_text(value, PLAIN)


def signed(value: float) -> str:
    """A change with its sign: +2, −2, +1,5 and a plain 0 (never "−0" or "+0")."""
    text = number(value)
    return "+" + text if value > 0 and text != number(0) else text


def average(value: float | None) -> str:
    """An average: whole where whole (87 500), else one decimal (16,5); "" for none."""
    if value is None:
        return ""
    rounded = round(value, 1)
    return whole(rounded) if rounded == int(rounded) else _signed_text(rounded, ONE_DECIMAL)


def rating(value: float) -> str:
    """A rating with one decimal (12,3; −3,3; never "−0,0")."""
    return _signed_text(round(value, 1), ONE_DECIMAL)


def rating_change(value: float) -> str:
    """A rating's change with its sign and one decimal (+1,2; −0,4; 0,0)."""
    text = rating(value)
    return "+" + text if round(value, 1) > 0 else text


def one_decimal(value: float) -> str:
    """A number with one decimal, whole or not (1,0 MB)."""
    return _signed_text(round(value, 1), ONE_DECIMAL)


def percent(share: float) -> str:
    """A share as a whole percentage in the page's language ("50%", "50 %")."""
    return format_percent(share, locale=get_locale())
