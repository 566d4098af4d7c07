"""Benchmark: what one device on the LAN can do to everyone else, before and after issue 24.

Run from the repository root:  .venv/bin/python -m bench.bench_room   (about 6 minutes)

Starts the real `companion serve` twice in one run: the code before the room's limits (the
commit BEFORE, checked out with `git archive` into a temporary folder) and the code of this
tree, each with the open-files limit a fresh Linux login has (1,024: the server raises it to
4,096 itself) and loopback counted as a device on the LAN (COMPANION_LOCAL_IS_HOST=0), so
127.0.0.x addresses stand for phones. Against each it measures, from 127.0.0.1, a normal
request (GET /api/tables) while 127.0.0.2 holds 4,200 idle sockets, 500 slowloris sockets,
and then as many live streams as it can (1,000 asked); whether another address still gets a
stream and the box bridge its poll; move -> seen and the move's POST with 300 viewers through
300 Host ports against 300 through one; a thousand tables from one address; a move nested
900 deep; the security headers on the front's own answers; and the log's growth. Each row is
a ratio to a baseline measured in the same run, or a count.
"""

import argparse
import asyncio
import http.client
import json
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.longest_game import PLAYERS as LONG_GAME_PLAYERS
from bench.longest_game import longest_game

REPO = Path(__file__).resolve().parents[1]
#: The last commit before the room's limits (issue 24).
BEFORE = "e9643ca"
HOST = "127.0.0.1"
ATTACKER, OTHER, BRIDGE = "127.0.0.2", "127.0.0.3", "127.0.0.4"
#: The soft open-files limit of a fresh login (the server raises it to 4,096).
LOGIN_OPEN_FILES = 1024
IDLE_SOCKETS = 4200
SLOWLORIS = 500
STREAMS = 1000
POLLS = 500
VIEWERS = 300
#: Viewer addresses (15 viewers each: within the room's share of 16 streams).
VIEWER_ADDRESSES = 20
MOVES = 30
INTERVAL_S = 0.5
SPAM_TABLES = 1000
NESTED = 900
SAMPLES = 20
#: Normal requests while the attacker's sockets are open (each may wait REQUEST_TIMEOUT_S).
ATTACK_SAMPLES = 5
#: Longest a normal request may take before it counts as timed out.
REQUEST_TIMEOUT_S = 5.0
#: How long the attacker's sockets are watched for the server closing them.
CLOSE_WATCH_S = 30.0
START_TIMEOUT_S = 30.0
SETTLE_S = 3.0
PLAYERS = ["Ann", "Bob", "Cid"]
SECURITY_HEADERS = (
    "content-security-policy",
    "x-content-type-options",
    "x-frame-options",
    "referrer-policy",
    "cross-origin-resource-policy",
)
_VERSION = re.compile(rb'"version":"(\d+)\.')


def percentile(samples: list[float], pct: float) -> float:
    """The pct-th percentile (nearest rank) of samples."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


# -- the two servers ---------------------------------------------------------------------------


def tree_of(rev: str, folder: Path) -> Path:
    """The source tree at `rev` (git archive), or this tree for "HEAD-worktree"."""
    if rev == "worktree":
        return REPO
    folder.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def free_port() -> int:
    """A TCP port that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def login_limits() -> None:
    """In the server's child process: the open-files limit of a fresh login."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(LOGIN_OPEN_FILES, hard), hard))


class Server:
    """`companion serve` of one source tree on a free port, its log in a file."""

    def __init__(self, tree: Path, instance: Path) -> None:
        """Start it and wait until it answers."""
        self.tree, self.instance = tree, instance
        self.port = free_port()
        self.log_path = instance / "serve.log"
        env = {**os.environ, "PYTHONPATH": str(tree), "COMPANION_LOCAL_IS_HOST": "0"}
        command = [sys.executable, "-m", "companion_app.cli", "serve", "--port", str(self.port)]
        command += ["--instance", str(instance)]
        self.log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(
            command,
            cwd=tree,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            preexec_fn=login_limits,
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                request(self.port, "GET", "/api/tables")
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("companion serve did not start")

    def device_key(self) -> str:
        """The box bridge's key (`companion device key`)."""
        env = {**os.environ, "PYTHONPATH": str(self.tree)}
        command = [sys.executable, "-m", "companion_app.cli", "device", "key"]
        command += ["--instance", str(self.instance)]
        out = subprocess.run(command, cwd=self.tree, env=env, capture_output=True, text=True)
        return out.stdout.strip().split()[-1]

    def log_size(self) -> int:
        """Bytes the server has logged so far."""
        self.log.flush()
        return self.log_path.stat().st_size

    def stop(self) -> None:
        """Stop the server."""
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def request(port, method, path, body=None, source=HOST, headers=None, timeout=START_TIMEOUT_S):
    """(status, headers, body bytes, seconds) of one request from `source`."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(source, 0))
    try:
        sent = {"Content-Type": "application/json", **(headers or {})}
        data = None if body is None else body if isinstance(body, str) else json.dumps(body)
        started = time.perf_counter()
        connection.request(method, path, data, sent)
        response = connection.getresponse()
        raw = response.read()
        return response.status, dict(response.getheaders()), raw, time.perf_counter() - started
    finally:
        connection.close()


def normal_latency(port: int, samples: int = SAMPLES) -> dict:
    """A normal request's latency from 127.0.0.1: p50, p99 and timeouts (capped)."""
    times, timeouts = [], 0
    for _ in range(samples):
        try:
            status, _, _, took = request(port, "GET", "/api/tables", timeout=REQUEST_TIMEOUT_S)
            times.append(took if status == 200 else REQUEST_TIMEOUT_S)
        except OSError:
            times.append(REQUEST_TIMEOUT_S)
            timeouts += 1
    return {"p50": statistics.median(times), "p99": percentile(times, 99), "timeouts": timeouts}


# -- the attacker's sockets --------------------------------------------------------------------


def open_sockets(port: int, count: int, first: bytes = b"") -> list[socket.socket]:
    """`count` non-blocking connections from ATTACKER, each having sent `first`."""
    opened = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((ATTACKER, 0))
        sock.connect_ex((HOST, port))
        opened.append(sock)
    time.sleep(0.5)
    if first:
        for sock in opened:
            try:
                sock.send(first)
            except OSError:
                pass
    return opened


def answered(sock: socket.socket) -> bool:
    """True once the server wrote anything on the socket or closed it (never waits)."""
    sock.setblocking(False)  # a socket with a timeout would wait that long for MSG_DONTWAIT
    try:
        sock.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True


def closed(sock: socket.socket) -> bool:
    """True once the server closed or reset the socket (never waits)."""
    sock.setblocking(False)
    try:
        while True:
            if not sock.recv(65536, socket.MSG_DONTWAIT):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def watch_closing(sockets: list[socket.socket], trickle: bool) -> tuple[int, float]:
    """(sockets the server closed within CLOSE_WATCH_S, seconds until the last of them)."""
    started, last = time.monotonic(), 0.0
    left = list(sockets)
    while left and time.monotonic() - started < CLOSE_WATCH_S:
        still = []
        for sock in left:
            if trickle:
                try:
                    sock.send(b"X")
                except OSError:
                    pass
            if closed(sock):
                last = time.monotonic() - started
            else:
                still.append(sock)
        left = still
        time.sleep(0.5)
    return len(sockets) - len(left), last


def attack(server: Server, kind: str) -> dict:
    """Idle or slowloris sockets from ATTACKER: a normal request meanwhile, and the closing."""
    count = IDLE_SOCKETS if kind == "idle" else SLOWLORIS
    first = b"" if kind == "idle" else b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    log_before = server.log_size()
    sockets = open_sockets(server.port, count, first)
    try:
        during = normal_latency(server.port, ATTACK_SAMPLES)
        closed_count, last = watch_closing(sockets, trickle=kind == "slowloris")
    finally:
        for sock in sockets:
            sock.close()
    time.sleep(1.0)
    return {
        **during,
        "closed": closed_count,
        "of": count,
        "last_s": last,
        "log_bytes": server.log_size() - log_before,
    }


# -- streams and polls -------------------------------------------------------------------------


def stream_socket(port: int, source: str, table_id: str, host: str = HOST) -> socket.socket:
    """A live stream's request sent from `source` (its answer left to read)."""
    sock = socket.create_connection((HOST, port), timeout=10, source_address=(source, 0))
    sock.sendall(
        f"GET /live/tables/{table_id}?page=table&lang=en HTTP/1.1\r\nHost: {host}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    return sock


def status_line(sock: socket.socket) -> int:
    """The status of the answer on `sock` (0 if none came)."""
    try:
        head = sock.recv(4096)
    except OSError:
        return 0
    found = re.match(rb"HTTP/1.1 (\d+)", head)
    return int(found.group(1)) if found else 0


def new_table(port: int, source: str = OTHER) -> dict:
    """A Razzia! table made from `source`."""
    status, _, body, _ = request(
        port, "POST", "/api/tables", {"game": "razzia", "players": PLAYERS}, source
    )
    if status != 201:
        raise RuntimeError(f"table not made: {status} {body[:200]!r}")
    return json.loads(body)


def hold_everything(server: Server) -> dict:
    """ATTACKER opens STREAMS streams and POLLS polls: what it got, another address's
    stream, the bridge's poll (device key), and a normal request meanwhile."""
    port = server.port
    table = new_table(port)
    held, got = [], {"streams": 0, "polls": 0}
    for _ in range(STREAMS):
        try:
            sock = stream_socket(port, ATTACKER, table["id"])
        except OSError:
            break
        held.append(sock)
        got["streams"] += status_line(sock) == 200
    etag = json.loads(request(port, "GET", f"/api/tables/{table['id']}/device")[2])["etag"]
    for _ in range(POLLS):
        try:
            sock = socket.create_connection((HOST, port), timeout=10, source_address=(ATTACKER, 0))
        except OSError:
            break
        sock.sendall(
            f"GET /api/tables/{table['id']}/device?wait={etag} HTTP/1.1\r\n"
            f"Host: {HOST}\r\n\r\n".encode()
        )
        held.append(sock)
    time.sleep(SETTLE_S)
    got["polls"] = sum(not answered(sock) for sock in held[len(held) - POLLS :])
    other = stream_socket(port, OTHER, table["id"])
    got["other_stream"] = status_line(other)
    key = server.device_key()
    followed = json.loads(request(port, "GET", "/api/device", source=BRIDGE)[2])["etag"]
    status, _, _, _ = request(
        port,
        "GET",
        f"/api/device?wait={followed}",
        source=BRIDGE,
        headers={"Authorization": f"Bearer {key}"},
        timeout=REQUEST_TIMEOUT_S * 6,
    )
    got["bridge_poll"] = status
    got["normal"] = normal_latency(port)
    for sock in [*held, other]:
        sock.close()
    return got


# -- viewers through many Host ports ------------------------------------------------------------


async def watch(port, table_id, source, host, seen, ready) -> None:
    """One viewer: open the stream; note when each version arrives."""
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
    writer.write(
        f"GET /live/tables/{table_id}?page=table&lang=en HTTP/1.1\r\nHost: {host}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.split(b"\r\n")[0].decode())
        buffer = b""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            buffer += (await reader.readexactly(size + 2))[:-2]
            *events, buffer = buffer.split(b"\n\n")
            for event in events:
                if event.startswith(b"event: update"):
                    version = int(_VERSION.search(event, 0, 200).group(1))
                    seen.setdefault(version, time.monotonic())
                    if not ready.done():
                        ready.set_result(None)
    finally:
        writer.close()


async def viewers_main(port: int, table_id: str, count: int, ports: bool) -> dict:
    """Open `count` viewers (each its own Host port if `ports`), then watch until "stop"."""
    loop = asyncio.get_running_loop()
    seen = [dict() for _ in range(count)]
    readies = [loop.create_future() for _ in range(count)]
    tasks = []
    for index in range(count):
        source = f"127.0.1.{index % VIEWER_ADDRESSES + 1}"
        host = f"{HOST}:{20000 + index}" if ports else f"{HOST}:{port}"
        tasks.append(
            asyncio.create_task(watch(port, table_id, source, host, seen[index], readies[index]))
        )
    await asyncio.wait(readies + tasks, return_when=asyncio.ALL_COMPLETED, timeout=START_TIMEOUT_S)
    print(f"ready {sum(ready.done() for ready in readies)}", flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)
    errors = sum(1 for task in tasks if task.done())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"seen": seen, "errors": errors}


def watched_moves(port: int, ports: bool, game: list[dict]) -> dict:
    """MOVES paced moves on a table VIEWERS watch: move -> seen, POST times, errors."""
    status, _, body, _ = request(
        port, "POST", "/api/tables", {"game": "razzia", "players": LONG_GAME_PLAYERS}, OTHER
    )
    table = json.loads(body)
    key = {"Authorization": f"Bearer {table['edit_key']}"}
    command = [
        sys.executable,
        "-m",
        "bench.bench_room",
        "--watch",
        str(port),
        table["id"],
        str(VIEWERS),
        "1" if ports else "0",
    ]
    viewers = subprocess.Popen(
        command, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    ready = viewers.stdout.readline().split()
    version, done = 0, []
    for _ in range(MOVES):
        sent = time.monotonic()
        status, _, body, took = request(
            port,
            "POST",
            f"/api/tables/{table['id']}/moves",
            {"version": version, "move": game[version]},
            OTHER,
            key,
        )
        if status != 200:
            raise RuntimeError(f"move refused: {status} {body[:200]!r}")
        version = json.loads(body)["version"]
        done.append((version, sent, took))
        time.sleep(INTERVAL_S)
    time.sleep(SETTLE_S)
    report, _ = viewers.communicate("stop\n", timeout=START_TIMEOUT_S)
    result = json.loads(report)
    delays, missed = [], 0
    for seen in result["seen"]:
        arrivals = {int(v): stamp for v, stamp in seen.items()}
        for moved, sent, _ in done:
            later = [stamp for v, stamp in arrivals.items() if v >= moved]
            if later:
                delays.append(min(later) - sent)
            else:
                missed += 1
    return {
        "ready": int(ready[1]) if len(ready) > 1 else 0,
        "seen": delays,
        "post": [took for _, _, took in done],
        "missed": missed,
        "errors": result["errors"],
    }


# -- tables, nesting, headers ------------------------------------------------------------------


def spam_tables(server: Server) -> dict:
    """A table in play on the box, then SPAM_TABLES tables from ATTACKER: how many were made,
    whether the box moved, and the home page's size and time before and after."""
    port = server.port
    new_table(port, OTHER)  # a game in play, on the box unless one already is
    shown = json.loads(request(port, "GET", "/api/device/table", source=OTHER)[2])["table"]
    before_home = [request(port, "GET", "/", source=OTHER) for _ in range(5)]
    made = sum(
        request(
            port, "POST", "/api/tables", {"game": "razzia", "players": ["X", "Y", "Z"]}, ATTACKER
        )[0]
        == 201
        for _ in range(SPAM_TABLES)
    )
    followed = json.loads(request(port, "GET", "/api/device/table", source=OTHER)[2])["table"]
    after_home = [request(port, "GET", "/", source=OTHER) for _ in range(5)]
    return {
        "made": made,
        "box_moved": followed != shown,
        "home_bytes": (len(before_home[-1][2]), len(after_home[-1][2])),
        "home_s": (
            statistics.median(r[3] for r in before_home),
            statistics.median(r[3] for r in after_home),
        ),
    }


def nested_move(server: Server) -> dict:
    """A move field nested NESTED deep: the status and the log's growth."""
    table = new_table(server.port)
    key = {"Authorization": f"Bearer {table['edit_key']}"}
    field = "[" * NESTED + "]" * NESTED
    body = f'{{"version": 0, "move": {{"type": "deal", "sets": {field}}}}}'
    before = server.log_size()
    statuses = [
        request(server.port, "POST", f"/api/tables/{table['id']}/moves", body, OTHER, key)[0]
        for _ in range(5)
    ]
    time.sleep(0.5)
    return {"status": statuses[0], "log_bytes": server.log_size() - before}


def header_count(server: Server) -> dict:
    """Security headers on a stream, the front's 404 and the front's 400 (bad HTTP)."""
    port = server.port
    table = new_table(port)
    sock = stream_socket(port, OTHER, table["id"])
    stream_head = sock.recv(4096).decode("latin-1").lower()
    sock.close()
    _, headers, _, _ = request(port, "GET", "/live/tables/nosuchtb?page=table", source=BRIDGE)
    front_404 = {name.lower() for name in headers}
    bad = socket.create_connection((HOST, port), timeout=10, source_address=(BRIDGE, 0))
    bad.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad header\r\n\r\n")
    bad_head = bad.recv(4096).decode("latin-1").lower()
    bad.close()
    return {
        "stream": sum(f"{name}:" in stream_head for name in SECURITY_HEADERS),
        "front_404": sum(name in front_404 for name in SECURITY_HEADERS),
        "bad_http_400": sum(f"{name}:" in bad_head for name in SECURITY_HEADERS),
    }


# -- one side, the report ----------------------------------------------------------------------


def measure(tree: Path, instance: Path, game: list[dict]) -> dict:
    """Every figure against one server."""
    server = Server(tree, instance)
    try:
        figures = {"baseline": normal_latency(server.port)}
        figures["idle"] = attack(server, "idle")
        figures["slowloris"] = attack(server, "slowloris")
        figures["held"] = hold_everything(server)
        figures["one_host"] = watched_moves(server.port, False, game)
        figures["many_ports"] = watched_moves(server.port, True, game)
        figures["spam"] = spam_tables(server)
        figures["nested"] = nested_move(server)
        figures["headers"] = header_count(server)
    finally:
        server.stop()
    return figures


def rows(figures: dict) -> list[tuple[str, str]]:
    """(label, value) rows of one side."""
    ms = 1000
    base = figures["baseline"]
    out = []
    for kind in ("idle", "slowloris"):
        found = figures[kind]
        out.append(
            (
                f"normal GET p50 with {found['of']} {kind} sockets / none",
                f"{found['p50'] / base['p50']:.1f}x ({found['p50'] * ms:.1f} vs "
                f"{base['p50'] * ms:.1f} ms; {found['timeouts']} timed out at "
                f"{REQUEST_TIMEOUT_S:g} s)",
            )
        )
        out.append(
            (
                f"{kind} sockets the server closed within {CLOSE_WATCH_S:g} s",
                f"{found['closed']} of {found['of']} (last at {found['last_s']:.1f} s)",
            )
        )
        out.append((f"log bytes while {kind} sockets were open", str(found["log_bytes"])))
    held = figures["held"]
    out.append((f"streams one address got of {STREAMS} asked", str(held["streams"])))
    out.append((f"polls one address holds of {POLLS} asked", str(held["polls"])))
    out.append(("another address's stream, meanwhile", str(held["other_stream"])))
    out.append(("the bridge's poll (device key), meanwhile", str(held["bridge_poll"])))
    normal = held["normal"]
    out.append(
        (
            "normal GET p50 meanwhile / none",
            f"{normal['p50'] / base['p50']:.1f}x ({normal['timeouts']} timed out)",
        )
    )
    one, many = figures["one_host"], figures["many_ports"]
    for label, found in (("1 Host", one), (f"{VIEWERS} Host ports", many)):
        if found["seen"]:
            out.append(
                (
                    f"move -> seen p99, {VIEWERS} viewers through {label}",
                    f"{percentile(found['seen'], 99) * ms:.0f} ms ({found['ready']} ready,"
                    f" {found['missed']} missed)",
                )
            )
        else:
            out.append(
                (
                    f"move -> seen p99, {VIEWERS} viewers through {label}",
                    f"none seen ({found['ready']} ready)",
                )
            )
    if one["seen"] and many["seen"]:
        out.append(
            (
                f"move -> seen p99, {VIEWERS} ports / 1 Host",
                f"{percentile(many['seen'], 99) / percentile(one['seen'], 99):.2f}",
            )
        )
    out.append(
        (
            f"move POST p99, {VIEWERS} ports / 1 Host",
            f"{percentile(many['post'], 99) / percentile(one['post'], 99):.2f} "
            f"({percentile(many['post'], 99) * ms:.1f} vs "
            f"{percentile(one['post'], 99) * ms:.1f} ms)",
        )
    )
    spam = figures["spam"]
    out.append((f"tables one address made of {SPAM_TABLES}", str(spam["made"])))
    out.append(("a stranger's tables moved the box", "yes" if spam["box_moved"] else "no"))
    out.append(
        (
            "home page size, after / before the spam",
            f"{spam['home_bytes'][1] / spam['home_bytes'][0]:.2f} ({spam['home_bytes'][1]} vs "
            f"{spam['home_bytes'][0]} B)",
        )
    )
    out.append(
        (
            "home page time, after / before the spam",
            f"{spam['home_s'][1] / spam['home_s'][0]:.2f} ({spam['home_s'][1] * ms:.0f} vs "
            f"{spam['home_s'][0] * ms:.0f} ms)",
        )
    )
    nested = figures["nested"]
    out.append(
        (
            f"move nested {NESTED} deep: status, log bytes for 5",
            f"{nested['status']}, {nested['log_bytes']}",
        )
    )
    headers = figures["headers"]
    out.append(
        (
            "security headers on a stream / front 404 / bad HTTP 400 (of 5)",
            f"{headers['stream']} / {headers['front_404']} / {headers['bad_http_400']}",
        )
    )
    return out


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark (or, with --watch, be the viewers' process)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help="the commit measured as before")
    parser.add_argument("--watch", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.watch:
        port, table_id, count, ports = args.watch
        print(json.dumps(asyncio.run(viewers_main(int(port), table_id, int(count), ports == "1"))))
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 16384)), hard))
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        before_tree = tree_of(args.before, root / "before")
        (root / "i-before").mkdir()
        (root / "i-after").mkdir()
        game = longest_game()
        before = measure(before_tree, root / "i-before", game)
        after = measure(REPO, root / "i-after", game)
    print(
        f"room abuse: one address against everyone else; before = {args.before}, after = "
        "this tree; loopback counted as the LAN"
    )
    print(f"{'measure':66} {'before':>34}   after")
    for (label, old), (_, new) in zip(rows(before), rows(after), strict=True):
        print(f"{label:66} {old:>34}   {new}")


if __name__ == "__main__":
    main()
