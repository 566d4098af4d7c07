"""One render per group for the whole server: a table's worker renders, the others are sent it.

With workers (server/workers.py) every worker follows the groups its own viewers are in, so
a page that viewers on two workers follow was rendered twice: in a convention's burst of 100
moves, about 60 % of 800 groups were (issue 33 item 8, docs/scale.md). Here each table has an
owner, `crc32(table id) % workers`; a worker whose viewers follow a group of a table it does
not own tells the owner ("want"), and the owner renders that group on every change as if a
viewer of its own followed it and sends the update to the wanting worker ("render"), through
the parent, which passes messages between workers and reads none. When a group's last viewer
leaves, the owner is told ("drop"); when a worker stops, the parent tells the others
("gone"), and they render its tables' groups themselves.

The owner's copy is a saving, never a dependency: a worker still renders a new stream's
first page itself, and when a change's update has not come within WAIT_S (the owner is busy,
gone, or a message was dropped because a queue was full) it renders the group itself and asks
again. The room display is not relayed: its few screens cost little and are sent in parts.

Messages are datagrams: one byte for the worker it is for, one for the worker it is from, a
kind letter, then JSON (and for "render", a newline and the event's bytes as every viewer of
the group gets them).
"""

import asyncio
import json
import socket
import zlib
from collections.abc import Callable

#: Longest a worker waits for the owner's update before it renders a group itself.
WAIT_S = 1.0
#: Where a worker's app keeps its Relay (the live hub reads it; none with one process).
RELAY = "companion_live_relay"
WANT, DROP, RENDER, GONE = b"W", b"D", b"R", b"G"
#: Buffers asked for on the relay sockets (the kernel may give less): room for big pages.
BUFFER_BYTES = 4 * 1024 * 1024
#: Largest message read: past the kernel's own datagram limit anyway.
MESSAGE_MAX = 4 * 1024 * 1024

GroupId = tuple[str, str, str, str]  # (table id, page, language, canonical address)


def owner_of(table_id: str, workers: int) -> int:
    """The worker that renders a table's groups for every worker."""
    return zlib.crc32(table_id.encode()) % workers


def relay_socket(sock: socket.socket) -> socket.socket:
    """`sock` made ready to relay: non-blocking, with large buffers where the kernel allows."""
    for option in (socket.SO_SNDBUF, socket.SO_RCVBUF):
        try:
            sock.setsockopt(socket.SOL_SOCKET, option, BUFFER_BYTES)
        except OSError:
            pass  # the kernel's default: fewer updates queue, the rest are rendered here
    sock.setblocking(False)
    return sock


class Relay:
    """This worker's end: what it asks of owners, and what owners send it."""

    def __init__(self, sock: socket.socket, slot: int, workers: int) -> None:
        """Worker `slot` of `workers`, talking through `sock` (its end of the parent's pair)."""
        self.sock = relay_socket(sock)
        self.slot = slot
        self.workers = workers
        self.arrived = asyncio.Event()
        self.wait_s = WAIT_S
        self.gone: set[int] = set()  # workers that stopped: their tables are rendered here
        self.handler: Callable[[bytes, int, dict, bytes], None] | None = None

    def remote(self, table_id: str) -> bool:
        """True if another worker renders this table's groups (never the room display)."""
        if table_id.startswith("*"):
            return False
        owner = owner_of(table_id, self.workers)
        return owner != self.slot and owner not in self.gone

    def start(self, loop: asyncio.AbstractEventLoop, handler) -> None:
        """Hand every message that arrives to `handler(kind, sender, header, event)`."""
        self.handler = handler
        loop.add_reader(self.sock.fileno(), self._read)

    def stop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read no more."""
        try:
            loop.remove_reader(self.sock.fileno())
        except (ValueError, OSError):
            pass

    def _read(self) -> None:
        """Take every message waiting (on the loop)."""
        while True:
            try:
                message = self.sock.recv(MESSAGE_MAX)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            if len(message) < 3 or self.handler is None:
                continue
            head, _, event = message[3:].partition(b"\n")
            try:
                header = json.loads(head)
            except ValueError:
                continue
            if message[2:3] == GONE and isinstance(header, dict):
                self.gone.add(header.get("w"))
            elif isinstance(header, dict):
                self.handler(message[2:3], message[1], header, event)
            if message[2:3] == RENDER:
                self.arrived.set()

    def send(self, target: int, kind: bytes, header: dict, event: bytes = b"") -> bool:
        """Send a message to worker `target` through the parent. A full queue drops it (the
        worker it was for renders for itself after WAIT_S: queueing such messages in order
        made a burst's p99 worse, bench/README.md run 12); False only when it can never go
        (past the kernel's size for one datagram)."""
        message = bytes((target, self.slot)) + kind + json.dumps(header).encode()
        if event:
            message += b"\n" + event
        try:
            self.sock.send(message)
        except BlockingIOError:
            pass  # a full queue: dropped, the fallback renders it
        except OSError:
            return False
        return True

    def want(self, group: GroupId) -> None:
        """Ask the owner of the group's table to send its updates here."""
        self.send(owner_of(group[0], self.workers), WANT, _header(group))

    def drop(self, group: GroupId) -> None:
        """Tell the owner no viewer here follows the group any more."""
        self.send(owner_of(group[0], self.workers), DROP, _header(group))

    def render(self, target: int, group: GroupId, version: str, event: bytes | None) -> bool:
        """Send worker `target` the group's update at `version` (None: nothing to show):
        False when the update cannot go (then `target` is told to render it itself)."""
        header = {**_header(group), "v": version}
        if self.send(target, RENDER, header, event or b""):
            return True
        self.send(target, RENDER, {**header, "own": True})  # too big to pass: render it there
        return False


def _header(group: GroupId) -> dict:
    """A group as a message names it."""
    table_id, page, lang, host = group
    return {"t": table_id, "p": page, "l": lang, "h": host}


def group_of(header: dict) -> GroupId | None:
    """The group a message names (None when it names none properly)."""
    fields = [header.get(key) for key in ("t", "p", "l", "h")]
    if not all(isinstance(value, str) for value in fields):
        return None
    return fields[0], fields[1], fields[2], fields[3]


async def caught_up(behind: Callable[[], list], relay: Relay) -> list:
    """Wait until `behind()` (the groups still waiting for their owner's update) is empty, or
    the relay's `wait_s` has passed: the groups still behind then, which the caller renders
    itself."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + relay.wait_s
    left = behind()
    while left:
        remaining = deadline - loop.time()
        if remaining <= 0:
            return left
        relay.arrived.clear()
        left = behind()  # an update may have come between the last look and the clear
        if not left:
            return left
        try:
            async with asyncio.timeout(remaining):
                await relay.arrived.wait()
        except TimeoutError:
            pass
        left = behind()
    return left
