"""Benchmark: a convention on one machine: 100 tables, up to 2,000 live viewers, 50 on /room.

Run from the repository root:
    .venv/bin/python -m bench.bench_convention                       # the full size, ~6 min
    .venv/bin/python -m bench.bench_convention --viewers 300 --seconds 30   # a short run

Starts the real `companion serve` twice on temporary instances, the same load each time,
and prints the second against the first (bench/README.md):
  - with `--workers N` (default: every core) the first server has one worker and the second N;
  - on a 1-core machine (or `--workers 1`) the first has a small room (a tenth of the viewers)
    and the second the full one.
Each run: TABLES Razzia! tables made from their own loopback addresses; VIEWERS live streams
from a second process, ROOM of them on /live/room and the rest spread over the tables' pages
(table, history, box, results; cs and en), at most PER_ADDRESS per address (127.0.x.y aliases
stand for phones); each table moves every 5-20 s, and halfway through every table moves at
once (the burst). It prints move -> seen p50/p99 (steady and burst), the move POSTs' p99,
missed moves, errors, 503s and the server's CPU. COMPANION_LOCAL_IS_HOST=0, so the aliases
count as LAN devices with their shares, not as this computer.
"""

import argparse
import asyncio
import http.client
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.bench_viewers import free_port, percentile
from bench.longest_game import PLAYERS, longest_game

REPO = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
TABLES = 100
VIEWERS = 2000
ROOM = 50
PER_ADDRESS = 8
#: Tables one /room page shows (web/room.py's ROOM_PAGE_TABLES; issue 33 item 5).
ROOM_PAGE = 24
SECONDS = 120
#: Seconds between two moves at a table, drawn uniformly.
MOVE_EVERY_S = (5.0, 20.0)
#: Steady moves sent this soon after the burst are left out of the steady figures.
BURST_SHADOW_S = 5.0
#: After the last move, how long viewers may still take to see it before it counts as missed.
SETTLE_S = 5.0
START_TIMEOUT_S = 60.0
PAGE_SHARES = (("table", 6), ("history", 2), ("device", 1), ("results", 1))
LANGS = ("cs", "en")
TARGETS = {"steady": 500, "burst": 1500, "post": 250}
_VERSION = re.compile(rb'"version": ?"(\d+)\.')
_TILE = re.compile(rb'data-table=\\?"([A-Za-z0-9_-]+)\\?" data-version=\\?"(\d+)')


def alias(index: int, block: int = 0) -> str:
    """The index-th loopback alias of a block (127.0.<block*4 + n>.<2..251>)."""
    return f"127.0.{block * 4 + index // 250}.{2 + index % 250}"


def footprint(pid: int) -> tuple[float, int]:
    """(resident MB, open files) of `pid` and its children (Linux /proc; zeros elsewhere)."""
    megabytes, files = 0.0, 0
    if not os.path.isdir("/proc"):
        return megabytes, files
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                parent = stat.read().rpartition(")")[2].split()[1]
            if entry != str(pid) and parent != str(pid):
                continue
            with open(f"/proc/{entry}/status", encoding="ascii") as status:
                rss = next(line for line in status if line.startswith("VmRSS:"))
            megabytes += int(rss.split()[1]) / 1024
            files += len(os.listdir(f"/proc/{entry}/fd"))
        except (OSError, ValueError, IndexError, StopIteration):
            continue
    return megabytes, files


def cpu_seconds(pid: int) -> float:
    """User + system CPU of `pid` and its children so far (Linux /proc; 0 elsewhere)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in [str(pid), *os.listdir("/proc")] if os.path.isdir("/proc") else []:
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except (OSError, ValueError):
            continue
        if entry == str(pid) or fields[1] == str(pid):  # the server or one of its workers
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


# -- the server ------------------------------------------------------------------------------


def supports_workers() -> bool:
    """True if `companion serve` has --workers (issue 33 item 7)."""
    command = [sys.executable, "-m", "companion_app.cli", "serve", "--help"]
    help_text = subprocess.run(command, cwd=REPO, capture_output=True, text=True).stdout
    return "--workers" in help_text


def start_server(instance: str, workers: int | None, log) -> tuple[subprocess.Popen, int]:
    """`companion serve` (with `--workers` when given) on a free port; waits until it answers."""
    port = free_port()
    command = [sys.executable, "-m", "companion_app.cli", "serve", "--port", str(port)]
    command += ["--instance", instance]
    if workers is not None:
        command += ["--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": str(REPO), "COMPANION_LOCAL_IS_HOST": "0"}
    server = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            call(port, "GET", "/api/tables")
            return server, port
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError("companion serve did not start")


def call(port, method, path, body=None, key=None, source=HOST, connection=None):
    """(status, seconds, JSON answer) of one request (on `connection` when given)."""
    own = connection is None
    if own:
        connection = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    started = time.perf_counter()
    try:
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        raw = response.read()
    finally:
        if own:
            connection.close()
    elapsed = time.perf_counter() - started
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = {}
    return response.status, elapsed, answer


class Table:
    """A Razzia! table, made from its own address, played with the long game's moves."""

    def __init__(self, port: int, game: list[dict], index: int) -> None:
        """Create the table from the index-th alias (the creation share is per address)."""
        self.port, self.game = port, game
        body = {"game": "razzia", "players": PLAYERS}
        status, _, created = call(port, "POST", "/api/tables", body, source=alias(index, 2))
        if status != 201:
            raise RuntimeError(f"table {index}: {status} {created}")
        self.id, self.key, self.version = created["id"], created["edit_key"], created["version"]
        self.source = alias(index, 2)  # the table's own tablet moves it
        self.connection = self._connect()
        self.done: list[dict] = []

    def _connect(self) -> http.client.HTTPConnection:
        """A keep-alive connection from the table's tablet."""
        return http.client.HTTPConnection(
            HOST, self.port, timeout=30, source_address=(self.source, 0)
        )

    def move(self, kind: str) -> None:
        """Play the next move and note it: version, time sent, POST seconds, status."""
        body = {"version": self.version, "move": self.game[self.version]}
        sent = time.monotonic()
        path = f"/api/tables/{self.id}/moves"
        status, elapsed, answer = 0, 0.0, {}
        for _ in range(2):  # the server closes a keep-alive connection idle for 9.5 s
            try:
                status, elapsed, answer = call(
                    self.port, "POST", path, body, self.key, connection=self.connection
                )
                break
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = self._connect()
                elapsed = time.monotonic() - sent
        if status == 200:
            self.version = answer["version"]
        self.done.append(
            {"kind": kind, "version": self.version, "sent": sent, "post": elapsed, "status": status}
        )


def play(table: Table, start: float, stop: float, burst_at: float, rng: random.Random) -> None:
    """Move every 5-20 s until `stop`, and once at `burst_at` with every other table."""
    next_at = start + rng.uniform(*MOVE_EVERY_S)
    burst_done = False
    while True:
        due, kind = (
            (burst_at, "burst") if not burst_done and burst_at <= next_at else (next_at, "steady")
        )
        if due >= stop:
            return
        time.sleep(max(0.0, due - time.monotonic()))
        table.move(kind)
        if kind == "burst":
            burst_done = True
        else:
            next_at = time.monotonic() + rng.uniform(*MOVE_EVERY_S)


# -- the viewers (a process of their own) ----------------------------------------------------


def viewer_plan(tables: list[str], viewers: int, room: int) -> list[tuple[str, str, str, str]]:
    """(source address, path, key of what it follows, language) of each viewer."""
    slots = [page for page, share in PAGE_SHARES for _ in range(share)]
    plan = []
    for index in range(viewers):
        lang = LANGS[index % len(LANGS)]
        if index < room:  # the room's pages on as many screens (a page shows ROOM_PAGE tables)
            page = 1 + (index // len(LANGS)) % max(1, math.ceil(len(tables) / ROOM_PAGE))
            path = f"/live/room?lang={lang}&page={page}"
            plan.append((alias(index // PER_ADDRESS), path, "*room", lang))
            continue
        rest = index - room
        table = tables[rest % len(tables)]
        page = slots[(rest // len(tables)) % len(slots)]
        path = f"/live/tables/{table}?page={page}&lang={lang}"
        plan.append((alias(index // PER_ADDRESS), path, table, lang))
    return plan


async def watch(port, source, path, seen, refused, ready, parsed) -> None:
    """One viewer: open the stream as EventSource does; note when each version arrives."""
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/event-stream\r\n"
        "Cache-Control: no-cache\r\n\r\n"
    )
    writer.write(request.encode())
    room = path.startswith("/live/room")
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            refused.append(int(head.split()[1]))
            ready.set_result(None)
            return
        buffer = b""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                return  # the server ended the stream
            buffer += (await reader.readexactly(size + 2))[:-2]
            *events, buffer = buffer.split(b"\n\n")
            now = time.monotonic()
            for event in events:
                if not event.startswith(b"event:"):
                    continue
                if room:  # every room screen gets the same bytes: parse each event once
                    key = hash(event)
                    if key not in parsed:
                        parsed[key] = [(t.decode(), int(v)) for t, v in _TILE.findall(event)]
                    for table, version in parsed[key]:
                        seen.setdefault(f"{table}:{version}", now)
                else:
                    found = _VERSION.search(event, 0, 200)
                    if found:
                        seen.setdefault(found.group(1).decode(), now)
            if not ready.done():
                ready.set_result(None)
    finally:
        writer.close()


async def viewers_main(port: int, plan: list) -> dict:
    """Open every viewer of `plan`, say "ready", then watch until "stop" arrives on stdin."""
    seen = [dict() for _ in plan]
    refused: list[int] = []
    parsed: dict = {}
    loop = asyncio.get_running_loop()
    readies = [loop.create_future() for _ in plan]
    tasks = []
    for i, (source, path, _, _) in enumerate(plan):
        tasks.append(
            asyncio.create_task(watch(port, source, path, seen[i], refused, readies[i], parsed))
        )
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # phones arrive over a while, not in one SYN flood
    await asyncio.wait(readies, timeout=START_TIMEOUT_S)
    print(f"ready {sum(r.done() for r in readies)}", flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop"
    errors = [repr(task.exception()) for task in tasks if task.done() and task.exception()]
    ended = sum(task.done() and not task.exception() for task in tasks) - len(refused)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"seen": seen, "refused": refused, "errors": errors, "ended_early": ended}


# -- one run ---------------------------------------------------------------------------------


def run_once(workers, tables: int, viewers: int, room: int, seconds: float, seed: int) -> dict:
    """One server, one convention: the raw figures."""
    game = longest_game()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as instance, open(Path(instance) / "serve.log", "wb") as log:
        server, port = start_server(instance, workers, log)
        try:
            made = [Table(port, game, index) for index in range(tables)]
            for table in made[:3]:
                table.move("warm-up")  # imports, caches, the first renders
            plan = viewer_plan([t.id for t in made], viewers, room)
            command = [sys.executable, "-m", "bench.bench_convention", "--watch", str(port)]
            watching = subprocess.Popen(
                command, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            watching.stdin.write(json.dumps(plan) + "\n")
            watching.stdin.flush()
            ready = watching.stdout.readline().split()
            cpu_before = cpu_seconds(server.pid)
            start = time.monotonic()
            stop, burst_at = start + seconds, start + seconds / 2
            threads = [
                threading.Thread(
                    target=play, args=(t, start, stop, burst_at, random.Random(rng.random()))
                )
                for t in made
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            cpu = cpu_seconds(server.pid) - cpu_before
            memory, files = footprint(server.pid)
            wall = time.monotonic() - start
            time.sleep(SETTLE_S)
            out, _ = watching.communicate("stop\n", timeout=START_TIMEOUT_S)
            result = json.loads(out)
        finally:
            server.terminate()
            server.wait()
    return figures(made, plan, result, int(ready[1]) if ready[:1] == ["ready"] else 0, burst_at) | {
        "cpu": cpu / wall,
        "memory": memory,
        "files": files,
        "workers": workers or 1,
        "viewers": viewers,
    }


def figures(made: list[Table], plan: list, result: dict, ready: int, burst_at: float) -> dict:
    """move -> seen (steady, burst), POSTs, missed, errors and refusals of one run."""
    moves = {
        t.id: [m for m in t.done if m["kind"] != "warm-up" and m["status"] == 200] for t in made
    }
    seen = {"steady": [], "burst": []}
    on_room = {"steady": [], "burst": []}  # the part of `seen` the /room screens saw
    missed = 0
    for (_, _, followed, _), arrivals in zip(plan, result["seen"], strict=True):
        if not arrivals:
            continue  # refused or never opened: counted below
        if followed == "*room":
            got: dict[str, list[tuple[int, float]]] = {}
            for key, stamp in arrivals.items():
                table, _, version = key.rpartition(":")
                got.setdefault(table, []).append((int(version), stamp))
            # a room screen shows one page of tables: it owes the moves of those it showed
            pairs = [(m, got[t]) for t, done in moves.items() if t in got for m in done]
        else:
            mine = [(int(v), stamp) for v, stamp in arrivals.items()]
            pairs = [(m, mine) for m in moves[followed]]
        for move, arrived in pairs:
            later = [stamp for version, stamp in arrived if version >= move["version"]]
            if not later:
                missed += 1
                continue
            if move["kind"] == "steady" and burst_at <= move["sent"] < burst_at + BURST_SHADOW_S:
                continue
            seen[move["kind"]].append(max(0.0, min(later) - move["sent"]))
            if followed == "*room":
                on_room[move["kind"]].append(seen[move["kind"]][-1])
    done = [m for t in made for m in t.done if m["kind"] != "warm-up"]
    refused = result["refused"]
    return {
        "seen": seen,
        "on_room": on_room,
        "post": [m["post"] for m in done if m["status"] == 200],
        "moves": len(done),
        "post_503": sum(m["status"] == 503 for m in done),
        "post_errors": sum(m["status"] not in (200, 503) for m in done),
        "post_kinds": sorted({m["status"] for m in done} - {200}),
        "stream_503": sum(status == 503 for status in refused),
        "stream_other": sum(status != 503 for status in refused),
        "opened": ready - len(refused),
        "missed": missed,
        "errors": len(result["errors"]) + result["ended_early"],
        "error_kinds": result["errors"][:3],
    }


# -- the report ------------------------------------------------------------------------------


def report(
    base: dict, main_run: dict, label: tuple[str, str], tables: int, room: int, seconds: float
) -> None:
    """Print the second run against the first."""
    ms = 1000
    print(
        f"{tables} tables, a move every 5-20 s each and a burst of {tables} at once;"
        f" {room} viewers on /room, the rest on the tables' pages, <= {PER_ADDRESS} per address;"
        f" {seconds:.0f} s a run: {label[1]} against {label[0]}"
    )
    print(f"{'measure':46} {'ratio':>6}   {label[1]:>16}   {label[0]:>16}")

    def row(name, value, baseline, unit="ms", scale=ms, target=None):
        ratio = f"{value / baseline:6.2f}" if baseline else f"{'':6}"
        note = f"   (target <= {target} ms)" if target else ""
        print(
            f"{name:46} {ratio}   {value * scale:13.0f} {unit:2}"
            f"   {baseline * scale:13.0f} {unit:2}{note}"
        )

    for kind in ("steady", "burst"):
        a, b = main_run["seen"][kind], base["seen"][kind]
        row(f"move -> seen p50, {kind}", statistics.median(a or [0]), statistics.median(b or [0]))
        row(f"move -> seen p99, {kind}", percentile(a, 99), percentile(b, 99), target=TARGETS[kind])
        a, b = main_run["on_room"][kind], base["on_room"][kind]
        row(f"  of which on /room screens, p99, {kind}", percentile(a, 99), percentile(b, 99))
    row(
        "move POST p99",
        percentile(main_run["post"], 99),
        percentile(base["post"], 99),
        target=TARGETS["post"],
    )
    row("server CPU, % of one core", main_run["cpu"], base["cpu"], unit="%", scale=100)
    for name, key in (
        ("server memory, MB resident (all processes)", "memory"),
        ("server open files (all processes)", "files"),
        ("viewers streaming (of asked)", "opened"),
        ("streams refused 503", "stream_503"),
        ("streams refused otherwise", "stream_other"),
        ("moves sent", "moves"),
        ("move POSTs 503", "post_503"),
        ("move POSTs failed otherwise", "post_errors"),
        ("missed (a viewer never saw a move)", "missed"),
        ("errors (failed or ended streams)", "errors"),
    ):
        print(f"{name:46} {'':6}   {main_run[key]:16.0f}   {base[key]:16.0f}")
    print(
        f"samples: steady {len(main_run['seen']['steady'])}, burst {len(main_run['seen']['burst'])}"
    )
    for run in (base, main_run):
        if run["post_kinds"]:
            print("move POST statuses other than 200:", run["post_kinds"])
        if run["error_kinds"]:
            print("first errors:", *run["error_kinds"])


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark (or, with --watch, be the viewers' process)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--viewers", type=int, default=VIEWERS)
    parser.add_argument("--room", type=int, default=ROOM, help="viewers on /room (of --viewers)")
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--watch", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.watch:
        plan = json.loads(sys.stdin.readline())
        print(json.dumps(asyncio.run(viewers_main(int(args.watch), plan))))
        return
    room = min(args.room, args.viewers)
    size = (args.tables, args.viewers, room, args.seconds, args.seed)
    if args.workers > 1 and supports_workers():
        base = run_once(1, *size)
        main_run = run_once(args.workers, *size)
        label = ("1 worker", f"{args.workers} workers")
    else:
        small = max(args.viewers // 10, room)
        base = run_once(None, args.tables, small, room, args.seconds, args.seed)
        main_run = run_once(None, *size)
        label = (f"{small} viewers", f"{args.viewers} viewers")
    report(base, main_run, label, args.tables, room, args.seconds)


if __name__ == "__main__":
    main()
