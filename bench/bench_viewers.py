"""Benchmark: 300 live viewers on one `companion serve` while a client moves once a second.

Run from the repository root:  .venv/bin/python -m bench.bench_viewers   (about 5 minutes)

Starts the real `companion serve` on a temporary instance, then:
  1. moves once a second on a table nobody watches (the baseline POST latency);
  2. opens VIEWERS live streams (`GET /live/tables/<id>?page=...&lang=...`, the request an
     EventSource makes, spread over the four live pages and both languages) from a second
     process, and moves once a second on their table (in blocks of 10 alternating with the
     baseline's): move -> seen for every viewer and move, the POST latency as a ratio to
     the baseline, errors;
  3. holds POLLS device long polls on one table and moves on another as fast as it can,
     against the same moves with no poll held.
Every figure is a ratio to a baseline measured in the same run (bench/README.md) or, for
move -> seen, an absolute time next to its target; docs/live.md has the figures.
"""

import argparse
import asyncio
import http.client
import json
import os
import re
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.longest_game import PLAYERS, longest_game

REPO = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
VIEWERS = 300
#: Moves watched, and as many not watched: 60 each, since the p99 of 30 is their maximum.
MOVES = 60
POLLS = 100
INTERVAL_S = 1.0
#: Moves in a row before switching between watched and not watched (or polls held or not).
BLOCK = 10
#: Moves on the other table in the long-poll comparison, each way, in blocks of POLL_BLOCK.
POLL_MOVES = 200
POLL_BLOCK = 20
#: Time for freshly opened polls to reach the server and wait there.
POLLS_SETTLE_S = 1.0
#: Viewers by page, as a club night might spread them (phones mostly on the table page).
PAGE_SHARES = (("table", 6), ("history", 2), ("device", 1), ("results", 1))
LANGS = ("cs", "en")
START_TIMEOUT_S = 30.0
#: After the last move, how long viewers may still take to see it before it counts as missed.
SETTLE_S = 5.0
POLL_S = 0.05
TARGET_SEEN_P99_MS = 500
TARGET_POST_RATIO = 2.0
_VERSION = re.compile(rb'"version":"(\d+)\.')


def percentile(samples: list[float], pct: float) -> float:
    """The pct-th percentile (nearest rank) of samples (0 for none)."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


# -- the server ------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(instance: str, log) -> tuple[subprocess.Popen, int]:
    """`companion serve` on a free port; waits until it answers."""
    port = free_port()
    command = [sys.executable, "-m", "companion_app.cli", "serve", "--port", str(port)]
    command += ["--instance", instance]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    server = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            Client(port).call("GET", "/api/tables")
            return server, port
        except OSError:
            time.sleep(POLL_S)
    server.kill()
    raise RuntimeError("companion serve did not start")


class Client:
    """One keep-alive connection that sends JSON and times each request."""

    def __init__(self, port: int) -> None:
        """A connection to the server on `port` (opened on first use)."""
        self.connection = http.client.HTTPConnection(HOST, port, timeout=START_TIMEOUT_S)
        self.key: str | None = None

    def call(self, method: str, path: str, body: object = None) -> tuple[float, dict]:
        """(seconds, JSON answer); any status >= 300 is a benchmark bug."""
        try:
            return self._call(method, path, body)
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.connection.close()  # the server closed an idle keep-alive connection
            return self._call(method, path, body)

    def _call(self, method: str, path: str, body: object) -> tuple[float, dict]:
        """One timed request on the connection."""
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        data = None if body is None else json.dumps(body)
        started = time.perf_counter()
        self.connection.request(method, path, data, headers)
        response = self.connection.getresponse()
        answer = json.loads(response.read())
        elapsed = time.perf_counter() - started
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {answer}")
        return elapsed, answer


class Table:
    """A Razzia! table made through the API, played with the long game's moves."""

    def __init__(self, port: int, game: list[dict]) -> None:
        """Create the table (and keep its edit key, sent as a bearer token with moves)."""
        self.client = Client(port)
        self.game = game
        _, created = self.client.call("POST", "/api/tables", {"game": "razzia", "players": PLAYERS})
        self.id = created["id"]
        self.client.key = created.get("edit_key")
        self.version = created["version"]

    def move(self) -> tuple[int, float, float]:
        """Play the next move: (new version, monotonic time sent, seconds the POST took)."""
        body = {"version": self.version, "move": self.game[self.version]}
        sent = time.monotonic()
        elapsed, answer = self.client.call("POST", f"/api/tables/{self.id}/moves", body)
        self.version = answer["version"]
        return self.version, sent, elapsed


def paced_moves(table: Table, count: int) -> list[tuple[int, float, float]]:
    """`count` moves, one every INTERVAL_S."""
    done = []
    start = time.monotonic()
    for index in range(count):
        time.sleep(max(0.0, start + index * INTERVAL_S - time.monotonic()))
        done.append(table.move())
    return done


# -- the viewers (a process of their own) ----------------------------------------------------


def viewer_pages(count: int) -> list[tuple[str, str]]:
    """(page, language) of each viewer, spread by PAGE_SHARES and LANGS."""
    slots = [page for page, share in PAGE_SHARES for _ in range(share)]
    return [(slots[index % len(slots)], LANGS[index % len(LANGS)]) for index in range(count)]


async def watch(port: int, table_id: str, page: str, lang: str, seen: dict, ready) -> None:
    """One viewer: open the stream as EventSource does; note when each version arrives."""
    reader, writer = await asyncio.open_connection(HOST, port)
    path = f"/live/tables/{table_id}?page={page}&lang={lang}"
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/event-stream\r\n"
        "Cache-Control: no-cache\r\n\r\n"
    )
    writer.write(request.encode())
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.split(b"\r\n")[0].decode())
        buffer = b""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                return  # the server ended the stream
            buffer += (await reader.readexactly(size + 2))[:-2]
            *events, buffer = buffer.split(b"\n\n")
            for event in events:
                if event.startswith(b"event: update"):
                    found = _VERSION.search(event, 0, 200)
                    version = int(found.group(1))
                    seen.setdefault(version, time.monotonic())
                    if not ready.done():
                        ready.set_result(None)
    finally:
        writer.close()


async def viewers_main(port: int, table_id: str, count: int) -> dict:
    """Open `count` viewers, say "ready", then watch until "stop" arrives on stdin."""
    seen = [dict() for _ in range(count)]
    loop = asyncio.get_running_loop()
    readies = [loop.create_future() for _ in range(count)]
    tasks = [
        asyncio.create_task(watch(port, table_id, page, lang, seen[i], readies[i]))
        for i, (page, lang) in enumerate(viewer_pages(count))
    ]
    await asyncio.wait(readies + tasks, return_when=asyncio.ALL_COMPLETED, timeout=START_TIMEOUT_S)
    print(f"ready {sum(r.done() for r in readies)}", flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop"
    errors = [repr(task.exception()) for task in tasks if task.done() and task.exception()]
    ended_early = sum(task.done() and not task.exception() for task in tasks)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"seen": seen, "errors": errors, "ended_early": ended_early}


def run_viewers(port: int, table_id: str, count: int) -> subprocess.Popen:
    """The viewers' process, once every viewer has the page."""
    command = [sys.executable, "-m", "bench.bench_viewers", "--watch", str(port), table_id]
    command.append(str(count))
    process = subprocess.Popen(
        command, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    line = process.stdout.readline().split()
    if line[:1] != ["ready"] or int(line[1]) != count:
        process.kill()
        raise RuntimeError(f"only {line} of {count} viewers got their page")
    return process


# -- the three measurements ------------------------------------------------------------------


def watched_block(port: int, table: Table, viewers: int, moves: int) -> dict:
    """`moves` paced moves on `table` while `viewers` watch it: delays, POSTs, errors."""
    watching = run_viewers(port, table.id, viewers)
    done = paced_moves(table, moves)
    time.sleep(SETTLE_S)
    report, _ = watching.communicate("stop\n", timeout=START_TIMEOUT_S)
    result = json.loads(report)
    delays, missed = [], 0
    for seen in result["seen"]:
        arrivals = {int(version): stamp for version, stamp in seen.items()}
        for version, sent, _ in done:
            later = [stamp for v, stamp in arrivals.items() if v >= version]
            if later:
                delays.append(min(later) - sent)
            else:
                missed += 1
    return {
        "seen": delays,
        "post": [elapsed for _, _, elapsed in done],
        "errors": len(result["errors"]) + result["ended_early"] + missed,
        "error_kinds": result["errors"][:3],
    }


def live_figures(port: int, game: list[dict], viewers: int, moves: int) -> dict:
    """Moves nobody watches and moves `viewers` watch, in alternating blocks of BLOCK moves.

    Alternating keeps both under the same background load (other work on the machine
    changes the disk's fsync time from one minute to the next).
    """
    Table(port, game).move()  # warm-up: imports, caches, the first render
    alone, watched = Table(port, game), Table(port, game)
    figures = {"seen": [], "post": [], "baseline": [], "errors": 0, "error_kinds": []}
    for block in range(0, moves, BLOCK):
        count = min(BLOCK, moves - block)
        figures["baseline"] += [elapsed for _, _, elapsed in paced_moves(alone, count)]
        found = watched_block(port, watched, viewers, count)
        for key in ("seen", "post", "errors", "error_kinds"):
            figures[key] += found[key]
    return {**figures, "viewers": viewers, "moves": moves}


def open_poll(port: int, table_id: str, etag: str) -> socket.socket:
    """A device long poll on a raw socket, its answer left unread."""
    sock = socket.create_connection((HOST, port), timeout=START_TIMEOUT_S)
    path = f"/api/tables/{table_id}/device?wait={etag}"
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
    return sock


def poll_figures(port: int, game: list[dict], polls: int) -> dict:
    """Moves on one table with no poll held, and with `polls` held on another, alternating."""
    alone, beside, still_held = [], [], 0
    held_on = Table(port, game)
    _, view = Client(port).call("GET", f"/api/tables/{held_on.id}/device")
    table = Table(port, game)
    for _ in range(3):  # warm-up
        table.move()
    for _ in range(0, POLL_MOVES, POLL_BLOCK):
        alone += [table.move()[2] for _ in range(POLL_BLOCK)]
        sockets = [open_poll(port, held_on.id, view["etag"]) for _ in range(polls)]
        time.sleep(POLLS_SETTLE_S)  # every poll has reached the server and waits
        beside += [table.move()[2] for _ in range(POLL_BLOCK)]
        still_held += sum(not select.select([sock], [], [], 0)[0] for sock in sockets)
        for sock in sockets:
            sock.close()
    rounds = len(range(0, POLL_MOVES, POLL_BLOCK))
    return {"alone": alone, "beside": beside, "polls": polls, "still_held": still_held / rounds}


def report(live: dict, polls: dict) -> None:
    """Print the figures as a small table."""
    ms = 1000
    seen, post, base = live["seen"], live["post"], live["baseline"]
    pages = ", ".join(page for page, _ in PAGE_SHARES)
    print(
        f"{live['viewers']} live viewers ({pages}; {' and '.join(LANGS)}) on one `companion serve`,"
        f" {live['moves']} moves one a second; {polls['polls']} held device polls"
    )
    print(f"{'measure':52} {'ratio':>6}   raw")
    label = "move -> seen p50, every viewer and move"
    print(f"{label:52} {'':>6}   {statistics.median(seen) * ms:.0f} ms")
    print(
        f"{'move -> seen p99':52} {'':>6}   {percentile(seen, 99) * ms:.0f} ms"
        f" (target <= {TARGET_SEEN_P99_MS} ms; max {max(seen) * ms:.0f} ms)"
    )
    rows = [
        (
            "move POST p50, viewers / nobody watching",
            statistics.median(post),
            statistics.median(base),
        ),
        ("move POST p99, viewers / nobody watching", percentile(post, 99), percentile(base, 99)),
        (
            f"move p50, {polls['polls']} polls held on another table / none",
            statistics.median(polls["beside"]),
            statistics.median(polls["alone"]),
        ),
        (
            f"move p99, {polls['polls']} polls held on another table / none",
            percentile(polls["beside"], 99),
            percentile(polls["alone"], 99),
        ),
    ]
    for label, value, baseline in rows:
        raw = f"{value * ms:.1f} vs {baseline * ms:.1f} ms"
        print(f"{label:52} {value / baseline:6.2f}   {raw}")
    print(f"{'errors (failed or ended streams, missed versions)':52} {live['errors']:>6}")
    held = f"{polls['still_held']:.0f}"
    print(
        f"{'polls still held after the moves (mean of blocks)':52} {held:>6}   of {polls['polls']}"
    )
    if live["error_kinds"]:
        print("first errors:", *live["error_kinds"])


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark (or, with --watch, be the viewers' process)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=VIEWERS)
    parser.add_argument("--moves", type=int, default=MOVES)
    parser.add_argument("--polls", type=int, default=POLLS)
    parser.add_argument("--watch", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.watch:
        port, table_id, count = args.watch
        print(json.dumps(asyncio.run(viewers_main(int(port), table_id, int(count)))))
        return
    game = longest_game()
    with tempfile.TemporaryDirectory() as instance, open(Path(instance) / "serve.log", "wb") as log:
        server, port = start_server(instance, log)
        try:
            live = live_figures(port, game, args.viewers, args.moves)
            polls = poll_figures(port, game, args.polls)
        finally:
            server.terminate()
            server.wait()
    report(live, polls)


if __name__ == "__main__":
    main()
