"""Web hygiene (docs/security.md): every attack is refused and leaves the tables as they were.

Cross-site form posts, JSON sent as a "simple" content type, foreign Host headers (DNS
rebinding) and off-site `/lang` redirects. Each refused request is also sent once without
the attack, to show it is a request that would otherwise have worked.
"""

import http.client
import json
import socket
import time

import pytest

from companion_app.server import guard
from companion_app.server.live.pages import STREAM_PREFIX
from companion_app.server.serve import Background
from tests.app.helpers import PLAYERS, SETS

EVIL = "http://evil.example"
#: The test client's own origin (Flask's test client sends Host: localhost over http).
OWN = "http://localhost"
#: Headers a browser sends with a request another site's page makes.
CROSS_SITE = [
    {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
    {"Origin": EVIL},  # a browser without Sec-Fetch-Site
    {"Sec-Fetch-Site": "cross-site"},
    {"Origin": "http://localhost:8080", "Sec-Fetch-Site": "same-site"},  # another port here
    {"Origin": "http://localhost:8080"},
    {"Origin": "https://localhost"},  # same host, other scheme
    {"Origin": "null"},  # a sandboxed frame or a file:// page
]
#: Headers of requests that pass: our own page, a typed address, a client that is no browser.
SAME_ORIGIN = [
    {"Origin": OWN, "Sec-Fetch-Site": "same-origin"},
    {"Origin": OWN},
    {"Sec-Fetch-Site": "none"},
    {},
]
REFUSED_CROSS_SITE = "came from another web site"
FOREIGN_HOSTS = [
    "evil.example",
    "evil.example:5000",
    "localhost.evil.example",
    "127.0.0.1.evil.example",
    "0.0.0.0:5000",
    "192.0.2.1",  # TEST-NET-1: never this machine's address
    "[2001:db8::1]:5000",
]
#: Long polls in the live-server test would hold this long; refusals must come well before
#: (long, so that a busy host's slowness is never mistaken for a held poll).
LONG_POLL_S = 30.0
HYGIENE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def snapshot(client, table_id: str) -> tuple:
    """What a refused request must leave alone: the table's version, state and history."""
    table = client.get(f"/api/tables/{table_id}").get_json()
    history = client.get(f"/api/tables/{table_id}/history").get_json()
    return table["version"], table["state"], history["history"]


def table_ids(client) -> list[str]:
    """Every table's id."""
    return [table["id"] for table in client.get("/api/tables").get_json()["tables"]]


def followed(client) -> str | None:
    """The table the box follows."""
    return client.get("/api/device/table").get_json()["table"]


def deal_form(version: int) -> dict:
    """The Razzia! deal form as the table page posts it."""
    return {"type": "deal", "how": "by_hand", "sets": SETS, "version": version}


@pytest.fixture
def table(api) -> str:
    """A Razzia! table just created through the API (version 0, not dealt)."""
    status, body = api.create()
    assert status == 201, body
    return body["id"]


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_cross_site_form_cannot_create_a_table_or_repoint_the_box(client, table, headers):
    """The new-table form posted from another site: 403, no table, the box stays put."""
    box_before = followed(client)
    response = client.post("/tables/new/razzia", data={"player": PLAYERS}, headers=headers)
    assert response.status_code == 403
    assert response.mimetype == "text/html"
    assert REFUSED_CROSS_SITE in response.get_data(as_text=True)
    assert table_ids(client) == [table] and followed(client) == box_before == table
    own = client.post("/tables/new/razzia", data={"player": PLAYERS}, headers=SAME_ORIGIN[0])
    assert own.status_code == 303 and len(table_ids(client)) == 2


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_cross_site_form_cannot_move(client, table, headers):
    """A move form posted from another site: 403, the table is as it was."""
    before = snapshot(client, table)
    response = client.post(f"/tables/{table}/moves", data=deal_form(0), headers=headers)
    assert response.status_code == 403
    assert snapshot(client, table) == before
    own = client.post(f"/tables/{table}/moves", data=deal_form(0), headers=SAME_ORIGIN[0])
    assert own.status_code == 303 and snapshot(client, table)[0] == 1


def test_cross_site_undo_posts_cannot_unwind_a_game(client, api):
    """The reported attack: a burst of cross-site undo posts; not one gets through."""
    dealt = api.dealt()
    before = snapshot(client, dealt["id"])
    for version in range(5):
        for headers in CROSS_SITE:
            data = {"version": before[0] - version}
            response = client.post(f"/tables/{dealt['id']}/undo", data=data, headers=headers)
            assert response.status_code == 403
    assert snapshot(client, dealt["id"]) == before
    own = client.post(f"/tables/{dealt['id']}/undo", data={"version": before[0]})
    assert own.status_code == 303 and snapshot(client, dealt["id"])[0] == before[0] + 1


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_cross_site_api_writes_are_refused_in_json(client, api, table, headers):
    """Moves, undo, new tables, reveals and the box's table from another site: 403 JSON."""
    other = api.dealt()["id"]
    before = snapshot(client, other), table_ids(client), followed(client)
    writes = [
        ("POST", "/api/tables", {"game": "razzia", "players": PLAYERS}),
        ("POST", f"/api/tables/{other}/moves", {"version": 1, "move": {"type": "pass"}}),
        ("POST", f"/api/tables/{other}/undo", {"version": 1}),
        ("PUT", "/api/device/table", {"table": table}),
        ("POST", f"/api/tables/{other}/reveal", {"seats": [0, 1]}),
        ("DELETE", f"/api/tables/{other}/reveal", None),
    ]
    for method, path, body in writes:
        response = client.open(path, method=method, json=body, headers=headers)
        assert response.status_code == 403, (method, path)
        assert REFUSED_CROSS_SITE in response.get_json()["error"]
    assert (snapshot(client, other), table_ids(client), followed(client)) == before
    own = client.put("/api/device/table", json={"table": table}, headers=SAME_ORIGIN[0])
    assert own.status_code == 200 and followed(client) == table


@pytest.mark.parametrize("headers", SAME_ORIGIN)
def test_own_pages_and_clients_without_browser_headers_pass(client, table, headers):
    """Our own page, a typed address and curl or the bridge (no Origin at all) may write."""
    response = client.post(f"/tables/{table}/moves", data=deal_form(0), headers=headers)
    assert response.status_code == 303
    assert snapshot(client, table)[0] == 1


def test_reads_pass_whatever_site_asks(client, table):
    """GET, HEAD and OPTIONS change nothing, so they pass with any Origin."""
    for method in ("GET", "HEAD", "OPTIONS"):
        response = client.open(f"/api/tables/{table}", method=method, headers=CROSS_SITE[0])
        assert response.status_code < 400, method


#: Every content type a page on another site may post without asking the browser first.
SIMPLE_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]


def json_writes(app) -> list[tuple[str, str]]:
    """(method, rule) of every API route that writes with a body (all but DELETE)."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            found += [(m, rule.rule) for m in sorted(rule.methods & {"POST", "PUT", "PATCH"})]
    return found


@pytest.mark.parametrize("content_type", SIMPLE_TYPES)
def test_every_json_endpoint_wants_application_json(app, client, api, table, content_type):
    """JSON sent as a "simple" request (no CORS preflight) is refused with 415 everywhere."""
    other = api.dealt()["id"]
    before = snapshot(client, other), table_ids(client), followed(client)
    writes = json_writes(app)
    assert len(writes) >= 8, writes  # tables, moves, undo, score, box table, reveals, status
    body = '{"game": "razzia", "players": ["A", "B"], "version": 1, "table": null}'
    for method, rule in writes:
        path = rule.replace("<table_id>", other)
        response = client.open(path, method=method, data=body, content_type=content_type)
        assert response.status_code == 415, (method, path, response.get_json())
        assert "application/json" in response.get_json()["error"]
    assert (snapshot(client, other), table_ids(client), followed(client)) == before


@pytest.mark.parametrize("host", FOREIGN_HOSTS)
def test_a_foreign_host_is_refused_for_reads_and_writes(client, table, host):
    """A request sent to a name that is not this machine (DNS rebinding): 400, no change."""
    before = snapshot(client, table), table_ids(client)
    for path in ("/", f"/tables/{table}", "/static/app.css"):
        response = client.get(path, headers={"Host": host})
        assert response.status_code == 400, path
        assert "does not answer to the name" in response.get_data(as_text=True)
    response = client.get(f"/api/tables/{table}", headers={"Host": host})
    assert response.status_code == 400 and "COMPANION_ALLOWED_HOSTS" in response.get_json()["error"]
    body = {"game": "razzia", "players": PLAYERS}
    assert client.post("/api/tables", json=body, headers={"Host": host}).status_code == 400
    moved = client.post(f"/tables/{table}/moves", data=deal_form(0), headers={"Host": host})
    assert moved.status_code == 400
    assert (snapshot(client, table), table_ids(client)) == before


def raw_get(port: int, path: str, host: str) -> tuple[int, bytes]:
    """GET `path` from a live server with this Host header: (status, the first bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read(200) if response.status != 200 else b""
    finally:
        connection.close()


def test_live_streams_and_held_polls_check_the_host_before_waiting(app, table):
    """What the server front holds without Flask (live streams, long polls) refuses at once."""
    app.config["DEVICE_LONG_POLL_S"] = LONG_POLL_S
    stream = f"{STREAM_PREFIX}{table}?page=table"
    poll = f"/api/tables/{table}/device"
    with Background(app) as server:
        for path in (stream, poll + "?wait=x"):
            started = time.monotonic()
            status, body = raw_get(server.port, path, "evil.example")
            assert status == 400 and time.monotonic() - started < LONG_POLL_S / 2, path
            assert "does not answer to the name evil.example" in json.loads(body)["error"]
        own = f"127.0.0.1:{server.port}"
        assert raw_get(server.port, stream, own)[0] == raw_get(server.port, poll, own)[0] == 200


def own_lan_address() -> str | None:
    """An address of this machine other than loopback, when it has one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP: picks the interface, sends nothing
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def allowed_hosts() -> list[str]:
    """Names this machine answers to whatever the config says."""
    machine = socket.gethostname().lower().partition(".")[0]
    hosts = ["localhost", "localhost:5000", "127.0.0.1:5000", "127.0.1.1", "[::1]:5000"]
    hosts += ["LOCALHOST", "localhost.", f"{machine}:5000", f"{machine}.local"]
    lan = own_lan_address()
    return hosts + ([f"{lan}:5000"] if lan else [])


@pytest.mark.parametrize("host", allowed_hosts())
def test_this_machines_names_and_addresses_are_served(client, host):
    """Loopback, the machine's name, its .local name and its LAN address are this companion."""
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_base_url_and_allowed_hosts_add_names(app, client):
    """COMPANION_BASE_URL's host, COMPANION_ALLOWED_HOSTS names and ".suffix" entries."""
    assert client.get("/", headers={"Host": "games.club"}).status_code == 400
    app.config["BASE_URL"] = "http://games.club:8000/"
    app.config["ALLOWED_HOSTS"] = " Pi.Home , .tables.lan"
    for host in ("games.club", "pi.home:5000", "one.tables.lan", "two.tables.lan"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", "tables.lan.evil.example", "pi.home.evil.example"):
        assert client.get("/", headers={"Host": host}).status_code == 400, host
    app.config["ALLOWED_HOSTS"] = "*"
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 200


def test_host_names_are_read_like_browsers_send_them():
    """Ports and brackets are dropped; a bare IPv6 address keeps its colons."""
    assert guard.hostname_of("LocalHost:5000") == "localhost"
    assert guard.hostname_of("[::1]:5000") == "::1"
    assert guard.hostname_of("::1") == "::1"
    assert guard.hostname_of("example.") == "example"
    assert guard.own_address("127.0.0.1") and guard.own_address("::1")
    assert not guard.own_address("0.0.0.0") and not guard.own_address("224.0.0.1")
    assert not guard.own_address("192.0.2.1") and not guard.own_address("evil.example")


OFF_SITE = [
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "//evil.example",
    "//evil.example/tables/x",
    "/\\evil.example",
    "\\/evil.example",
    "/\\/evil.example",
    "https://evil.example",
    "http:evil.example",
    "javascript:alert(1)",
    "evil.example",
    " /score",
    "/score evil",
    "/tables/x\u202e",
    "/tables/\x00",
    "/static/app.css",  # a file, not a page
    "/static/..//evil.example",
    "/tables/x/moves",  # a POST endpoint, not a page
    "/nowhere",
    "",
]
LOCAL = ["/", "/score?x=1", "/tables/abc/history", "/history?player=%C5%BDofie", "/tables/new"]


@pytest.mark.parametrize("target", OFF_SITE)
def test_the_language_switch_never_leaves_the_site(client, target):
    """`next` values that a browser could read as another site go to the home page."""
    response = client.post("/lang", data={"lang": "cs", "next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


@pytest.mark.parametrize("target", LOCAL)
def test_the_language_switch_returns_to_the_page(client, target):
    """Paths of the app's own pages, with their query, are where the switch goes back to."""
    response = client.post("/lang", data={"lang": "cs", "next": target})
    assert response.status_code == 303 and response.headers["Location"] == target


def test_every_answer_carries_the_security_headers(client, table):
    """Pages, JSON, static files, errors and refusals all carry CSP and the rest."""
    answers = [
        client.get("/"),
        client.get(f"/api/tables/{table}"),
        client.get("/static/app.css"),
        client.get("/nowhere"),
        client.get("/api/nowhere"),
        client.post("/tables/new/razzia", headers=CROSS_SITE[0]),
        client.get("/", headers={"Host": "evil.example"}),
    ]
    for response in answers:
        with response:
            for name, value in HYGIENE_HEADERS.items():
                assert response.headers[name] == value, (response.request.path, name)
            policy = response.headers["Content-Security-Policy"]
            for directive in (
                "default-src 'self'",
                "script-src 'self'",
                "frame-ancestors 'none'",
                "base-uri 'none'",
                "form-action 'self'",
                "object-src 'none'",
            ):
                assert directive in policy
            assert "unsafe-inline" not in policy.replace("style-src-attr 'unsafe-inline'", "")


def test_the_session_cookie_is_same_site_and_out_of_scripts_reach(client):
    """The language choice's cookie: SameSite=Lax and HttpOnly."""
    response = client.post("/lang", data={"lang": "cs", "next": "/"})
    cookie = response.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie
