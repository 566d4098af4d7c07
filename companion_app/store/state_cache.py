"""A small thread-safe LRU of table states keyed by (table_id, version).

A (table_id, version) pair names one state forever (the log is append-only and an undo
appends a row), so entries never go stale, even with several app processes on one database.
"""

import threading
from collections import OrderedDict
from collections.abc import Hashable


class StateCache:
    """Least-recently-used mapping from (table_id, version) to a state dict."""

    def __init__(self, size: int) -> None:
        """An empty cache holding at most `size` states."""
        self._size = size
        self._entries: OrderedDict[Hashable, dict] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> dict | None:
        """The cached state for `key`, or None."""
        with self._lock:
            state = self._entries.get(key)
            if state is not None:
                self._entries.move_to_end(key)
            return state

    def put(self, key: Hashable, state: dict) -> None:
        """Remember `state` under `key`, evicting the least recently used beyond the size."""
        with self._lock:
            self._entries[key] = state
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        """How many states are cached."""
        return len(self._entries)
