"""Issue 33: what one device may cost others at the server front, over real sockets from
loopback aliases (127.0.0.x stand for devices on the LAN; this computer is a plain device).

- item 2: a reconnect rate per address (server/rates.py): reopening streams or polls past
  the burst gets 429 with a sentence and `Retry-After`, logged once per kind per 10 s;
- item 1: reserved room that a device's rights on its own tables cannot buy (room.py);
- item 3: many addresses: unknown devices hold at most their share, known ones (a host or
  scorer cookie, a seat, the box's key) keep admission, idle sockets make way.

Each attack keeps the host's moves, an existing viewer's stream and the bridge's poll going.
GUARD_S (in tests.app.test_room) only bounds waiting for what must happen.
"""

import logging
import re
import select
import socket

from companion_app.server import rights
from companion_app.server.room import KNOWN, Refusal, Room
from tests.app.test_room import (
    ATTACKER,
    BRIDGE,
    PHONE,
    TABLET,
    closed_by_server,
    connect,
    make_app,
    open_poll,
    open_stream,
    request,
    status_of,
    wait_until,
)
from tests.live import served

DEAL = {"type": "deal", "sets": ["A", "B", "C"]}
PLAYERS = ["Ann", "Bob", "Cyril"]


def device_key(app) -> str:
    """The box bridge's key."""
    with app.test_request_context():
        return rights.device_key()


def create(port: int, source: str) -> dict:
    """A Razzia! table created from `source`, which hosts it (its edit key in the answer)."""
    status, _, created = request(
        port, source, "POST", "/api/tables", {"game": "razzia", "players": PLAYERS}
    )
    assert status == 201, created
    return created


def host_moves(port: int, table: dict, version: int = 0) -> int:
    """The host deals at its table: the answer's status."""
    status, _, _ = request(
        port,
        TABLET,
        "POST",
        f"/api/tables/{table['id']}/moves",
        {"version": version, "move": DEAL},
        {"Authorization": f"Bearer {table['edit_key']}"},
    )
    return status


def sees_update(sock: socket.socket, version: str) -> bool:
    """True once the stream on `sock` brings the page at `version` (read until it does)."""
    seen = b""
    sock.settimeout(30.0)
    while not re.search(rb'"version": ?"' + version.encode() + b'"', seen):
        chunk = sock.recv(65536)
        if not chunk:
            return False
        seen += chunk
    return True


def bridge_poll(port: int, key: str) -> socket.socket:
    """The bridge's long poll on the box's view (device key), held until something changes."""
    etag = request(port, BRIDGE, "GET", "/api/device")[2]["etag"]
    return open_poll(port, BRIDGE, f"/api/device?wait={etag}", key)


# -- item 2: a reconnect rate per address -----------------------------------------------------


def test_reopening_streams_and_polls_fast_is_slowed_and_costs_nobody_else(tmp_path, caplog):
    """Issue 33, item 2: past its burst an address reopening streams or polls gets 429 with a
    sentence and Retry-After, one log line per kind; the host moves, a viewer's stream sees
    the move and the bridge's poll is answered."""
    caplog.set_level(logging.INFO)
    app = make_app(
        tmp_path,
        ROOM_STREAM_BURST=4,
        ROOM_STREAMS_PER_S=0.1,
        ROOM_POLL_BURST=3,
        ROOM_POLLS_PER_S=0.1,
    )
    key = device_key(app)
    with served(app) as server:
        port = server.server_port
        table = create(port, TABLET)
        viewer, line, _ = open_stream(port, PHONE, table["id"])
        assert line.endswith("200 OK")
        bridge = bridge_poll(port, key)
        for _ in range(4):
            sock, line, _ = open_stream(port, ATTACKER, table["id"])
            assert line.endswith("200 OK")
            sock.close()
        for _ in range(10):
            sock, line, head = open_stream(port, ATTACKER, table["id"])
            assert line.startswith("HTTP/1.1 429"), line
            text = (head + sock.recv(4096)).decode()
            assert "retry-after: " in text.lower() and "reopens live pages too often" in text
            sock.close()
        etag = request(port, PHONE, "GET", f"/api/tables/{table['id']}/device")[2]["etag"]
        path = f"/api/tables/{table['id']}/device?wait={etag}"
        for _ in range(3):
            open_poll(port, ATTACKER, path).close()
        assert status_of(open_poll(port, ATTACKER, path)) == 429
        wait_until(lambda: server.front.room.polls.held.get(BRIDGE) == 1)

        assert host_moves(port, table) == 200
        assert sees_update(viewer, "1.0.0.0")
        assert status_of(bridge) == 200
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.room"]
    assert len([line for line in lines if "too often" in line and "stream" in line]) == 1, lines
    assert len([line for line in lines if "too often" in line and "poll" in line]) == 1, lines


def test_this_computer_is_never_slowed(tmp_path):
    """Issue 33, item 2: loopback, while it hosts every table, has no rate (nor a share)."""
    app = make_app(tmp_path, LOCAL_IS_HOST=True, ROOM_STREAM_BURST=2, ROOM_STREAMS_PER_S=0.01)
    room = Room(app, max_streams=100, max_polls=100)
    for _ in range(20):
        room.take(room.streams, "127.0.0.1", lambda: False)
    room.take(room.streams, "192.168.1.9", lambda: False)
    room.take(room.streams, "192.168.1.9", lambda: False)
    try:
        room.take(room.streams, "192.168.1.9", lambda: False)
    except Refusal as refused:
        assert refused.status == 429 and refused.retry_after >= 1
        assert "reopens live pages too often" in str(refused)
    else:
        raise AssertionError("the third stream within the burst of two was let in")


# -- item 1: shares that rights on one's own tables cannot buy ---------------------------------


def host_client(app, address: str):
    """(table id, session cookie) of a table created by a browser at `address`."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    made = client.post("/api/tables", json={"game": "razzia", "players": PLAYERS})
    assert made.status_code == 201, made.get_json()
    return made.get_json(), f"session={client.get_cookie('session').value}"


def test_devices_with_tables_of_their_own_cannot_take_a_hosts_reserved_streams(tmp_path):
    """Issue 33, item 1: devices that each host a table of their own fill the open room and
    use their own part of the reserved room; the victim's host still opens its page live,
    the devices cannot use the victim table's part, an existing viewer sees the host's
    move, and the bridge's poll is answered."""
    app = make_app(
        tmp_path,
        LIVE_MAX_VIEWERS=8,
        ROOM_RESERVED_STREAMS=2,
        ROOM_STREAMS_PER_ADDRESS=4,
        ROOM_RESERVED_STREAMS_PER_DEVICE=2,
        ROOM_RESERVED_STREAMS_PER_TABLE=3,
    )
    key = device_key(app)
    victim, host_cookie = host_client(app, TABLET)
    attackers = [f"127.0.1.{n}" for n in range(1, 5)]
    owned = {address: host_client(app, address) for address in attackers}
    with served(app) as server:
        port = server.server_port
        viewer, line, _ = open_stream(port, PHONE, victim["id"])
        assert line.endswith("200 OK")
        bridge = bridge_poll(port, key)
        refusals = []
        for address, (table, cookie) in owned.items():
            while True:
                sock, line, head = open_stream(port, address, table["id"], cookie=cookie)
                if not line.endswith("200 OK"):
                    refusals.append((line, (head + sock.recv(4096)).decode()))
                    break
        streams = server.front.room.streams
        assert streams.count == 6 + 3 * 2  # the open room, then each device.s own part
        assert all(streams.reserved_by_device.get(a, 0) <= 2 for a in attackers)
        assert any("its part of the room kept" in text for _, text in refusals), refusals
        thief, (_table, cookie) = attackers[-1], owned[attackers[-1]]
        stolen, line, _ = open_stream(port, thief, victim["id"], cookie=cookie)
        assert line.startswith("HTTP/1.1 503"), line  # no rights on the victim's table
        host, line, _ = open_stream(port, TABLET, victim["id"], cookie=host_cookie)
        assert line.endswith("200 OK")  # the host's own page is live despite the crowd
        assert host_moves(port, victim) == 200
        assert sees_update(viewer, "1.0.0.0") and sees_update(host, "1.0.0.0")
        assert status_of(bridge) == 200


def test_devices_with_tables_of_their_own_cannot_take_the_bridges_or_a_hosts_poll(tmp_path):
    """Issue 33, item 1: polls held with each device's own edit key fill the open room and
    their own reserved part; the bridge (device key) and the victim's host still hold theirs."""
    app = make_app(
        tmp_path,
        LIVE_MAX_POLLS=6,
        ROOM_RESERVED_POLLS=2,
        ROOM_POLLS_PER_ADDRESS=4,
        ROOM_RESERVED_POLLS_PER_DEVICE=1,
        ROOM_RESERVED_POLLS_PER_TABLE=2,
    )
    key = device_key(app)
    victim, _ = host_client(app, TABLET)
    attackers = [f"127.0.1.{n}" for n in range(1, 6)]
    owned = {address: host_client(app, address)[0] for address in attackers}
    with served(app) as server:
        port = server.server_port
        polls = server.front.room.polls
        for address, table in owned.items():
            etag = request(port, address, "GET", f"/api/tables/{table['id']}/device")[2]["etag"]
            path = f"/api/tables/{table['id']}/device?wait={etag}"
            for _ in range(4):
                before = polls.count
                sock = open_poll(port, address, path, table["edit_key"])
                wait_until(
                    lambda sock=sock, before=before: (
                        polls.count > before or select.select([sock], [], [], 0)[0]
                    )
                )
                if polls.count == before:
                    assert status_of(sock) == 503
                    break
        # the open room (6 less its reserve, a quarter at most), then one reserved each
        assert polls.count == 5 + len(attackers) - 1
        assert polls.reserved_by_device == {address: 1 for address in attackers[1:]}
        bridge = bridge_poll(port, key)
        wait_until(lambda: polls.held.get(BRIDGE) == 1)
        etag = request(port, TABLET, "GET", f"/api/tables/{victim['id']}/device")[2]["etag"]
        hosts = open_poll(
            port, TABLET, f"/api/tables/{victim['id']}/device?wait={etag}", victim["edit_key"]
        )
        wait_until(lambda: polls.held.get(TABLET) == 1)
        assert host_moves(port, victim) == 200
        assert status_of(hosts) == 200 and status_of(bridge) == 200


def test_idle_sockets_from_many_addresses_make_way_for_every_newcomer(tmp_path, caplog):
    """Issue 33, items 1 and 3: with every connection held by idle or slowloris sockets from
    many addresses, a newcomer pushes the oldest one out (it gets a sentence): a viewer
    without rights, the bridge (device key) and the host get in and are answered, and a
    viewer's stream opened before sees the host's move. One log line for all the pushing."""
    caplog.set_level(logging.INFO)
    app = make_app(
        tmp_path, ROOM_HEAD_TIMEOUT_S=60.0, ROOM_MAX_CONNECTIONS=12, ROOM_CONNECTIONS_PER_ADDRESS=4
    )
    key = device_key(app)
    with served(app) as server:
        port = server.server_port
        connections = server.front.room.connections
        table = create(port, TABLET)
        viewer, line, _ = open_stream(port, PHONE, table["id"])
        assert line.endswith("200 OK")
        idle = []
        for n in range(1, 7):
            for _ in range(4):
                idle.append(connect(port, f"127.0.2.{n}"))
                if n % 2:  # a slowloris: half a request head, never finished
                    idle[-1].sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        wait_until(lambda: connections.count == 12 and len(server.front.room.idle) == 11)
        # the pushed-out ones read a 503 sentence, then the close (which may land a moment
        # after the counts moved: the loop writes it)
        wait_until(lambda: any(closed_by_server(sock) for sock in idle))

        status, _, answer = request(port, "127.0.2.9", "GET", "/api/tables")
        assert status == 200, answer
        polled = request(
            port, BRIDGE, "GET", "/api/device", None, {"Authorization": f"Bearer {key}"}
        )
        assert polled[0] == 200
        assert host_moves(port, table) == 200
        assert sees_update(viewer, "1.0.0.0")
        assert connections.count <= 12
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.room"]
    assert len([line for line in lines if "sent no whole request" in line]) == 1, lines


# -- item 3: many addresses; known devices first ----------------------------------------------


def seat_cookie(app, table_id: str, address: str) -> str:
    """The session cookie of a phone at `address` that took seat 0 through its link."""
    with app.test_request_context():
        key = rights.seat_key(table_id, 0, 0)
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = address
    taken = phone.post(f"/tables/{table_id}/seat/0/{key}")
    assert taken.status_code == 303, taken.get_data(as_text=True)
    return f"session={phone.get_cookie('session').value}"


def scorer_cookie(app, table: dict, address: str) -> str:
    """The session cookie of a browser at `address` that joined `table` as its scorer."""
    browser = app.test_client()
    browser.environ_base["REMOTE_ADDR"] = address
    joined = browser.post(f"/tables/{table['id']}/join/{table['scorer_key']}")
    assert joined.status_code == 303, joined.get_data(as_text=True)
    return f"session={browser.get_cookie('session').value}"


def test_known_devices_keep_admission_when_unknown_ones_fill_their_share(tmp_path, caplog):
    """Issue 33, item 3: many addresses fill the unknown devices' share of the connections
    with live streams and the rest with idle sockets. A newcomer nobody knows gets 503, a
    sentence and Retry-After (one log line however many); a phone holding a seat opens its
    table live, a scorer of another table reads this one's page, the host moves, the bridge
    polls, and a viewer's stream opened before sees the move."""
    caplog.set_level(logging.INFO)
    app = make_app(
        tmp_path,
        ROOM_HEAD_TIMEOUT_S=60.0,
        ROOM_MAX_CONNECTIONS=20,
        ROOM_CONNECTIONS_PER_ADDRESS=4,
        ROOM_UNKNOWN_SHARE=0.5,
        LIVE_MAX_VIEWERS=40,
    )
    key = device_key(app)
    with served(app) as server:
        port = server.server_port
        room = server.front.room
        table, other = create(port, TABLET), create(port, TABLET)
        seated = seat_cookie(app, table["id"], "127.0.4.1")
        scorer = scorer_cookie(app, other, "127.0.4.2")
        viewer, line, _ = open_stream(port, PHONE, table["id"])
        assert line.endswith("200 OK")
        refused = []
        for n in range(1, 5):
            for _ in range(4):
                sock, line, head = open_stream(port, f"127.0.3.{n}", table["id"])
                if not line.endswith("200 OK"):
                    refused.append((line, (head + sock.recv(4096)).decode()))
        assert room.connections.unknown == 10 and room.streams.count == 10
        assert len(refused) == 16 - 9  # the viewer's stream counts among the ten
        assert all(line.startswith("HTTP/1.1 503") for line, _ in refused), refused
        for n in range(1, 6):
            for _ in range(4):
                connect(port, f"127.0.2.{n}")  # idle: never sends a request
        wait_until(lambda: room.connections.count == 20 and len(room.idle) == 10)

        status, answer, body = request(port, "127.0.2.9", "GET", "/api/tables")
        assert status == 503 and answer.getheader("Retry-After")
        assert "keeps its remaining connections for the devices of its tables" in body["error"]
        phone, line, _ = open_stream(port, "127.0.4.1", table["id"], cookie=seated)
        assert line.endswith("200 OK")  # a seat's phone follows its table live
        page = request(port, "127.0.4.2", "GET", f"/tables/{table['id']}", None, {"Cookie": scorer})
        assert page[0] == 200  # a scorer of another table is known too
        polled = request(
            port, BRIDGE, "GET", "/api/device", None, {"Authorization": f"Bearer {key}"}
        )
        assert polled[0] == 200
        assert host_moves(port, table) == 200
        assert sees_update(viewer, "1.0.0.0") and sees_update(phone, "1.0.0.0")
        again = request(port, "127.0.2.10", "GET", "/api/tables")
        assert again[0] == 503
        assert room.connections.count <= 20
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.room"]
    unknown = [line for line in lines if "keeps its remaining connections" in line]
    assert len(unknown) == 1, lines


def test_unknown_devices_hold_at_most_their_share_of_streams_and_polls(tmp_path):
    """Issue 33, item 3: unknown requests take streams and polls without any right being read
    until their share (70 %) is full; then only a known device gets in (BOX, EDIT or KNOWN),
    an unknown one gets 503 and its sentence; giving back frees the unknown share again."""
    app = make_app(tmp_path)
    room = Room(app, max_streams=20, max_polls=10)

    def unread():
        raise AssertionError("rights were read below the unknown share")

    for shares, cap in ((room.streams, 14), (room.polls, 7)):
        tickets = [room.take(shares, f"192.168.1.{n}", unread) for n in range(1, cap + 1)]
        assert shares.unknown == cap
        try:
            room.take(shares, "192.168.2.1", lambda: None)
        except Refusal as refused:
            assert refused.status == 503 and "keeps its remaining" in str(refused)
        else:
            raise AssertionError("an unknown device got past its share")
        known = room.take(shares, "192.168.2.2", lambda: KNOWN)
        assert not known.unknown and shares.count == cap + 1
        shares.give_back(tickets[0])
        assert room.take(shares, "192.168.2.1", unread).unknown
