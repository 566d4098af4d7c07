"""Several worker processes behind one socket (`companion serve --workers N`, POSIX only).

The parent binds the socket, forks the workers, and accepts every connection itself: it
passes the connection to the worker chosen by the client's share key (`room.share_of`: an
IPv4 address, an IPv6 /64), so one device always reaches the same worker and its shares of
connections, streams and polls (server/room.py, server/protocol.py) are counted by one process,
as with one worker. The parent also keeps what must have one owner: the box's bridge and the
automatic backups run there, never in a worker.

The workers share the SQLite database (WAL, one writer at a time). The change feed between
them is the database itself: every process reads `PRAGMA data_version` (it moves when another
connection committed) every FEED_S and notifies its app's ChangeFeed, so a page held by one
worker hears of a move posted to another within FEED_S, then the round a local write would
run. docs/scale.md says why this and not a socket fan-out.
"""

import asyncio
import json
import logging
import os
import select
import signal
import socket
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable
from typing import NamedTuple

from flask import Flask

from companion_app.server.live.relay import GONE, RELAY, Relay, relay_socket
from companion_app.server.live.relay import MESSAGE_MAX as RELAY_MAX
from companion_app.server.room import share_of
from companion_app.server.tally import SharedCounts
from companion_app.store import db
from companion_app.store.changes import get_feed, new_feed

log = logging.getLogger(__name__)

#: Most workers `companion serve` starts by itself: each is a whole process (two and the
#: parent held 270 MB in bench_convention) with its own first renders, box panel frames and
#: room display, and more than two were never measured (docs/scale.md); `--workers N` asks
#: for more.
MAX_DEFAULT = 8
#: Seconds between two reads of the database's data_version (the cross-process change feed).
FEED_S = 0.05
#: Longest the parent waits for a worker to take a connection before dropping it.
HANDOFF_TIMEOUT_S = 1.0
#: Seconds between two copies of the bridge status sent from the parent to every worker.
STATUS_EVERY_S = 0.5
MESSAGE_MAX = 65536
#: Seconds between a worker's checks that its parent still runs.
PARENT_CHECK_S = 1.0
#: Seconds the parent gives its workers to stop (their own grace is serve.GRACE_S).
STOP_WAIT_S = 6.0


def supported() -> bool:
    """True where workers can run: fork and passing sockets between processes (not Windows)."""
    return hasattr(os, "fork") and hasattr(socket, "send_fds")


def default_workers() -> int:
    """Every core (at most MAX_DEFAULT) where workers are supported, else 1."""
    return min(MAX_DEFAULT, os.cpu_count() or 1) if supported() else 1


def worker_of(address: str, workers: int) -> int:
    """The worker that serves a client address (stable: the same device, the same worker)."""
    return zlib.crc32(share_of(address).encode()) % workers


class DataVersionWatch:
    """A thread that notifies the app's change feed when another connection commits."""

    def __init__(self, app: Flask, period_s: float = FEED_S) -> None:
        """Watch the app's database every `period_s` once started."""
        self.app = app
        self.period_s = period_s
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="data-version", daemon=True)

    def start(self) -> "DataVersionWatch":
        """Read the current data_version, then watch in a thread: no commit after this call
        goes unnoticed."""
        self.conn = sqlite3.connect(
            db.database_path(self.app), isolation_level=None, check_same_thread=False
        )
        self.last = self._read()
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stop watching (returns within one period)."""
        self.stopping.set()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join()

    def _read(self) -> int:
        """The database's data_version as this watch's connection sees it."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def _run(self) -> None:
        """Read data_version every period; notify on every change."""
        try:
            while not self.stopping.wait(self.period_s):
                try:
                    now = self._read()
                except sqlite3.Error:  # a busy or failing disk: the next period tries again
                    continue
                if now != self.last:
                    self.last = now
                    get_feed(self.app).notify()
        finally:
            self.conn.close()


def _fresh_process_state(app: Flask) -> None:
    """In a new worker: its own change feed and database connections, none of the parent's.

    The parent's feed carries the backups' listener (their thread stays in the parent), and
    a SQLite connection must not be used on both sides of a fork.
    """
    new_feed(app)
    _KEPT.extend(db.forget_inherited(app))


#: Connections inherited from the parent, kept referenced so no worker ever closes them.
_KEPT: list = []


class Shared(NamedTuple):
    """What has one owner (the parent) and a copy in every worker: the bridge status.

    `owner(app)` gives the parent's (snapshot, take): a copy to send, and a report from a
    worker to keep; `worker(app, send)` sets up a worker's copy, whose reports go to
    `send`, and gives the function that takes the parent's copies. (The CLI wires
    device/status.py in: the server does not import the device.)
    """

    owner: Callable[[Flask], tuple[Callable[[], dict], Callable[[dict], None]]]
    worker: Callable[[Flask, Callable[[dict], None]], Callable[[dict], None]]


#: In a worker: what takes the parent's copies (set by serve_worker).
_take_copy: list[Callable[[dict], None]] = []


def serve_worker(
    app: Flask,
    channel: socket.socket,
    serve: Callable[[Flask, socket.socket], None],
    shared: Shared | None = None,
) -> None:
    """A worker's life: fresh state, the feed watch, then `serve(app, channel)` until stopped."""
    _fresh_process_state(app)
    if shared is not None:

        def send(fields: dict) -> None:
            try:
                channel.send(b"u" + json.dumps(fields).encode())
            except OSError:
                pass  # the parent is busy or gone: its next copy says what it knows

        _take_copy.append(shared.worker(app, send))
    watch = DataVersionWatch(app).start()
    parent = os.getppid()
    threading.Thread(target=_stop_with, args=(parent, watch), name="parent", daemon=True).start()
    try:
        serve(app, channel)
    except KeyboardInterrupt:
        pass
    finally:
        watch.stop()


def _stop_with(parent: int, watch: DataVersionWatch) -> None:
    """Stop this worker (as SIGTERM does) once its parent is gone, even killed outright: a
    datagram channel says nothing when its other end closes."""
    while not watch.stopping.wait(PARENT_CHECK_S):
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGTERM)
            return


def adopt_connections(server, channel: socket.socket) -> None:
    """In a worker's uvicorn `server` (started, no listening socket): serve every connection
    the parent passes down `channel`, with the server's own protocol."""
    loop = asyncio.get_running_loop()
    config = server.config

    def create_protocol() -> asyncio.Protocol:
        return config.http_protocol_class(
            config=config, server_state=server.server_state, app_state=server.lifespan.state
        )

    def adopt() -> None:
        try:
            message, fds, _flags, _address = socket.recv_fds(channel, MESSAGE_MAX, 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            message, fds = b"", []
        if not message and not fds:  # the parent is gone: stop
            loop.remove_reader(channel.fileno())
            server.should_exit = True
            return
        if message.startswith(b"s") and _take_copy:
            try:
                _take_copy[-1](json.loads(message[1:]))
            except ValueError:
                log.warning("a bad bridge status copy from the parent was ignored")
        for fd in fds:
            sock = socket.socket(fileno=fd)
            if server.should_exit:
                sock.close()
                continue
            sock.setblocking(False)
            loop.create_task(loop.connect_accepted_socket(create_protocol, sock))

    channel.setblocking(False)
    loop.add_reader(channel.fileno(), adopt)


class Workers:
    """The parent's side: fork `count` workers, hand each accepted connection to its worker."""

    def __init__(self, sock: socket.socket, count: int) -> None:
        """Workers for the bound, listening `sock` (not yet started)."""
        self.sock = sock
        self.count = count
        self.channels: list[socket.socket] = []
        self.pids: list[int] = []
        self.gone: set[int] = set()  # workers that exited on their own
        #: The parent's end of each worker's relay (live/relay.py): messages between workers.
        self.relays: list[socket.socket] = []
        self.stopping = threading.Event()
        self.ending = threading.Lock()

    def start(
        self,
        app: Flask,
        serve: Callable[[Flask, socket.socket], None],
        shared: Shared | None = None,
    ) -> None:
        """Fork the workers; each runs `serve(app, channel)` and exits."""
        self.counts = SharedCounts(self.count)  # before the fork: every worker shares it
        for slot in range(self.count):
            mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
            relay_mine, relay_theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
            pid = os.fork()
            if pid == 0:  # the worker
                code = 0
                try:
                    mine.close()
                    relay_mine.close()
                    self.sock.close()
                    for channel in [*self.channels, *self.relays]:
                        channel.close()
                    signal.signal(signal.SIGINT, signal.default_int_handler)
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)
                    self.counts.adopt(app, slot)
                    app.extensions[RELAY] = Relay(relay_theirs, slot, self.count)
                    serve_worker(app, theirs, serve, shared)
                except BaseException:
                    log.exception("worker failed")
                    code = 1
                finally:
                    os._exit(code)
            theirs.close()
            relay_theirs.close()
            mine.settimeout(HANDOFF_TIMEOUT_S)
            self.channels.append(mine)
            self.relays.append(relay_socket(relay_mine))
            self.pids.append(pid)
        self.relay_thread = threading.Thread(target=self._relay, name="relay", daemon=True)
        self.relay_thread.start()

    def _relay(self) -> None:
        """Pass each message between workers on to the worker it is for (its first byte);
        one its full queue cannot take is dropped (that worker renders for itself)."""
        while not self.stopping.is_set():
            try:
                ready, _, _ = select.select(self.relays, [], [], STATUS_EVERY_S)
            except (OSError, ValueError):
                return  # the sockets are closed: stopping
            if not ready:  # a quiet moment: has a worker stopped on its own?
                for slot in range(len(self.pids)):
                    self._ended(slot)
            for sock in ready:
                self._pass_on(sock)

    def _pass_on(self, sock: socket.socket) -> None:
        """Pass on every message waiting on one worker's relay."""
        while True:
            try:
                message = sock.recv(RELAY_MAX)
            except OSError:  # nothing more waiting (or closed)
                return
            target = message[0] if message else len(self.relays)
            if target < len(self.relays) and target not in self.gone:
                try:
                    self.relays[target].send(message)
                except OSError:
                    continue  # dropped: that worker renders for itself

    def share(self, app: Flask, shared: Shared) -> "Workers":
        """Start the thread that keeps every worker's copy of what the parent owns."""
        self.status_thread = threading.Thread(
            target=self._share, args=shared.owner(app), name="shared", daemon=True
        )
        self.status_thread.start()
        return self

    def _share(self, snapshot: Callable[[], dict], take: Callable[[dict], None]) -> None:
        """Take the workers' reports; send the status to every worker every STATUS_EVERY_S."""
        next_copy = 0.0
        while not self.stopping.is_set():
            try:
                ready, _, _ = select.select(self.channels, [], [], STATUS_EVERY_S)
            except (OSError, ValueError):
                return  # the channels are closed: stopping
            for channel in ready:
                try:
                    message = channel.recv(MESSAGE_MAX)
                    if message.startswith(b"u"):
                        take(json.loads(message[1:]))
                except (OSError, ValueError, TypeError):
                    continue  # a report the worker already checked; nothing to keep
            if time.monotonic() >= next_copy:
                next_copy = time.monotonic() + STATUS_EVERY_S
                copy = b"s" + json.dumps(snapshot()).encode()
                for channel in self.channels:
                    try:
                        channel.send(copy)
                    except OSError:
                        continue  # a worker stopping or busy: the next copy

    def dispatch(self) -> None:
        """Accept connections and pass each to its worker, until interrupted (or every
        worker is gone)."""
        while len(self.gone) < self.count:
            conn, address = self.sock.accept()
            try:
                self._pass(conn, address[0])
            finally:
                conn.close()
        log.error("every worker has stopped; the server stops too")

    def _pass(self, conn: socket.socket, address: str) -> None:
        """Pass `conn` to its address's worker, or to the next one while that one is gone
        (a worker that died heals by itself: its devices are served by another)."""
        first = worker_of(address, self.count)
        for step in range(self.count):
            slot = (first + step) % self.count
            if slot in self.gone:
                continue
            try:
                socket.send_fds(self.channels[slot], [b"c"], [conn.fileno()])
                return
            except OSError as exc:
                if not self._ended(slot):  # stuck, not gone: this connection is dropped
                    log.warning("could not pass a connection to its worker: %s", exc)
                    return

    def _ended(self, slot: int) -> bool:
        """True if worker `slot` has exited (then it is forgotten, its counts zeroed, and the
        others render its tables); the accepting and the relaying threads both ask."""
        with self.ending:
            return self._ended_locked(slot)

    def _ended_locked(self, slot: int) -> bool:
        """`_ended`, under its lock."""
        if slot in self.gone:
            return True
        try:
            done, status = os.waitpid(self.pids[slot], os.WNOHANG)
        except ChildProcessError:
            done, status = self.pids[slot], 0
        if not done:
            return False
        self.gone.add(slot)
        self.counts.forget(slot)
        notice = GONE + json.dumps({"w": slot}).encode()
        for target, relay in enumerate(self.relays):
            if target not in self.gone:
                try:
                    relay.send(bytes((target, slot)) + notice)
                except OSError:
                    pass  # its queue is full: it waits for each update, then renders anyway
        log.error(
            "worker %d stopped (status %d); the other workers serve its devices", slot, status
        )
        return True

    def stop(self) -> None:
        """Ask every worker to stop (SIGTERM: it ends streams and polls first) and wait."""
        self.stopping.set()
        for thread in (getattr(self, "status_thread", None), getattr(self, "relay_thread", None)):
            if thread is not None:
                thread.join()
        for channel in [*self.channels, *self.relays]:
            channel.close()
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + STOP_WAIT_S
        for pid in self.pids:
            while True:
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    break
                if done:
                    break
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    break
                time.sleep(0.05)
