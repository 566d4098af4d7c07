"""Which club evening a table belongs to: the day it started, nights running past midnight.

The organiser may move a table to another evening; a day typed for a new evening is checked
here (`chosen_day`).
"""

import re
from datetime import date, datetime, timedelta

from scoring.errors import N_
from scoring.league.roster import RosterError

#: A table started before this local hour belongs to the evening of the day before (a club
#: night that runs past midnight is still one evening).
EVENING_TURNS_AT_HOUR = 6
#: How a day arrives from a date picker (HTML's valid date string).
DAY_PATTERN = re.compile(r"\d{4}-\d{2}-\d{2}")

NOT_A_DAY = N_("The day {text} is not in the calendar; pick it with the date picker.")
FUTURE_DAY = N_("That day has not come yet; a table can only move to an evening that has begun.")


def evening_day(local_moment: datetime) -> date:
    """The evening's day of a moment in the club's local time."""
    return (local_moment - timedelta(hours=EVENING_TURNS_AT_HOUR)).date()


def chosen_day(text: str, latest: date) -> date:
    """The day of a date picker's value, at most `latest` (today's evening), or RosterError."""
    text = text.strip()
    try:
        if not DAY_PATTERN.fullmatch(text):
            raise ValueError(text)
        day = date.fromisoformat(text)
    except ValueError:
        raise RosterError(NOT_A_DAY, text=text[:20]) from None
    if day > latest:
        raise RosterError(FUTURE_DAY)
    return day
