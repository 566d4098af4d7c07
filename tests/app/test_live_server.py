"""The real server (uvicorn, the live front, Flask in its thread pool) over real sockets.

A stream sees a move; a hundred held device polls take no thread, so a move on another table
is answered while they are all still held; streams end when the server stops. GUARD_S only
bounds waiting for what must happen; nothing here asserts a duration.
"""

import http.client
import json
import select
import socket
import time

import pytest

from companion_app import create_app
from tests.device_app.helpers import DeviceApi
from tests.live import json_request, served

GUARD_S = 30.0
#: Long polls held longer than any test runs, so only a change can answer them.
HELD_S = 600.0
POLLS = 100
DEAL = {"type": "deal", "sets": ["A", "B", "C", "D"]}


@pytest.fixture
def live(tmp_path):
    """(app, base URL, server) of an app served for real on a free port."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "live", "DEVICE_LONG_POLL_S": HELD_S},
        instance_path=str(tmp_path),
    )
    with served(app) as server:
        yield app, f"http://127.0.0.1:{server.server_port}", server


def wait_until(condition) -> None:
    """Return once `condition()` holds; fail after GUARD_S (a guard, not a timing check)."""
    deadline = time.monotonic() + GUARD_S
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        select.select([], [], [], 0.01)


class Stream:
    """One live stream, read event by event (http.client undoes the chunked encoding)."""

    def __init__(self, base: str, path: str) -> None:
        """Open `path`; `status` is the answer's status."""
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=GUARD_S)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def next_event(self) -> tuple[str, dict] | None:
        """The next (event, data), or None when the stream ends."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline()
            if not line:
                return None
            line = line.decode().rstrip("\n")
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
            elif "event" in fields:
                return fields["event"], json.loads(fields["data"])
            else:
                fields = {}

    def next_update(self) -> dict:
        """The next `update` event's data."""
        while True:
            found = self.next_event()
            assert found is not None, "the stream ended"
            if found[0] == "update":
                return found[1]

    def close(self) -> None:
        """Hang up."""
        self.connection.close()


def test_a_stream_shows_a_move_made_through_the_api(live):
    app, base, _ = live
    table = DeviceApi(app.test_client()).table()
    stream = Stream(base, f"/live/tables/{table['id']}?page=table&lang=en")
    assert stream.status == 200
    assert stream.response.getheader("Content-Type").startswith("text/event-stream")
    now = stream.next_update()
    assert now["version"] == "0.0.0.0" and "Deal the checks" in now["html"]
    status, _ = json_request(
        base, "POST", f"/api/tables/{table['id']}/moves", {"version": 0, "move": DEAL}
    )
    assert status == 200
    moved = stream.next_update()
    assert moved["version"] == "1.0.0.0"
    assert "Deal the checks" not in moved["html"] and 'data-testid="turn"' in moved["html"]
    stream.close()


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/live/tables/nosuchtb?page=table", 404),
        ("/live/tables/{id}?page=kitchen", 400),
        ("/live/tables/{id}?page=table&lang=de", 400),
        ("/live/tables/<b>?page=table", 404),
    ],
)
def test_a_stream_of_nothing_is_refused_with_a_sentence(live, path, status):
    app, base, server = live
    table = DeviceApi(app.test_client()).table()
    stream = Stream(base, path.replace("{id}", table["id"]))
    assert stream.status == status
    assert json.loads(stream.response.read())["error"]
    stream.close()
    assert server.front.hub is None or server.front.hub.viewers == 0
    # The device's share is given back once the refusal is written, which the client may
    # read first (seen on a loaded machine).
    wait_until(lambda: server.front.room.streams.count == 0)


def test_streams_are_read_only(live):
    app, base, _ = live
    table = DeviceApi(app.test_client()).table()
    status, body = json_request(base, "POST", f"/live/tables/{table['id']}?page=table", {})
    assert status == 405 and body["error"]


def open_poll(base: str, table_id: str, etag: str) -> socket.socket:
    """A device long poll sent on a raw socket, its answer left unread."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=GUARD_S)
    request = f"GET /api/tables/{table_id}/device?wait={etag} HTTP/1.1\r\nHost: {host}\r\n\r\n"
    sock.sendall(request.encode())
    return sock


def answered(sock: socket.socket) -> bool:
    """True if the server has written anything on the socket yet (never waits)."""
    return bool(select.select([sock], [], [], 0)[0])


def test_a_hundred_held_polls_do_not_hold_up_a_move_on_another_table(live):
    app, base, server = live
    api = DeviceApi(app.test_client())
    table_a, table_b = api.table(), api.table()
    etag = api.view(table_a["id"])[1]["etag"]
    polls = [open_poll(base, table_a["id"], etag) for _ in range(POLLS)]
    wait_until(lambda: server.front.hub is not None and server.front.hub.polls.held == POLLS)
    hub = server.front.hub
    # More polls wait than Flask has threads; a move on table B still goes through...
    status, moved = json_request(
        base, "POST", f"/api/tables/{table_b['id']}/moves", {"version": 0, "move": DEAL}
    )
    assert status == 200 and moved["version"] == 1
    # ...while every poll on table A is still held, unanswered.
    assert hub.polls.held == POLLS and not any(answered(sock) for sock in polls)
    status, _ = json_request(
        base, "POST", f"/api/tables/{table_a['id']}/moves", {"version": 0, "move": DEAL}
    )
    assert status == 200
    for sock in polls:
        answer = http.client.HTTPResponse(sock)
        answer.begin()
        assert answer.status == 200 and json.loads(answer.read())["etag"] == "1:0"
        answer.close()
        sock.close()


def test_stopping_the_server_ends_the_streams(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "live"}, instance_path=str(tmp_path))
    table = DeviceApi(app.test_client()).table()
    with served(app) as server:
        stream = Stream(
            f"http://127.0.0.1:{server.server_port}", f"/live/tables/{table['id']}?page=history"
        )
        assert stream.next_update()["version"] == "0.0.0.0"
    while (found := stream.next_event()) is not None:
        assert found[0] in ("update", "status")
    stream.close()


def test_the_listening_socket_is_tcp_so_every_connection_gets_nodelay():
    """asyncio sets TCP_NODELAY only on sockets that say IPPROTO_TCP; without it a response
    written in two parts waited 40 ms for a delayed ACK on every keep-alive request."""
    from companion_app.server.serve import LOOPBACK, bind_socket

    with bind_socket(LOOPBACK, 0) as sock:
        assert sock.proto == socket.IPPROTO_TCP


def test_a_body_over_the_limit_is_refused_without_reading_it_all(live):
    _, base, _ = live
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=GUARD_S)
    too_big = b'{"game": "razzia", "players": ["' + b"x" * (1024 * 1024) + b'"]}'
    headers = {"Content-Type": "application/json"}
    try:
        connection.request("POST", "/api/tables", too_big, headers)
        response = connection.getresponse()
        assert response.status == 413 and "limit" in json.loads(response.read())["error"]
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server may hang up before the client finished sending: also a refusal
    finally:
        connection.close()
    assert json_request(base, "GET", "/api/tables") == (200, {"tables": []})  # nothing made


def test_a_poll_whose_client_hangs_up_stops_holding_a_place(live):
    app, base, server = live
    api = DeviceApi(app.test_client())
    table = api.table()
    polls = [open_poll(base, table["id"], api.view(table["id"])[1]["etag"]) for _ in range(3)]
    wait_until(lambda: server.front.hub is not None and server.front.hub.polls.held == 3)
    for sock in polls:
        sock.close()
    wait_until(lambda: server.front.hub.polls.held == 0)  # freed, though never answered
    assert server.front.hub.polls.waiting == {}
