"""Benchmark: many addresses holding idle sockets against the devices a table needs (issue 33,
item 3), before and after, in one run.

Run from the repository root:  .venv/bin/python -m bench.bench_admission   (about 3-6 minutes)

Starts the real `companion serve` twice (bench_room.Server: the code at BEFORE, checked out
with `git archive`, and this tree; loopback counted as the LAN, so 127.x addresses stand for
phones). 150 addresses (127.1.0.1-150) each open 28 idle sockets (4,200: more than the
3,000 connections the server holds) and keep them open, reopening every one the server
closes. Each of ROUNDS rounds tops the attacker's sockets up, then asks, each once with
REQUEST_TIMEOUT_S: the table page from a phone holding this table's scorer cookie, the same
page from a scorer of another table, and from a phone nobody knows; the host's move
(its edit key); the bridge's read of the box's view (the device key). A probe succeeds on
200. Printed: successes / rounds for each, before and after.
"""

import argparse
import json
import resource
import socket
import tempfile
import time
from pathlib import Path

from bench.bench_room import REPO, Server, request, tree_of
from bench.longest_game import PLAYERS as LONG_GAME_PLAYERS
from bench.longest_game import longest_game

#: main before item 3 (items 1, 2, 4, 10 merged).
BEFORE = "f1affbf"
ADDRESSES = 150
SOCKETS_PER_ADDRESS = 28
ROUNDS = 20
REQUEST_TIMEOUT_S = 5.0
TOP_UP_SETTLE_S = 0.3
HOST_ADDRESS, SCORER, OTHER_SCORER, STRANGER, BRIDGE = (
    "127.0.0.5",
    "127.0.0.3",
    "127.0.0.7",
    "127.0.0.6",
    "127.0.0.4",
)
PROBES = ("scorer's page", "other table's scorer", "unknown phone", "host's move", "bridge")


def attacker(n: int) -> str:
    """The n-th attacking address (0-based)."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


def open_idle(port: int, source: str) -> socket.socket:
    """A connection from `source` that never sends anything (non-blocking)."""
    sock = socket.socket()
    sock.setblocking(False)
    sock.bind((source, 0))
    sock.connect_ex(("127.0.0.1", port))
    return sock


def gone(sock: socket.socket) -> bool:
    """True once the server closed, reset or answered the socket (never waits)."""
    try:
        sock.recv(65536, socket.MSG_DONTWAIT)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True  # an answer (the 503 of a socket pushed out) or the end of the stream


def top_up(port: int, held: list[socket.socket | None]) -> int:
    """Reopen every attacker socket the server closed: how many were reopened."""
    reopened = 0
    for slot, sock in enumerate(held):
        if sock is None or gone(sock):
            if sock is not None:
                sock.close()
            held[slot] = open_idle(port, attacker(slot // SOCKETS_PER_ADDRESS))
            reopened += 1
    return reopened


def cookie_of(answer_headers: dict) -> str:
    """The `session=...` pair of a Set-Cookie header."""
    for name, value in answer_headers.items():
        if name.lower() == "set-cookie":
            return value.split(";", 1)[0]
    raise RuntimeError("no session cookie was set")


def probe(port: int, why: dict, name: str, *args) -> int:
    """One request of probe `name`: 1 if answered 200 within REQUEST_TIMEOUT_S, else 0 (and
    `why` counts its status, or the error's name)."""
    try:
        status = request(port, *args, timeout=REQUEST_TIMEOUT_S)[0]
    except OSError as error:
        status = type(error).__name__
    if status != 200:
        why[f"{name}: {status}"] = why.get(f"{name}: {status}", 0) + 1
    return int(status == 200)


def measure(tree: Path, instance: Path, game: list[dict]) -> dict:
    """Successes per probe over ROUNDS rounds under the idle-socket crowd."""
    server = Server(tree, instance)
    held: list[socket.socket | None] = [None] * (ADDRESSES * SOCKETS_PER_ADDRESS)
    try:
        port = server.port
        device = {"Authorization": f"Bearer {server.device_key()}"}
        made = [
            json.loads(
                request(
                    port,
                    "POST",
                    "/api/tables",
                    {"game": "razzia", "players": LONG_GAME_PLAYERS},
                    HOST_ADDRESS,
                )[2]
            )
            for _ in range(2)
        ]
        table, other = made
        page = f"/tables/{table['id']}"
        cookies = {}
        for source, joined in ((SCORER, table), (OTHER_SCORER, other)):
            path = f"/tables/{joined['id']}/join/{joined['scorer_key']}"
            cookies[source] = cookie_of(request(port, "POST", path, None, source)[1])
        edit = {"Authorization": f"Bearer {table['edit_key']}"}
        version, wins, reopened, why = 0, dict.fromkeys(PROBES, 0), 0, {}
        for _ in range(ROUNDS):
            reopened += top_up(port, held)
            time.sleep(TOP_UP_SETTLE_S)
            asked = {
                "scorer's page": ("GET", page, None, SCORER, {"Cookie": cookies[SCORER]}),
                "other table's scorer": (
                    "GET",
                    page,
                    None,
                    OTHER_SCORER,
                    {"Cookie": cookies[OTHER_SCORER]},
                ),
                "unknown phone": ("GET", page, None, STRANGER),
                "host's move": (
                    "POST",
                    f"/api/tables/{table['id']}/moves",
                    {"version": version, "move": game[version]},
                    HOST_ADDRESS,
                    edit,
                ),
                "bridge": ("GET", "/api/device", None, BRIDGE, device),
            }
            for name, args in asked.items():
                wins[name] += probe(port, why, name, *args)
            version = wins["host's move"]  # the next move once this one was made
        return {"wins": wins, "reopened": reopened, "why": why}
    finally:
        for sock in held:
            if sock is not None:
                sock.close()
        server.stop()


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help="the commit measured as before")
    args = parser.parse_args(argv)
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
        f"many addresses: {ADDRESSES} x {SOCKETS_PER_ADDRESS} idle sockets, {ROUNDS} rounds; "
        f"before = {args.before}, after = this tree"
    )
    print(f"{'answered 200 / rounds':40} {'before':>10} {'after':>10}")
    for name in PROBES:
        old, new = before["wins"][name] / ROUNDS, after["wins"][name] / ROUNDS
        print(f"{name:40} {old:>10.2f} {new:>10.2f}")
    print(f"{'attacker sockets reopened':40} {before['reopened']:>10} {after['reopened']:>10}")
    print(f"why the others failed: before {before['why']}, after {after['why']}")


if __name__ == "__main__":
    main()
