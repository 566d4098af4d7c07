"""The room's shares: what one device on the LAN may hold of the server, and the log of refusals.

A club night is 20 tables and about 100 phones on one open Wi-Fi; a phone's browser opens at
most 6 connections to the companion and one live stream per open page. Each client address
(an IPv6 client by its /64 network, since a phone may use several privacy addresses) has its
own share of connections, live streams and held long polls; past its share it is refused,
however the server is doing. The last part of each total is kept for the box's bridge (its
device key) and devices with edit rights on the table they follow, so no crowd of viewers
can push them out. This computer (loopback, when it counts as host of every table) needs no
share: it owns the database. docs/security.md gives the numbers and why.

Rights on one's own tables buy only those tables' parts of the reserved room, and a device's
part is counted across all its tables (`Shares`); how often an address may reopen streams
and polls is rates.py's (issue 33, items 1 and 2).

Many addresses (issue 33, item 3): devices not known to the companion (no host or scorer
cookie, no seat, no key that checks out) may hold at most UNKNOWN_SHARE of each total, so known
devices always find room; a connection is counted as unknown from its first request (whose
rights are read only once that share is full: server/known.py), and one that has not sent a
whole request yet makes way for a newcomer when the room is full (server/protocol.py).

Refusals are logged at most once per kind every LOG_EVERY_S, with how many were left out, so
a flood of connections can never flood the log.
"""

import ipaddress
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from flask import Flask

from companion_app.server.rates import POLL_BURST, POLL_PER_S, STREAM_BURST, STREAM_PER_S, Rate
from companion_app.server.tally import SHARED_COUNTS, Count, SharedCounts

log = logging.getLogger("companion.room")

#: Connections one address may hold at once: a browser opens up to 6 per host, a phone may
#: run two (the QR scanner's and its own), plus streams and polls below.
CONNECTIONS_PER_ADDRESS = 32
#: Live pages one address may follow at once (a stream per open tab).
STREAMS_PER_ADDRESS = 16
#: Device long polls one address may hold at once (a bridge holds one).
POLLS_PER_ADDRESS = 8
#: Connections in all (all workers): below the open-files limit, minus FD_RESERVE for the
#: database, threads, logs and the serial port; a convention's 2,000 live pages fit in the
#: unknown devices' 70 %.
MAX_CONNECTIONS = 6000
FD_RESERVE = 256
#: Of the totals (LIVE_MAX_VIEWERS, LIVE_MAX_POLLS), kept for requests with rights on the
#: table they follow, and the box bridge's key (connections: see UNKNOWN_SHARE).
RESERVED_STREAMS = 100
RESERVED_POLLS = 50
#: Of each total (connections, streams, polls), what devices not known to the companion may
#: hold; the rest is kept for hosts, scorers, seats, the organiser and the box (item 3).
UNKNOWN_SHARE = 0.7
#: Seconds between two log lines about the same kind of refusal.
LOG_EVERY_S = 10.0
TOO_MANY, UNAVAILABLE = 429, 503
#: Seconds a refused device is told to wait when nothing says better.
RETRY_AFTER_S = 5

PER_ADDRESS = {
    "connection": "This device already holds {limit} connections to the companion, the most "
    "one device may; close some of its tabs.",
    "stream": "This device already follows {limit} live pages, the most one device may; close "
    "a tab of the companion and this page follows again.",
    "poll": "This device already holds {limit} long polls, the most one device may; try again "
    "when one has been answered.",
}
UNKNOWN_FULL = {
    "connection": "The companion keeps its remaining connections for the devices of its tables "
    "(hosts, scorers, seats) and the box; try again shortly.",
    "stream": "The companion keeps its remaining live pages for the devices of its tables "
    "(hosts, scorers, seats) and the box; trying again shortly.",
    "poll": "The companion keeps its remaining long polls for the devices of its tables "
    "(hosts, scorers, seats) and the box; try again shortly.",
}
FULL = {
    "connection": "The companion has all the connections it can hold; try again shortly.",
    "stream": "Too many live pages are open; trying again shortly.",
    "poll": "Too many long polls are waiting; try again shortly.",
}


class Refusal(Exception):
    """A share refused: the HTTP status, the sentence and the seconds of `Retry-After`."""

    def __init__(self, status: int, message: str, retry_after: int = RETRY_AFTER_S) -> None:
        """The status (429 past the address's share or rate, 503 when the room is full)."""
        self.status = status
        self.retry_after = retry_after
        super().__init__(message)


def is_loopback(address: str) -> bool:
    """True for this computer's addresses, the IPv4 one as an IPv6 socket sees it too
    (`::ffff:127.0.0.1` under `companion serve --host ::`)."""
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def share_of(address: str) -> str:
    """The key an address's share is counted under: IPv4 itself, IPv6 by its /64 network."""
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class RefusalLog:
    """At most one log line per kind every `every_s`, saying how many were not logged."""

    def __init__(self, every_s: float = LOG_EVERY_S, clock: Callable[[], float] = time.monotonic):
        """Nothing logged yet."""
        self.every_s = every_s
        self.clock = clock
        self.last: dict[str, tuple[float, int]] = {}

    def note(self, kind: str, message: str, emit: Callable[[str], None] | None = None) -> bool:
        """Log `message` unless `kind` was logged within `every_s` (then count it): logged?"""
        now = self.clock()
        last, skipped = self.last.get(kind, (None, 0))
        if last is not None and now - last < self.every_s:
            self.last[kind] = (last, skipped + 1)
            return False
        if skipped:
            message += f" ({skipped} more like it in the last {now - last:.0f} s)"
        self.last[kind] = (now, 0)
        (emit or log.warning)(message)
        return True


#: What a request is to the room (`privileged()` returns one, or None for an unknown device):
#: the box's bridge, a device with rights on the table it follows (both may use the reserved
#: room), or a device known to the companion otherwise (KNOWN: counts outside the unknown share).
BOX, EDIT, KNOWN = "box", "edit", "known"
#: The reserved room of one table's host, scorers and seats, and of one device across all
#: its tables (streams, polls): a device's rights on its own tables buy no more than this.
RESERVED_STREAMS_PER_TABLE, RESERVED_STREAMS_PER_DEVICE = 6, 4
RESERVED_POLLS_PER_TABLE, RESERVED_POLLS_PER_DEVICE = 3, 2
#: Past the total, tables' own devices are let in up to this many times the total.
CEILING_FACTOR = 2
RESERVE_SPENT = {
    "connection": "This device already holds its part of the connections kept for tables' own "
    "devices; close some of its tabs.",
    "stream": "This device already uses its part of the room kept for tables' own devices; "
    "close a live page of the companion and this one follows.",
    "poll": "This device already uses its part of the room kept for tables' own devices; try "
    "again when one of its polls has been answered.",
}


class Holder(Protocol):
    """What holds a connection's ticket (server/protocol.py's RoomProtocol)."""

    share: "Ticket | None"

    def evict(self) -> None:
        """Give the ticket back and close, with a sentence."""


@dataclass(frozen=True)
class Ticket:
    """One thing held: the share it counts under, what of the reserved room it uses (a table
    id, BOX, or None for the open room), and whether it counts in the unknown share."""

    share: str
    reserve: str | None = None
    unknown: bool = False


@dataclass
class Shares:
    """One kind of held thing (connections, streams, polls): counted per address and in all.

    The open room is `total - reserved`; past it only requests with rights get in, each
    within the reserved room of its table (`per_table`: the host, scorers and seats of that
    table on its pages) or of the box, and every device within `per_device` across all its
    tables (issue 33, item 1). A table's own devices are let in even past `total` within
    those parts (up to `ceiling`), so no crowd, with or without tables of its own, locks a
    host out. Of the open room, what is taken without reading rights counts as unknown, up
    to `unknown_share` of the total; past it only known devices get in (item 3).
    """

    kind: str
    per_address: int
    total: int
    reserved: int
    per_table: int = 0
    per_device: int = 0
    overflow: bool = True  # may the reserved parts go past the total (not for connections)
    unknown_share: float = UNKNOWN_SHARE
    #: Connections are counted as unknown at their first request (Room.first_request).
    unknown_at_take: bool = True
    held: dict[str, int] = field(default_factory=dict)
    #: The totals: this process's, or the whole server's under workers (tally.py).
    counted: Count = field(default_factory=Count)
    unknowns: Count = field(default_factory=Count)
    reserved_by_device: dict[str, int] = field(default_factory=dict)
    reserved_by_table: dict[str, int] = field(default_factory=dict)

    def take(
        self,
        share: str,
        *,
        trusted: bool,
        privileged: Callable[[], str | bool | None],
        table: str | None = None,
    ) -> Ticket:
        """Count one more for `share`, or raise Refusal (nothing counted).

        `trusted` (this computer) needs no share and may use the room up to `total`;
        `privileged()` (asked only when the unknown share or the open room is full) says what
        this request is: BOX, EDIT (rights on `table`), KNOWN or None (unknown). Only BOX and
        EDIT may use the reserved room.
        """
        if trusted:
            if self.count >= self.total:
                raise Refusal(UNAVAILABLE, FULL[self.kind])
            return self._count(Ticket(share))
        if self.held.get(share, 0) >= self.per_address:
            raise Refusal(TOO_MANY, PER_ADDRESS[self.kind].format(limit=self.per_address))
        if self.count < self.total - self.reserved:
            if not self.unknown_at_take:
                return self._count(Ticket(share))
            if self.unknown < self.unknown_cap:
                return self._count(Ticket(share, unknown=True))  # no rights read: unknown
            if not privileged():
                raise Refusal(UNAVAILABLE, UNKNOWN_FULL[self.kind])
            return self._count(Ticket(share))
        claim = privileged()
        reserve = BOX if claim == BOX else table if claim == EDIT and table else None
        if reserve is None:
            raise Refusal(UNAVAILABLE, FULL[self.kind])
        if self.reserved_by_device.get(share, 0) >= self.per_device:
            raise Refusal(UNAVAILABLE, RESERVE_SPENT[self.kind])
        if self.reserved_by_table.get(reserve, 0) >= self.per_table or self.count >= self.ceiling:
            raise Refusal(UNAVAILABLE, FULL[self.kind])
        self.reserved_by_device[share] = self.reserved_by_device.get(share, 0) + 1
        self.reserved_by_table[reserve] = self.reserved_by_table.get(reserve, 0) + 1
        return self._count(Ticket(share, reserve))

    @property
    def count(self) -> int:
        """How many are held in all."""
        return self.counted.value

    @property
    def unknown(self) -> int:
        """How many of those count in the unknown share."""
        return self.unknowns.value

    @property
    def unknown_cap(self) -> int:
        """The most the open room holds for requests whose rights were not read (item 3)."""
        return int(self.total * self.unknown_share)

    @property
    def ceiling(self) -> int:
        """The most held at all: twice the total, the reserved parts past it included."""
        return CEILING_FACTOR * self.total if self.overflow else self.total

    def count_unknown(self, ticket: Ticket) -> Ticket:
        """`ticket` (held) counted in the unknown share from now on."""
        self.unknowns.add(1)
        return Ticket(ticket.share, ticket.reserve, unknown=True)

    def _count(self, ticket: Ticket) -> Ticket:
        """Count `ticket` as held."""
        self.held[ticket.share] = self.held.get(ticket.share, 0) + 1
        self.counted.add(1)
        if ticket.unknown:
            self.unknowns.add(1)
        return ticket

    def give_back(self, ticket: Ticket | str) -> None:
        """One fewer for the ticket's share (and its part of the reserved room)."""
        if isinstance(ticket, str):
            ticket = Ticket(ticket)
        _less(self.held, ticket.share)
        if ticket.reserve is not None:
            _less(self.reserved_by_device, ticket.share)
            _less(self.reserved_by_table, ticket.reserve)
        self.counted.add(-1)
        if ticket.unknown:
            self.unknowns.add(-1)


def _less(counts: dict[str, int], key: str) -> None:
    """One fewer under `key`, forgotten at zero."""
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


def open_files_limit() -> int | None:
    """The soft limit of open files, where the system has one (None on Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def connection_cap(app: Flask) -> int:
    """Connections in all: the config's, or MAX_CONNECTIONS, below the open-files limit."""
    configured = int(app.config.get("ROOM_MAX_CONNECTIONS", MAX_CONNECTIONS))
    limit = open_files_limit()
    return configured if limit is None else max(1, min(configured, limit - FD_RESERVE))


class Room:
    """The shares of one server front, and its refusal log (made once per Front)."""

    def __init__(self, app: Flask, max_streams: int, max_polls: int) -> None:
        """Shares sized from the app config (ROOM_* and LIVE_MAX_* override the defaults)."""
        config = app.config
        self.app = app
        total = connection_cap(app)
        unknown_share = float(config.get("ROOM_UNKNOWN_SHARE", UNKNOWN_SHARE))
        self.connections = Shares(
            "connection",
            int(config.get("ROOM_CONNECTIONS_PER_ADDRESS", CONNECTIONS_PER_ADDRESS)),
            total,
            0,  # whose a connection is shows at its first request: first_request()
            overflow=False,
            unknown_share=unknown_share,
            unknown_at_take=False,
        )
        self.streams = Shares(
            "stream",
            int(config.get("ROOM_STREAMS_PER_ADDRESS", STREAMS_PER_ADDRESS)),
            max_streams,
            min(max_streams // 4, int(config.get("ROOM_RESERVED_STREAMS", RESERVED_STREAMS))),
            int(config.get("ROOM_RESERVED_STREAMS_PER_TABLE", RESERVED_STREAMS_PER_TABLE)),
            int(config.get("ROOM_RESERVED_STREAMS_PER_DEVICE", RESERVED_STREAMS_PER_DEVICE)),
            unknown_share=unknown_share,
        )
        self.polls = Shares(
            "poll",
            int(config.get("ROOM_POLLS_PER_ADDRESS", POLLS_PER_ADDRESS)),
            max_polls,
            min(max_polls // 4, int(config.get("ROOM_RESERVED_POLLS", RESERVED_POLLS))),
            int(config.get("ROOM_RESERVED_POLLS_PER_TABLE", RESERVED_POLLS_PER_TABLE)),
            int(config.get("ROOM_RESERVED_POLLS_PER_DEVICE", RESERVED_POLLS_PER_DEVICE)),
            unknown_share=unknown_share,
        )
        shared: SharedCounts | None = app.extensions.get(SHARED_COUNTS)
        if shared is not None:  # a worker: the totals are the whole server's
            for shares in (self.connections, self.streams, self.polls):
                shares.counted = shared.count(shares.kind, "held")
                shares.unknowns = shared.count(shares.kind, "unknown")
        self.log = RefusalLog(float(config.get("ROOM_LOG_EVERY_S", LOG_EVERY_S)))
        #: Connections that have not sent a whole request head yet, oldest first:
        #: {(address, port): holder}; when the room is full a newcomer pushes the oldest out.
        self.idle: dict[tuple, Holder] = {}
        #: Connections whose first request has not been through the front yet.
        self.unclassified: dict[tuple, Holder] = {}
        self.rates = {
            "stream": Rate(
                "stream",
                int(config.get("ROOM_STREAM_BURST", STREAM_BURST)),
                float(config.get("ROOM_STREAMS_PER_S", STREAM_PER_S)),
            ),
            "poll": Rate(
                "poll",
                int(config.get("ROOM_POLL_BURST", POLL_BURST)),
                float(config.get("ROOM_POLLS_PER_S", POLL_PER_S)),
            ),
        }

    def make_way(self) -> bool:
        """Close the oldest connection that has sent no whole request (for a newcomer): any?"""
        if not self.idle:
            return False
        self.idle.pop(next(iter(self.idle))).evict()
        self.log.note(
            "connection:idle", "Closed a connection that had sent no whole request, for a newer one"
        )
        return True

    def first_request(self, peer: tuple, known: Callable[[], object]) -> bool:
        """May the first request of the connection from `peer` go on? Below the unknown share
        it is counted there without reading rights; past it only a known device goes on
        (`known()`, server/known.py); a later request, or this computer's, always does."""
        holder = self.unclassified.pop(peer, None) or self.idle.pop(peer, None)
        if holder is None or holder.share is None or self.trusted(str(peer[0])):
            return True
        connections = self.connections
        if connections.unknown < connections.unknown_cap:
            holder.share = connections.count_unknown(holder.share)
            return True
        if known():
            return True
        self.log.note(
            "connection:unknown",
            f"Refused a connection from {str(peer[0])[:64]}: {UNKNOWN_FULL['connection']}",
        )
        return False

    def trusted(self, address: str) -> bool:
        """True for this computer when it counts as host of every table (docs/security.md)."""
        return bool(self.app.config.get("LOCAL_IS_HOST", True)) and is_loopback(address)

    def take(
        self,
        shares: Shares,
        address: str,
        privileged: Callable[[], str | bool | None],
        table: str | None = None,
    ) -> Ticket:
        """Take one of `shares` for `address` (its share key), or raise Refusal and log it.

        Streams and polls first spend a token of the address's rate (rates.py): an address
        that reopens too fast is refused before any share or right is looked at.
        """
        share = share_of(address)
        trusted = self.trusted(address)
        rate = self.rates.get(shares.kind)
        wait = rate.take(share) if rate is not None and not trusted else 0.0
        try:
            if wait > 0:
                raise Refusal(TOO_MANY, *rate.refusal(wait))
            return shares.take(share, trusted=trusted, privileged=privileged, table=table)
        except Refusal as refused:
            kind = f"{shares.kind}:rate" if wait > 0 else f"{shares.kind}:{refused.status}"
            if str(refused) == UNKNOWN_FULL[shares.kind]:
                kind = f"{shares.kind}:unknown"
            self.log.note(kind, f"Refused a {shares.kind} from {address[:64]}: {refused}")
            raise
