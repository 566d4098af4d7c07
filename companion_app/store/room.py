"""The room display's tables and its live version (docs/live.md "The room display").

The room shows every table in play that moved within ROOM_IDLE_S (a table left unfinished
last week is not in play tonight) and every game that finished within ROOM_FINISHED_SHOWN_S
(its winner stays on the screen for a while). Both windows come from the app's config.

Its version is five numbers over the whole database, each of which only grows, compared part
by part like a table's live version (server/live/pages.py):

1. every table's version plus the number of tables (a move, an undo, a new table);
2. abandoned tables;
3. reveals of unfinished tables: armed, disarmed, and every seat locked in (a press);
4. tables whose window has passed (a winner leaves the screen, a table goes idle);
5. the club's generation (store/finished.py: a game counted or not, a table moved to another
   evening, people merged, an evening's points rule picked), which tonight's ranking reads.

A later part may shrink only when an earlier one grows (a table that finishes takes its
reveals out of part 3, with a move that bumps part 1), so the tuple only grows, and any
change to what the room shows changes it.
"""

from collections.abc import Collection
from datetime import UTC, datetime

from companion_app.store import db, finished
from companion_app.store.model import Table
from companion_app.store.tables import get_store
from companion_app.store.windows import since

_VERSION_SQL = """
SELECT
  (SELECT COUNT(*) + COALESCE(SUM(version), 0) FROM tables) AS changes,
  (SELECT COUNT(*) FROM abandoned_tables) AS abandoned,
  (SELECT COUNT(*) + COALESCE(SUM(disarmed), 0) + COALESCE(SUM(json_array_length(locked_json)), 0)
     FROM reveals WHERE table_id IN (
       SELECT id FROM tables WHERE finished = 0
       AND id NOT IN (SELECT table_id FROM abandoned_tables))) AS reveals,
  (SELECT COUNT(*) FROM tables
     WHERE updated_at < CASE WHEN finished THEN :finished_since ELSE :playing_since END) AS gone,
  COALESCE((SELECT CAST(value_json AS INTEGER) FROM settings WHERE key = :club), 0) AS club
"""


def room_tables(now: datetime | None = None) -> list[Table]:
    """The tables the room display shows now, oldest first."""
    return room_page(None, 0, None, now)[0]


def room_page(
    games: Collection[str] | None, first: int, size: int | None, now: datetime | None = None
) -> tuple[list[Table], int, int]:
    """(`size` of the room's tables of `games` from the `first`, how many of them are in play,
    how many in all)."""
    shown = since(now or datetime.now(UTC))
    return get_store().recent_page(
        shown["playing_since"], shown["finished_since"], games, first, size
    )


def room_version(now: datetime | None = None) -> str:
    """The room display's live version now: five dotted numbers that only grow."""
    marks = since(now or datetime.now(UTC)) | {"club": finished.GENERATION_KEY}
    row = db.get_db().execute(_VERSION_SQL, marks).fetchone()
    return ".".join(str(row[part]) for part in ("changes", "abandoned", "reveals", "gone", "club"))
