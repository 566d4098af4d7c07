"""Issue 33, item 10 (the edges): no Host, `serve --host ::`, key guesses slowed per address.

- an empty or missing `Host:` is a 400 with a sentence on every route, the live streams and
  the held long polls included (the server front answers those without Flask);
- under `companion serve --host ::` this computer's IPv4 loopback arrives as
  `::ffff:127.0.0.1`: it is loopback for the rights, the room and the table limits, the
  banner prints an address a person can open and the in-process bridge's URL answers;
- past 5 wrong keys an address may present a key once every 5 s (429, `Retry-After`, a
  sentence), while the host, a viewer and the box's bridge keep working.
"""

import http.client
import json
import socket

import pytest

from companion_app import cli, create_app
from companion_app.server import rights, serve
from companion_app.server.guesses import KeyGuesses
from companion_app.server.live.pages import STREAM_PREFIX
from companion_app.server.room import Room, is_loopback
from companion_app.server.serve import Background
from tests.serve_fakes import fake_serving

PLAYERS = ["Ann", "Bob", "Cyril"]
DEAL = {"type": "deal", "sets": ["A", "B", "C"]}
MAPPED = "::ffff:127.0.0.1"
NO_HOST = "This request names no host (its Host header is missing or empty)."
GUESSER, HOST, BRIDGE = "192.168.1.66", "192.168.1.21", "192.168.1.50"


def make_app(tmp_path, **config):
    """A test app (this computer hosts every table unless told)."""
    settings = {"TESTING": True, "SECRET_KEY": "edges", "DEVICE_LONG_POLL_S": 1.0, **config}
    return create_app(settings, instance_path=str(tmp_path))


def client_at(app, address: str):
    """A test client whose requests come from `address`."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def new_table(client) -> dict:
    """A Razzia! table made by `client`, which hosts it."""
    made = client.post("/api/tables", json={"game": "razzia", "players": PLAYERS})
    assert made.status_code == 201, made.get_json()
    return made.get_json()


# -- an empty or missing Host ------------------------------------------------------------------


def raw(port: int, request: bytes) -> tuple[int, str]:
    """Send `request` as is to the server; (status, body text)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = http.client.HTTPResponse(sock)
        answer.begin()
        return answer.status, answer.read().decode()


def test_an_empty_or_missing_host_is_refused_on_every_route(tmp_path):
    """Issue 33, item 10: pages, the API, live streams and held polls all refuse no Host."""
    app = make_app(tmp_path)
    table = new_table(app.test_client())["id"]
    paths = [
        "/",
        f"/tables/{table}",
        f"/api/tables/{table}",
        f"{STREAM_PREFIX}{table}?page=table&lang=en",
        f"/api/tables/{table}/device?wait=x",
    ]
    with Background(app) as server:
        for path in paths:
            for head in (b"GET %s HTTP/1.1\r\nHost:\r\n\r\n", b"GET %s HTTP/1.0\r\n\r\n"):
                status, answer = raw(server.port, head % path.encode())
                assert status == 400 and NO_HOST in answer, (path, head, answer[:200])
        status, answer = raw(
            server.port, b"GET /api/tables/%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % table.encode()
        )
        assert status == 200 and json.loads(answer)["id"] == table


def test_a_page_without_a_host_gets_its_sentence_in_czech(tmp_path):
    """Issue 33, item 10: the refusal is a sentence in the page's language."""
    app = make_app(tmp_path)
    page = app.test_client().get(
        "/", environ_overrides={"HTTP_HOST": ""}, headers={"Accept-Language": "cs"}
    )
    assert page.status_code == 400
    assert "Host" in page.get_data(as_text=True) and "neuvádí" in page.get_data(as_text=True)


# -- serve --host :: -------------------------------------------------------------------------


def test_ipv4_mapped_loopback_is_loopback_everywhere(tmp_path):
    """Issue 33, item 10: `::ffff:127.0.0.1` hosts every table and needs no share."""
    assert is_loopback(MAPPED) and is_loopback("::1") and is_loopback("127.0.0.9")
    assert not is_loopback("::ffff:192.168.1.5") and not is_loopback("nonsense")
    app = make_app(tmp_path)
    table = new_table(client_at(app, HOST))
    moved = client_at(app, MAPPED).post(
        f"/api/tables/{table['id']}/moves", json={"version": 0, "move": DEAL}
    )
    assert moved.status_code == 200, moved.get_json()
    assert Room(app, max_streams=8, max_polls=8).trusted(MAPPED)
    with app.test_request_context(environ_base={"REMOTE_ADDR": MAPPED}):
        assert rights.is_local() and rights.is_organiser() and rights.origin() is None


def test_serve_on_every_ipv6_interface_prints_an_address_a_person_can_open(
    monkeypatch, capsys, tmp_path
):
    """Issue 33, item 10: `--host ::` prints the LAN address, never `http://:::5653/`."""
    fake_serving(monkeypatch)
    monkeypatch.setattr(serve, "lan_address", lambda: "10.1.2.3")
    command = ["serve", "--host", "::", "--port", "5653", "--instance", str(tmp_path)]
    status = cli.main([*command, "--workers", "1"])
    assert status == 0
    out = capsys.readouterr().out
    assert "Open http://10.1.2.3:5653/ on the tablet" in out and ":::" not in out
    assert serve.addresses_for("::", lan=False) == ("10.1.2.3", "::1")
    assert serve.addresses_for("::1", lan=False) == ("::1", "::1")
    assert serve.url_host("::1") == "[::1]"


def ipv6_works() -> bool:
    """True when this machine can listen on `::` (the test needs IPv6 sockets)."""
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not ipv6_works(), reason="this machine has no IPv6 sockets")
def test_a_server_on_every_ipv6_interface_takes_ipv4_loopback_as_this_computer(tmp_path):
    """Issue 33, item 10: on `::`, a move from 127.0.0.1 (arriving as ::ffff:127.0.0.1) is
    this computer's, and the in-process bridge's URL (`[::1]`) answers."""
    app = make_app(tmp_path)
    table = new_table(client_at(app, HOST))
    with Background(app, host="::") as server:
        assert server.url.startswith("http://[::1]:")
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        body = json.dumps({"version": 0, "move": DEAL})
        connection.request(
            "POST",
            f"/api/tables/{table['id']}/moves",
            body,
            {"Content-Type": "application/json"},
        )
        moved = connection.getresponse()
        assert moved.status == 200, moved.read()
        connection.close()
        bridge = http.client.HTTPConnection("::1", server.port, timeout=10)
        bridge.request("GET", "/api/device")
        assert bridge.getresponse().status == 200
        bridge.close()


# -- key guesses ----------------------------------------------------------------------------


def test_key_guesses_are_slowed_per_address_and_nobody_else_is(tmp_path):
    """Issue 33, item 10: the sixth wrong key within the window is 429 with Retry-After and a
    sentence; the host's moves, a viewer's page and the bridge's poll still work."""
    app = make_app(tmp_path, LOCAL_IS_HOST=False)
    host = client_at(app, HOST)
    table = new_table(host)
    guesser = client_at(app, GUESSER)
    path = f"/api/tables/{table['id']}/moves"
    for n in range(5):
        guessed = guesser.post(
            path, json={"version": 0, "move": DEAL}, headers={"Authorization": f"Bearer x{n}"}
        )
        assert guessed.status_code == 403
    slowed = guesser.post(
        path, json={"version": 0, "move": DEAL}, headers={"Authorization": "Bearer x6"}
    )
    assert slowed.status_code == 429 and slowed.headers["Retry-After"] in {"4", "5"}
    assert "too many wrong keys" in slowed.get_json()["error"]
    link = guesser.get(f"/tables/{table['id']}/join/guess")
    assert link.status_code == 429  # links with a key are slowed too
    assert guesser.get(f"/tables/{table['id']}").status_code == 200  # no key: a plain viewer
    moved = host.post(
        path,
        json={"version": 0, "move": DEAL},
        headers={"Authorization": f"Bearer {table['edit_key']}"},
    )
    assert moved.status_code == 200
    with app.test_request_context():
        key = rights.device_key()
    bridge = client_at(app, BRIDGE)
    polled = bridge.get("/api/device", headers={"Authorization": f"Bearer {key}"})
    assert polled.status_code == 200


def test_a_slowed_address_may_try_once_every_few_seconds_and_is_forgotten():
    """Issue 33, item 10: after 5 wrong keys one try per 5 s; forgotten after the window."""
    now = [100.0]
    guesses = KeyGuesses(free=5, every_s=5.0, forget_s=900.0, clock=lambda: now[0])
    for _ in range(5):
        assert guesses.wait_s("a") == 0.0
        guesses.wrong("a")
    assert guesses.wait_s("a") == 5.0 and guesses.wait_s("b") == 0.0
    now[0] += 5.0
    assert guesses.wait_s("a") == 0.0
    guesses.wrong("a")
    now[0] += 1.0
    assert guesses.wait_s("a") == 4.0
    now[0] += 900.0
    assert guesses.wait_s("a") == 0.0
