"""The app's memory: tables, move logs, reveals and settings in SQLite; wake-ups of long polls.

Imports only `scoring` and `companion_app.config` (docs/architecture.md); everything above it
reaches the database through here. `companion_app.store.tables` is the event log,
`reveal_gate` the reveal checks a move passes in its own transaction, `reveals` arming and
pressing on their own, `changes` the wake-ups of waiting polls.
"""

from companion_app.store.model import (
    LogEntry,
    StaleVersion,
    StoreError,
    Table,
    TableAbandoned,
    TableNotFound,
    TooManyTables,
)
from companion_app.store.tables import Store, get_store, init_app

__all__ = [
    "LogEntry",
    "StaleVersion",
    "Store",
    "StoreError",
    "Table",
    "TableAbandoned",
    "TableNotFound",
    "TooManyTables",
    "get_store",
    "init_app",
]
