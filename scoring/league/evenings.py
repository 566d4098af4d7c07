"""Which club evening a table belongs to: the day it started, nights running past midnight."""

from datetime import date, datetime, timedelta

#: A table started before this local hour belongs to the evening of the day before (a club
#: night that runs past midnight is still one evening).
EVENING_TURNS_AT_HOUR = 6


def evening_day(local_moment: datetime) -> date:
    """The evening's day of a moment in the club's local time."""
    return (local_moment - timedelta(hours=EVENING_TURNS_AT_HOUR)).date()
