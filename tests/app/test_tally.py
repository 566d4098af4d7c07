"""The room's totals are the whole server's under workers (issue 33 item 7, server/tally.py)."""

import os

import pytest

from companion_app import create_app
from companion_app.server.room import UNAVAILABLE, Refusal, Room
from companion_app.server.tally import Count, SharedCounts

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="workers fork (POSIX only)")


def test_a_process_count_never_goes_below_zero():
    """One process: a plain count, giving back more than was taken leaves zero."""
    count = Count()
    count.add(2)
    count.add(-3)
    assert count.value == 0


def test_each_worker_adds_to_its_own_slot_and_reads_the_sum():
    """Issue 33 item 7: two workers' views of one count see each other's additions."""
    counts = SharedCounts(2)
    counts.slot = 0
    first = counts.count("stream", "held")
    counts.slot = 1
    second = counts.count("stream", "held")
    first.add(3)
    second.add(4)
    second.add(-10)  # a worker gives back only what it holds: its slot stops at zero
    assert first.value == second.value == 3


@needs_fork
def test_a_forked_worker_counts_in_memory_the_parent_and_its_siblings_read():
    """Issue 33 item 7: the counts live in memory shared across the fork, not copied by it."""
    counts = SharedCounts(2)
    pid = os.fork()
    if pid == 0:  # the worker in slot 1
        counts.slot = 1
        counts.count("connection", "unknown").add(7)
        os._exit(0)
    assert os.waitpid(pid, 0)[1] == 0
    counts.slot = 0  # the parent reads as any worker does
    unknown = counts.count("connection", "unknown")
    assert unknown.value == 7
    counts.forget(1)  # the worker is gone, and everything it held with it
    assert unknown.value == 0


def test_two_workers_rooms_share_one_total_of_streams(tmp_path):
    """Issue 33 item 7: with LIVE_MAX_VIEWERS 4 in all, two workers' rooms let in 4, not 8."""
    counts = SharedCounts(2)
    rooms = []
    for slot in range(2):
        app = create_app(
            {"TESTING": True, "LOCAL_IS_HOST": False, "ROOM_UNKNOWN_SHARE": 1.0},
            instance_path=str(tmp_path / f"worker{slot}"),
        )
        counts.adopt(app, slot)
        rooms.append(Room(app, max_streams=4, max_polls=4))
    rooms[0].take(rooms[0].streams, "10.0.0.1", lambda: None)
    rooms[0].take(rooms[0].streams, "10.0.0.2", lambda: None)
    rooms[1].take(rooms[1].streams, "10.0.0.3", lambda: None)
    assert rooms[0].streams.count == rooms[1].streams.count == 3
    with pytest.raises(Refusal) as refused:  # the 4th is the reserved room's: no rights here
        rooms[1].take(rooms[1].streams, "10.0.0.4", lambda: None)
    assert refused.value.status == UNAVAILABLE
