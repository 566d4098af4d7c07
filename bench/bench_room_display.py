"""Benchmark: a club night: 20 tables in play, 200 live viewers, a quarter on the room display.

Run from the repository root:  .venv/bin/python -m bench.bench_room_display   (about 6 minutes)

Starts the real `companion serve` on a temporary instance with TABLES Razzia! tables, then
moves on them in turn, MOVES_PER_S moves a second (each table every 10 s by default), in
blocks of BLOCK taking turns: moves nobody watches; moves while VIEWERS live streams are open
(`/live/room?lang=...` for a quarter, the rest on the tables' pages, spread over the tables,
the four table pages and both languages) from a second process; and moves while only the
table pages' viewers are open (what the room adds to them). It reports:

- move -> seen: from sending a move's POST until a viewer has it: a table page's viewer
  when its update carries the move's version, a room viewer when the tile of that table
  shows that version; every move and every viewer following its table (all room viewers);
- the move POST's p50 and p99 with viewers, as a ratio to the same with nobody watching;
- what the room's viewers add: move -> seen on the table pages and the POST's p99 with them
  against the table pages' viewers alone, and the server's CPU time per move (Linux);
- errors: streams refused or ended, moves a viewer never saw.

Every figure is a ratio to a baseline of the same run, or, for move -> seen, an absolute
time next to its target (bench/README.md).
"""

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_viewers import HOST, START_TIMEOUT_S, Table, percentile, start_server
from bench.longest_game import longest_game

REPO = Path(__file__).resolve().parents[1]
TABLES = 20
VIEWERS = 200
#: One viewer in ROOM_EVERY is on the room display.
ROOM_EVERY = 4
MOVES = 120
MOVES_PER_S = 2.0
#: Moves in a row before switching between watched and not watched.
BLOCK = 20
#: The pages a table's viewers open, one after another (6 in 10 on the table page).
PAGE_ORDER = ("table", "history", "table", "device", "table", "results", "table", "history")
PAGE_ORDER += ("table", "table")
LANGS = ("cs", "en")
#: After the last move of a block, how long viewers may take to see it before it is missed.
SETTLE_S = 3.0
TARGET_SEEN_P99_MS = 500
TARGET_POST_RATIO = 2.0
_VERSION = re.compile(rb'"version":"(\d+)\.')
_TILE = re.compile(rb'data-table=\\"(\w+)\\" data-version=\\"(\d+)\\"')


# -- the viewers (a process of their own) ----------------------------------------------------


def viewer_plan(tables: list[str], count: int) -> list[dict]:
    """What each viewer follows: the room (every ROOM_EVERY-th), else a page of a table.

    Room viewers alternate languages. The others go round the tables; a table's n-th viewer
    takes the n-th page of PAGE_ORDER (phones mostly on the table page), languages changing
    every second viewer: 7-8 viewers in 5-6 groups per table.
    """
    plan = []
    for index in range(count):
        if index % ROOM_EVERY == 0:
            lang = LANGS[(index // ROOM_EVERY) % len(LANGS)]
            plan.append({"path": f"/live/room?lang={lang}", "table": None})
            continue
        other = index - index // ROOM_EVERY - 1  # the viewer's number among table viewers
        seat, rank = other % len(tables), other // len(tables)
        page = PAGE_ORDER[rank % len(PAGE_ORDER)]
        lang = LANGS[(rank // 2 + seat) % len(LANGS)]
        path = f"/live/tables/{tables[seat]}?page={page}&lang={lang}"
        plan.append({"path": path, "table": tables[seat]})
    return plan


def note_update(event: bytes, table: str | None, seen: dict) -> None:
    """Note when this viewer first had each (table, version) an update event shows."""
    now = time.monotonic()
    if table is not None:
        found = _VERSION.search(event, 0, 200)
        seen.setdefault(table, {}).setdefault(int(found.group(1)), now)
        return
    for shown, version in _TILE.findall(event):
        seen.setdefault(shown.decode(), {}).setdefault(int(version), now)


async def watch(port: int, spec: dict, seen: dict, ready) -> None:
    """One viewer: open the stream as EventSource does and note every update's arrival."""
    reader, writer = await asyncio.open_connection(HOST, port)
    request = (
        f"GET {spec['path']} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/event-stream\r\n"
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
                # The room sends a move's tile alone, as a part (issue 33 item 6).
                if event.startswith((b"event: update", b"event: part")):
                    note_update(event, spec["table"], seen)
                    if not ready.done():
                        ready.set_result(None)
    finally:
        writer.close()


async def viewers_main(port: int, plan: list[dict]) -> dict:
    """Open every planned viewer, say "ready", then watch until "stop" arrives on stdin."""
    seen = [dict() for _ in plan]
    loop = asyncio.get_running_loop()
    readies = [loop.create_future() for _ in plan]
    tasks = [
        asyncio.create_task(watch(port, spec, seen[i], readies[i])) for i, spec in enumerate(plan)
    ]
    await asyncio.wait(readies, timeout=START_TIMEOUT_S)
    print(f"ready {sum(r.done() for r in readies)}", flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop"
    errors = [repr(task.exception()) for task in tasks if task.done() and task.exception()]
    ended_early = sum(task.done() and not task.exception() for task in tasks)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"seen": seen, "errors": errors, "ended_early": ended_early}


def run_viewers(port: int, plan: list[dict]) -> subprocess.Popen:
    """The viewers' process, once every viewer has its first page."""
    command = [sys.executable, "-m", "bench.bench_room_display", "--watch", str(port)]
    process = subprocess.Popen(
        command, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    process.stdin.write(json.dumps(plan) + "\n")
    process.stdin.flush()
    line = process.stdout.readline().split()
    if line[:1] != ["ready"] or int(line[1]) != len(plan):
        process.kill()
        raise RuntimeError(f"only {line} of {len(plan)} viewers got their page")
    return process


# -- the moves and the figures ---------------------------------------------------------------


def cpu_seconds(pid: int) -> float | None:
    """The process's user + system CPU time so far (Linux /proc), or None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def paced_round_robin(tables: list[Table], first: int, count: int) -> list[tuple]:
    """`count` moves at MOVES_PER_S, table after table: (table id, version, sent, seconds)."""
    done = []
    start = time.monotonic()
    for index in range(count):
        time.sleep(max(0.0, start + index / MOVES_PER_S - time.monotonic()))
        table = tables[(first + index) % len(tables)]
        version, sent, elapsed = table.move()
        done.append((table.id, version, sent, elapsed))
    return done


def delays(done: list[tuple], plan: list[dict], result: dict) -> tuple[dict, int]:
    """Move -> seen of every viewer following each move's table, by kind; and the misses."""
    found: dict[str, list[float]] = {"room": [], "table": []}
    missed = 0
    for spec, seen in zip(plan, result["seen"], strict=True):
        kind = "room" if spec["table"] is None else "table"
        for table_id, version, sent, _ in done:
            if spec["table"] not in (None, table_id):
                continue
            later = [t for v, t in seen.get(table_id, {}).items() if int(v) >= version]
            if later:
                found[kind].append(min(later) - sent)
            else:
                missed += 1
    return found, missed


def watched_block(port: int, tables: list[Table], plan: list[dict], first: int, pid: int) -> dict:
    """BLOCK paced moves while the planned viewers watch; the server's CPU time from the
    first move to the end of the settling time (not the viewers' first pages)."""
    watching = run_viewers(port, plan)
    before = cpu_seconds(pid)
    done = paced_round_robin(tables, first, BLOCK)
    time.sleep(SETTLE_S)
    after = cpu_seconds(pid)
    report, _ = watching.communicate("stop\n", timeout=START_TIMEOUT_S)
    result = json.loads(report)
    found, missed = delays(done, plan, result)
    return {
        **found,
        "post": [elapsed for *_, elapsed in done],
        "cpu": 0.0 if before is None else after - before,
        "errors": len(result["errors"]) + result["ended_early"] + missed,
        "error_kinds": result["errors"][:3],
    }


def club_night(port: int, server_pid: int, viewers: int, moves: int) -> dict:
    """Blocks in turn: moves nobody watches, moves every viewer watches, and moves only the
    table pages' viewers watch (what the room adds on top of them)."""
    game = longest_game()
    tables = [Table(port, game) for _ in range(TABLES)]
    for table in tables:
        table.move()  # the deal; also warms up imports, caches and renders
    everyone = viewer_plan([table.id for table in tables], viewers)
    plans = {"full": everyone, "tables": [spec for spec in everyone if spec["table"]]}
    figures: dict = {"errors": 0, "error_kinds": [], "viewers": viewers}
    for kind in ("alone", *plans):
        figures[kind] = {"room": [], "table": [], "post": [], "cpu": 0.0}
    offset = 0  # moves made so far: the next block starts at the table after the last one
    for _cycle in range(0, moves, BLOCK):
        for kind in ("alone", *plans):
            if kind == "alone":
                before = cpu_seconds(server_pid)
                done = paced_round_robin(tables, offset, BLOCK)
                time.sleep(SETTLE_S)  # as long as a watched block's CPU time is counted
                after = cpu_seconds(server_pid)
                found = {"post": [elapsed for *_, elapsed in done], "errors": 0}
                found |= {"error_kinds": [], "cpu": 0.0 if before is None else after - before}
            else:
                found = watched_block(port, tables, plans[kind], offset, server_pid)
            for key in ("room", "table", "post"):
                figures[kind][key] += found.get(key, [])
            figures["errors"] += found["errors"]
            figures["error_kinds"] += found["error_kinds"]
            figures[kind]["cpu"] += found["cpu"]
            offset += BLOCK
    return figures


def _ms(samples: list[float], pct: float) -> float:
    """The pct-th percentile in milliseconds."""
    return percentile(samples, pct) * 1000


def report(figures: dict) -> None:
    """Print the figures as a small table."""
    full, tables, alone = figures["full"], figures["tables"], figures["alone"]
    moves = len(alone["post"])
    rooms = len(range(0, figures["viewers"], ROOM_EVERY))
    print(
        f"{TABLES} tables in play, {figures['viewers']} live viewers ({rooms} on /room, the rest"
        f" on the tables' pages; cs and en) on one `companion serve`; {MOVES_PER_S:g} moves a"
        f" second, {moves} watched by everyone, {moves} by the table pages only, {moves} by"
        " nobody"
    )
    print(f"{'measure':56} {'ratio':>6}   raw")
    seen = full["room"] + full["table"]
    for label, samples in (
        ("every viewer", seen),
        ("room", full["room"]),
        ("tables", full["table"]),
    ):
        print(
            f"{'move -> seen p50 / p99, ' + label:56} {'':>6}   "
            f"{_ms(samples, 50):.0f} / {_ms(samples, 99):.0f} ms"
            f" (max {max(samples) * 1000:.0f} ms; {len(samples)} samples)"
        )
    print(f"{'':56} {'':>6}   target: p99 <= {TARGET_SEEN_P99_MS} ms")
    rows = [
        ("move POST p50, every viewer / nobody watching", full["post"], alone["post"], 50),
        ("move POST p99, every viewer / nobody watching", full["post"], alone["post"], 99),
    ]
    for label, watched, baseline, pct in rows:
        value, base = _ms(watched, pct), _ms(baseline, pct)
        print(f"{label:56} {value / base:6.2f}   {value:.1f} vs {base:.1f} ms")
    print(f"{'':56} {'':>6}   target: p99 ratio <= {TARGET_POST_RATIO:g}")
    print("what the room adds to the table pages' viewers alone:")
    rows = [
        ("  move -> seen p99 on table pages, with / without", full["table"], tables["table"], 99),
        ("  move POST p99, with / without", full["post"], tables["post"], 99),
    ]
    for label, watched, baseline, pct in rows:
        value, base = _ms(watched, pct), _ms(baseline, pct)
        print(f"{label:56} {value / base:6.2f}   {value:.1f} vs {base:.1f} ms")
    if alone["cpu"]:
        per_move = {
            kind: figures[kind]["cpu"] / moves * 1000 for kind in ("full", "tables", "alone")
        }
        print(
            f"{'server CPU per move, every viewer / table pages only':56}"
            f" {per_move['full'] / per_move['tables']:6.2f}"
            f"   {per_move['full']:.1f} vs {per_move['tables']:.1f} ms"
            f" (nobody watching: {per_move['alone']:.1f})"
        )
    print(f"{'errors (failed or ended streams, missed moves)':56} {figures['errors']:>6}")
    if figures["error_kinds"]:
        print("first errors:", *figures["error_kinds"][:3])


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark (or, with --watch, be the viewers' process)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=VIEWERS)
    parser.add_argument("--moves", type=int, default=MOVES)
    parser.add_argument("--watch", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.watch:
        plan = json.loads(sys.stdin.readline())
        print(json.dumps(asyncio.run(viewers_main(int(args.watch), plan))))
        return
    with tempfile.TemporaryDirectory() as instance, open(Path(instance) / "serve.log", "wb") as log:
        server, port = start_server(instance, log)
        try:
            figures = club_night(port, server.pid, args.viewers, args.moves)
        finally:
            server.terminate()
            server.wait()
    report(figures)


if __name__ == "__main__":
    main()
