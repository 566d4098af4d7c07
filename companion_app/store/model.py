"""What the store hands out: tables, history entries, and its refusals."""

from dataclasses import dataclass
from datetime import datetime

from scoring.errors import N_

#: Longest table id echoed back in a "not found" message.
MAX_ECHOED_ID = 40


def moment(text: str | None) -> datetime | None:
    """A stored ISO time, or None for none."""
    return None if text is None else datetime.fromisoformat(text)


class StoreError(Exception):
    """A store refusal; like RuleError it keeps its English template and params apart."""

    def __init__(self, template: str, **params: object) -> None:
        """Keep the template and params; the message is the filled-in English sentence."""
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


class TableNotFound(StoreError, LookupError):
    """No table has the requested id."""

    def __init__(self, table_id: object) -> None:
        """Name the missing id (shortened if long)."""
        shown = str(table_id)[:MAX_ECHOED_ID]
        super().__init__(N_("There is no table with id {table_id}."), table_id=shown)


class StaleVersion(StoreError):
    """The client acted on an older version of the table than the stored one."""

    def __init__(self, current: int, sent: int) -> None:
        """Say both versions: the stored one and the one the client sent."""
        self.current = current
        self.sent = sent
        super().__init__(
            N_(
                "This table changed since you loaded it (version {current}, you sent {sent}); "
                "reload and try again."
            ),
            current=current,
            sent=sent,
        )


class TooManyTables(StoreError):
    """A device started as many tables within the window as one device may (429)."""

    def __init__(self, count: int, retry_at: str, retry_after_s: int) -> None:
        """How many it started, and when (HH:MM, local time) it may start another."""
        self.retry_after_s = retry_after_s
        super().__init__(
            N_(
                "This device has started {count} tables within an hour, the most one device"
                " may; it can start another at {time}, or start it on the computer that runs"
                " the companion."
            ),
            count=count,
            time=retry_at,
        )


class RoomFull(TooManyTables):
    """The devices in the room started as many tables within the window as the server takes
    from them all (429; issue 33 item 5): one address can't, nor can many together."""

    def __init__(self, count: int, retry_at: str, retry_after_s: int) -> None:
        """How many the devices started, and when (HH:MM, local time) another may start."""
        self.retry_after_s = retry_after_s
        StoreError.__init__(
            self,
            N_(
                "The devices in the room have started {count} tables within an hour, the most"
                " the companion takes from them; a new table can start at {time}, or on the"
                " computer that runs the companion."
            ),
            count=count,
            time=retry_at,
        )


class TableAbandoned(StoreError):
    """A move, undo or reveal on a table its host abandoned."""

    def __init__(self) -> None:
        """Say why nothing can change any more."""
        super().__init__(N_("This table was abandoned; start a new table to play on."))


@dataclass(frozen=True)
class Table:
    """A table as stored: its setup, version (log length) and current state."""

    id: str
    game: str
    setup: dict
    version: int
    state: dict
    created_at: datetime
    updated_at: datetime
    finished: bool
    #: The host gave the table up unfinished: kept, but out of lists and closed to moves.
    abandoned: bool = False
    #: The host's short label ("By the window"), or None: then "Table <number>" is shown.
    label: str | None = None
    #: The lowest number free among the tables in play when it started (None with a label).
    number: int | None = None


@dataclass(frozen=True)
class LogEntry:
    """One row of a table's history; undone moves stay listed with `undone=True`."""

    seq: int
    kind: str
    move: dict | None
    undone: bool
    undoes: int | None
    created_at: datetime
