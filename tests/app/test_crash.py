"""Crash safety: every move acknowledged with a 200 survives a SIGKILL of the server."""

import http.client
import os
import random
import signal
import threading

import pytest

from companion_app import create_app
from companion_app.store import get_store
from scoring import razzia
from tests.app.helpers import PLAYERS
from tests.app.live_server import free_port, request, start_server, stop

STREAMS = 4
#: Acknowledged moves (all streams together) before the kill.
KILL_AFTER = 120
#: Acknowledged moves every stream has before the kill, however the scheduler shares the CPU.
KILL_AFTER_EACH = 5
#: Longest wait for those acknowledgements (a loaded machine is slow, never this slow).
ACK_WAIT_S = 300
UNDO_CHANCE = 0.05
CONNECTION_ERRORS = (OSError, http.client.HTTPException)


class Acks:
    """Acknowledgements counted per stream, so the kill waits until every stream has some."""

    def __init__(self, streams):
        self.cond = threading.Condition()
        self.counts = [0] * streams
        self.over = [False] * streams  # a stream whose game ended acknowledges no more

    def ack(self, stream):
        with self.cond:
            self.counts[stream] += 1
            self.cond.notify_all()

    def end(self, stream):
        with self.cond:
            self.over[stream] = True
            self.cond.notify_all()

    def enough(self):
        """KILL_AFTER in all, and KILL_AFTER_EACH from every stream still playing."""
        pairs = zip(self.counts, self.over, strict=True)
        each = all(count >= KILL_AFTER_EACH or over for count, over in pairs)
        return each and sum(self.counts) >= KILL_AFTER

    def wait_for_enough(self, timeout_s):
        with self.cond:
            return self.cond.wait_for(self.enough, timeout=timeout_s)


class Stream(threading.Thread):
    """Plays random legal Razzia moves on one table, recording each acknowledged one."""

    def __init__(self, port, table, seed, acks):
        super().__init__(daemon=True)
        self.port, self.table_id = port, table["id"]
        self.table = table
        self.rng = random.Random(seed)
        self.acked: dict[int, dict | None] = {}  # version -> move (None for an undo)
        self.index, self.acks = seed, acks
        self.failure: BaseException | None = None

    def next_request(self):
        """The next move (or an undo) to send."""
        if self.table["version"] and self.rng.random() < UNDO_CHANCE:
            return "undo", None
        options = razzia.legal_moves(self.table["state"])
        if not options:
            return None, None
        move = self.rng.choice(options)
        return "moves", {"type": "deal"} if move["type"] == "deal" else move

    def run(self):
        """Play, keeping any failure for the test thread to report."""
        try:
            self.play()
        except BaseException as failure:  # re-raised by the test after join()
            self.failure = failure
        finally:
            self.acks.end(self.index)

    def play(self):
        """Send moves until the server dies or the game ends."""
        while True:
            kind, move = self.next_request()
            if kind is None:
                return
            body = {"version": self.table["version"]}
            if move is not None:
                body["move"] = move
            try:
                status, table = request(
                    self.port, "POST", f"/api/tables/{self.table_id}/{kind}", body
                )
            except CONNECTION_ERRORS:
                return
            assert status == 200, table
            self.acked[table["version"]] = move
            self.table = table
            self.acks.ack(self.index)


def kill_after(process, acks, outcome):
    """Wait until enough moves are acknowledged (see Acks.enough), then SIGKILL the server."""
    outcome["enough"] = acks.wait_for_enough(ACK_WAIT_S)
    os.kill(process.pid, signal.SIGKILL)


@pytest.mark.slow
def test_acknowledged_moves_survive_sigkill(tmp_path):
    instance, log = tmp_path / "instance", tmp_path / "server.log"
    port = free_port()
    server = start_server(instance, port, log)
    try:
        acks, outcome = Acks(STREAMS), {}
        tables = [
            request(port, "POST", "/api/tables", {"game": "razzia", "players": PLAYERS})[1]
            for _ in range(STREAMS)
        ]
        streams = [Stream(port, table, seed, acks) for seed, table in enumerate(tables)]
        killer = threading.Thread(target=kill_after, args=(server, acks, outcome), daemon=True)
        killer.start()
        for stream in streams:
            stream.start()
        killer.join(timeout=ACK_WAIT_S + 10)
        assert outcome.get("enough"), f"too few acknowledgements before the kill: {acks.counts}"
        assert server.wait(timeout=10) == -signal.SIGKILL
        for stream in streams:
            stream.join(timeout=30)
            assert stream.failure is None, stream.failure
        # Back on a port free now: the killed server's port was free for any other test's
        # server or client to take while this one was down.
        port = free_port()
        server = start_server(instance, port, log)
        for stream in streams:
            check_stream_survived(port, instance, stream)
    finally:
        stop(server)


def check_stream_survived(port, instance, stream):
    """Every acknowledged entry is in the history, and the stored state equals the replay."""
    status, history = request(port, "GET", f"/api/tables/{stream.table_id}/history")
    assert status == 200
    entries = history["history"]
    assert stream.acked and max(stream.acked) <= len(entries) <= max(stream.acked) + 1
    for version, move in stream.acked.items():
        entry = entries[version - 1]
        if move is None:
            assert entry["kind"] == "undo"
        else:
            assert entry["kind"] == "move"
            assert move.items() <= entry["move"].items()
    _, table = request(port, "GET", f"/api/tables/{stream.table_id}")
    with create_app(instance_path=str(instance)).app_context():
        assert get_store().replay(stream.table_id) == table["state"]
