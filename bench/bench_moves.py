"""Benchmark: POST-move throughput and latency vs a bare Flask route, and move cost vs game length.

Run from the repository root:  .venv/bin/python -m bench.bench_moves
Everything is printed as ratios measured in the same run, so the numbers compare across
machines; see bench/README.md for what each ratio means.
"""

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.longest_game import PLAYERS, longest_game

REPO = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
NOOP_PATH = "/bench/noop"
#: Concurrent keep-alive clients in the throughput runs (the server has 8 threads).
CLIENTS = 4
#: Requests sent and thrown away before measuring (imports, caches, connection set-up).
WARMUP = 50
#: Moves at each end of the long game compared for the "flat cost" ratio.
WINDOW = 50
#: Long games played per measurement; each move's time is the median over the repeats.
REPEATS = 3
START_TIMEOUT_S = 20.0
POLL_S = 0.05


def serve(port: int, instance: str) -> None:
    """The benchmark server: the real app plus a trivial POST route, served as `serve` does."""
    from flask import request

    from companion_app import create_app
    from companion_app.server import rights
    from companion_app.server.asgi import Front
    from companion_app.server.serve import DEFAULT_THREADS, bind_socket, make_server

    app = create_app(instance_path=instance)

    def noop() -> dict:
        """Parse the JSON body and answer a small object, like a move minus the work."""
        return {"ok": isinstance(request.get_json(), dict)}

    app.add_url_rule(NOOP_PATH, "bench_noop", noop, methods=["POST"])
    rights.declare(app, "bench_noop", rights.OPEN)  # a write anyone may make, like /lang
    make_server(Front(app, DEFAULT_THREADS)).run(sockets=[bind_socket(HOST, port)])


def start_server(instance: str) -> tuple[subprocess.Popen, int]:
    """Start the benchmark server on a free port and wait until it answers."""
    import socket

    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "bench.bench_moves", "--serve", str(port), instance]
    server = subprocess.Popen(command, cwd=REPO)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            Client(port).post(NOOP_PATH, {})
            return server, port
        except OSError:
            time.sleep(POLL_S)
    server.kill()
    raise RuntimeError("the benchmark server did not start")


class Client:
    """One keep-alive HTTP connection that posts JSON and times each request."""

    def __init__(self, port: int) -> None:
        """Open (lazily) a connection to the benchmark server on `port`."""
        self.connection = http.client.HTTPConnection(HOST, port, timeout=START_TIMEOUT_S)

    def post(self, path: str, body: object) -> tuple[float, dict]:
        """POST `body`; (seconds taken, JSON answer). Any non-2xx status is a bench bug."""
        data = json.dumps(body)
        started = time.perf_counter()
        self.connection.request("POST", path, data, {"Content-Type": "application/json"})
        response = self.connection.getresponse()
        answer = json.loads(response.read())
        elapsed = time.perf_counter() - started
        if response.status >= 300:
            raise RuntimeError(f"{path} answered {response.status}: {answer}")
        return elapsed, answer


def noop_run(port: int, count: int) -> list[float]:
    """Latencies of `count` trivial POSTs on one connection."""
    client = Client(port)
    return [client.post(NOOP_PATH, {"version": 0, "move": {}})[0] for _ in range(count)]


def game_run(port: int, game: list[dict]) -> list[float]:
    """Latencies of every move of `game`, posted in order on a fresh table."""
    client = Client(port)
    _, table = client.post("/api/tables", {"game": "razzia", "players": PLAYERS})
    path = f"/api/tables/{table['id']}/moves"
    return [client.post(path, {"version": v, "move": m})[0] for v, m in enumerate(game)]


def throughput(run, *args) -> float:
    """Requests per second with CLIENTS connections each doing `run(port, *args)`."""
    results: list[list[float]] = []
    threads = [threading.Thread(target=lambda: results.append(run(*args))) for _ in range(CLIENTS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(len(r) for r in results) / (time.perf_counter() - started)


def per_move_median(runs: list[list[float]]) -> list[float]:
    """For each move of the game, its median time over the runs."""
    return [statistics.median(times) for times in zip(*runs, strict=True)]


def ends(times: list[float]) -> tuple[float, float]:
    """Median time of the last WINDOW moves and of the first WINDOW after the deal."""
    return statistics.median(times[-WINDOW:]), statistics.median(times[1 : WINDOW + 1])


def percentile(samples: list[float], pct: int) -> float:
    """The pct-th percentile of `samples`."""
    return statistics.quantiles(samples, n=100)[pct - 1]


def http_figures(port: int, game: list[dict]) -> dict:
    """Latency percentiles and throughput for moves and for the bare route."""
    noop_run(port, WARMUP)
    game_run(port, game[:WARMUP])
    noop = noop_run(port, len(game) * REPEATS)
    moves = per_move_median([game_run(port, game) for _ in range(REPEATS)])
    return {
        "p50": (percentile(moves, 50), percentile(noop, 50)),
        "p99": (percentile(moves, 99), percentile(noop, 99)),
        "throughput": (throughput(game_run, port, game), throughput(noop_run, port, len(game))),
        "ends": ends(moves),
    }


def _timed_game(game: list[dict], fresh_store_each_move: bool = False) -> list[float]:
    """Seconds per store.apply_move over the whole game on a new table."""
    from companion_app.store import Store, get_store

    table = get_store().create_table("razzia", {"players": PLAYERS})
    times = []
    for version, move in enumerate(game):
        store = Store() if fresh_store_each_move else get_store()  # a new Store: empty cache
        started = time.perf_counter()
        store.apply_move(table.id, move, version)
        times.append(time.perf_counter() - started)
    return times


def snapshot_sizes(game: list[dict]) -> tuple[float, float]:
    """Stored state size (bytes, median) over the last vs the first WINDOW moves."""
    from scoring import razzia

    state, sizes = razzia.new_table({"players": PLAYERS}), []
    for move in game:
        state = razzia.apply(state, move)
        sizes.append(len(json.dumps(state, separators=(",", ":"))))
    return ends(sizes)


def store_figures(game: list[dict]) -> dict:
    """In-process store cost of a move late vs early in the long game, warm and cold cache."""
    from companion_app import create_app
    from companion_app.store import get_store

    with tempfile.TemporaryDirectory() as instance:
        with create_app(instance_path=instance).app_context():
            _timed_game(game[:WARMUP])
            warm = per_move_median([_timed_game(game, False) for _ in range(REPEATS)])
            cold = per_move_median([_timed_game(game, True) for _ in range(REPEATS)])
            table_id = get_store().list_tables()[0].id
            started = time.perf_counter()
            get_store().replay(table_id)
            replay = time.perf_counter() - started
    return {
        "size": snapshot_sizes(game),
        "warm": ends(warm),
        "cold": ends(cold),
        "replay": replay,
    }


def report(game: list[dict], web: dict, store: dict) -> None:
    """Print the figures as a small table of ratios with the raw times beside them."""
    ms = 1000
    print(f"Long game: {len(game)} moves, 3 rounds, {len(PLAYERS)} players; server: uvicorn")
    print(f"{'measure':44} {'ratio':>7}   {'raw':>24}")
    rows = [
        ("move p50 latency / bare route p50", *web["p50"], "ms"),
        ("move p99 latency / bare route p99", *web["p99"], "ms"),
        (f"move throughput / bare route ({CLIENTS} clients)", *web["throughput"], "req/s"),
        (f"HTTP move, last {WINDOW} / first {WINDOW} of long game", *web["ends"], "ms"),
        ("store move, end / start of long game (warm)", *store["warm"], "ms"),
        ("store move, end / start of long game (cold)", *store["cold"], "ms"),
        ("state snapshot size, end / start", *store["size"], "B"),
    ]
    for label, value, base, unit in rows:
        scale = ms if unit == "ms" else 1
        digits = 2 if unit == "ms" else 0
        raw = f"{value * scale:.{digits}f} vs {base * scale:.{digits}f} {unit}"
        print(f"{label:44} {value / base:7.2f}   {raw:>24}")
    warm_move = store["warm"][0]
    print(
        f"{'full replay of the long game / one move':44} {store['replay'] / warm_move:7.1f}"
        f"   {store['replay'] * ms:>18.2f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    """Run every measurement and print the table (or, with --serve, be the server)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "INSTANCE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
        return
    game = longest_game()
    with tempfile.TemporaryDirectory() as instance:
        server, port = start_server(instance)
        try:
            web = http_figures(port, game)
        finally:
            server.terminate()
            server.wait()
    report(game, web, store_figures(game))


if __name__ == "__main__":
    main()
