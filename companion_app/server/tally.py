"""The room's totals counted for the whole server, also when it runs several worker processes.

A device's own shares are counted by the one worker its address is pinned to (workers.py),
but the totals (connections, live streams, held polls in all, and how many of each unknown
devices hold: room.Shares) are the server's, not each worker's: otherwise N workers would
let in N times the stock caps and N times the unknown share (issue 33, item 7).

With one process a count is a plain number (`Count`). With workers the parent makes a
`SharedCounts` before it forks: one block of shared memory with a slot per worker and count.
Each worker writes only its own slots (no lock: one writer per slot, aligned 8-byte words)
and reads the sum of every worker's, so a total may be off by what other workers took in the
same instant, never more. A worker that is gone has its slots zeroed by the parent.
"""

import mmap

#: The counts a room keeps: (kind, what), kind being a room.Shares kind.
NAMES = tuple(
    (kind, what) for kind in ("connection", "stream", "poll") for what in ("held", "unknown")
)
_WORD = 8
#: Where a worker's app keeps its SharedCounts (room.Room reads it).
SHARED_COUNTS = "companion_room_shared_counts"


class Count:
    """One process's count (the server runs one process)."""

    def __init__(self) -> None:
        """Zero."""
        self.mine = 0

    @property
    def value(self) -> int:
        """The count."""
        return self.mine

    def add(self, delta: int) -> None:
        """Count `delta` more (fewer if negative), never below zero."""
        self.mine = max(0, self.mine + delta)


class SharedCount:
    """A count summed over every worker's slot; this worker adds to its own."""

    def __init__(self, words: memoryview, index: int, stride: int, workers: int, slot: int):
        """The count at `index` of each worker's row of `stride` words; ours is row `slot`."""
        self.words = words
        self.cells = [worker * stride + index for worker in range(workers)]
        self.own = slot * stride + index

    @property
    def value(self) -> int:
        """Every worker's count together."""
        words = self.words
        return sum(words[cell] for cell in self.cells)

    def add(self, delta: int) -> None:
        """Count `delta` more in this worker's slot (fewer if negative), never below zero."""
        self.words[self.own] = max(0, self.words[self.own] + delta)


class SharedCounts:
    """Shared memory for every worker's counts, made in the parent before it forks."""

    def __init__(self, workers: int) -> None:
        """A zeroed row of len(NAMES) counts per worker (anonymous memory forks share)."""
        self.workers = workers
        self.memory = mmap.mmap(-1, workers * len(NAMES) * _WORD)
        self.words = memoryview(self.memory).cast("q")
        self.slot: int | None = None

    def adopt(self, app, slot: int) -> None:
        """In worker `slot` (after the fork): its app's rooms count here from now on."""
        self.slot = slot
        app.extensions[SHARED_COUNTS] = self

    def count(self, kind: str, what: str) -> SharedCount:
        """This worker's view of one count (call in the worker, once `slot` is set)."""
        if self.slot is None:
            raise RuntimeError("shared counts are read in a worker, once its slot is set")
        return SharedCount(
            self.words, NAMES.index((kind, what)), len(NAMES), self.workers, self.slot
        )

    def forget(self, worker: int) -> None:
        """Zero a worker's counts (it is gone, and so is everything it held)."""
        row = worker * len(NAMES)
        for index in range(row, row + len(NAMES)):
            self.words[index] = 0
