"""How long the room display shows a table: in play while it moves, finished for a while.

Both windows come from the app's config. Apart from `store/room.py` so the store's tables
(`store/tables.py`, numbering tables in play) can read them without importing the room.
"""

from datetime import UTC, datetime, timedelta

from flask import current_app

#: How long a finished game's winner stays on the room display.
DEFAULT_FINISHED_SHOWN_S = 10 * 60
#: A table in play that has not moved for this long is left off the room display.
DEFAULT_IDLE_S = 12 * 60 * 60


def since(now: datetime) -> dict[str, str]:
    """The oldest last move of a table still shown: in play, and finished (sortable UTC text)."""
    config = current_app.config
    idle = timedelta(seconds=float(config.get("ROOM_IDLE_S", DEFAULT_IDLE_S)))
    shown = timedelta(seconds=float(config.get("ROOM_FINISHED_SHOWN_S", DEFAULT_FINISHED_SHOWN_S)))
    return {
        "playing_since": (now - idle).astimezone(UTC).isoformat(timespec="microseconds"),
        "finished_since": (now - shown).astimezone(UTC).isoformat(timespec="microseconds"),
    }


def playing_since() -> str:
    """The oldest last move of a table the room display still shows in play, now."""
    return since(datetime.now(UTC))["playing_since"]
