"""Benchmark: how fast a restarted `companion device run` heals the box (issue 34, item 5).

Run from the repository root:  .venv/bin/python -m bench.bench_bridge_start [--before REV]
Prints, as ratios to a bare `python -c pass` measured in the same run (see bench/README.md):
  parse: what `device run` imports before its bridge starts (the CLI, its parser, the bridge);
  first HELLO: launch -> the new process's first HELLO on the port (a pty read here);
  heal: `kill -9` of a running bridge, the table changed meanwhile, launch -> the simulated
    box's LEDs show the change (the issue's bound is 3 s);
and with --before REV the same for the tree at git revision REV, and new/old ratios: the
runs alternate between the two trees so a busy machine weighs on both alike.
"""

import argparse
import os
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

from companion_app.simulator.box import Simulator
from tests.device.liveapp import LiveApp, Razzia, wait_until
from tests.device.play import shows_view

REPO = Path(__file__).resolve().parents[1]
RUNS = 7
WAIT_S = 60.0  # a launch on a busy machine; past this the run is reported as failed
#: What `device run` imports before its bridge starts: its parser (the whole CLI's before
#: issue 34, the device commands' since), the bridge and its status reporter.
PARSE = (
    "from companion_app import cli\n"
    "parse = getattr(cli, 'bridge_parser', cli.build_parser)\n"
    "parse().parse_args(['device', 'run'])\n"
    "import companion_app.bridge.driver, companion_app.bridge.remote"
)


def median_ms(samples):
    """The median of seconds, in ms."""
    return 1000 * statistics.median(samples)


def launch(tree, *args):
    """`python -m companion_app.cli ARGS` from `tree`, quiet."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.Popen(
        [sys.executable, "-m", "companion_app.cli", *args],
        cwd=tree,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wall(tree, code):
    """Seconds a `python -c code` takes from `tree`."""
    started = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, check=True)
    return time.monotonic() - started


def first_hello(tree, url):
    """Launch -> the first HELLO the new bridge writes to a pty; seconds."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    started = time.monotonic()
    proc = launch(tree, "device", "run", "--port", path, "--app", url)
    seen = b""
    try:
        while b"HELLO" not in seen:
            if time.monotonic() - started > WAIT_S:
                raise RuntimeError("no HELLO")
            ready, _, _ = select.select([master], [], [], 0.01)
            if ready:
                seen += os.read(master, 4096)
        return time.monotonic() - started
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
        os.close(slave)


def shown(sim, game):
    """True once the simulated box shows what the app says now."""
    view = game.device()
    return wait_until(lambda: shows_view(sim.leds(), view), WAIT_S)


def change(live, game):
    """A change the box must show: arm a reveal for every seat, or disarm the one armed."""
    if game.device()["reveal"] is None:
        game.arm([0, 1, 2, 3])
    else:
        live.ok("DELETE", f"/api/tables/{game.id}/reveal")


def heal(tree, live, sim, game):
    """kill -9 of a bridge that shows the table, a change meanwhile, a new bridge launched ->
    the box shows the change; seconds from the launch."""
    old = launch(tree, "device", "run", "--port", sim.path, "--app", live.url)
    try:
        if not shown(sim, game):
            raise RuntimeError("the first bridge never showed the table")
    finally:
        old.send_signal(signal.SIGKILL)
        old.wait()
    change(live, game)
    started = time.monotonic()
    new = launch(tree, "device", "run", "--port", sim.path, "--app", live.url)
    try:
        if not shown(sim, game):
            raise RuntimeError("the new bridge never showed the table")
        return time.monotonic() - started
    finally:
        new.send_signal(signal.SIGKILL)
        new.wait()


def old_tree(rev, folder):
    """The repository at `rev`, unpacked into `folder` (git archive)."""
    archive = subprocess.run(
        ["git", "archive", rev], cwd=REPO, check=True, capture_output=True
    ).stdout
    folder.mkdir()
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main():
    """Measure the trees in turn; print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", help="git revision to compare with (e.g. main)")
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        trees = {"new": REPO}
        if args.before:
            trees["old"] = old_tree(args.before, Path(scratch) / "old")
        live = LiveApp(Path(scratch) / "instance")
        sim = Simulator().start()
        figures = {name: {"bare": [], "parse": [], "hello": [], "heal": []} for name in trees}
        try:
            game = Razzia(live)
            game.draw_police()
            for _ in range(args.runs):
                for name, tree in trees.items():
                    row = figures[name]
                    row["bare"].append(wall(tree, "pass"))
                    row["parse"].append(wall(tree, PARSE))
                    row["hello"].append(first_hello(tree, live.url))
                    row["heal"].append(heal(tree, live, sim, game))
        finally:
            sim.stop()
            live.close()
    report(figures)


def report(figures):
    """One line per figure and tree, and new/old when both ran."""
    print(f"{'figure':36} {'tree':>4} {'ratio':>8} {'median':>10}")
    for name, row in figures.items():
        bare = statistics.median(row["bare"])
        for key, label in (
            ("parse", "imports of device run / bare python"),
            ("hello", "launch -> first HELLO / bare python"),
            ("heal", "kill -9 restart heal / bare python"),
        ):
            print(
                f"{label:36} {name:>4} {statistics.median(row[key]) / bare:8.2f}"
                f" {median_ms(row[key]):8.0f} ms"
            )
        print(f"{'bare python -c pass':36} {name:>4} {1.0:8.2f} {bare * 1000:8.0f} ms")
    if len(figures) == 2:
        for key in ("parse", "hello", "heal"):
            ratio = statistics.median(figures["new"][key]) / statistics.median(figures["old"][key])
            print(f"{key + ' new / old':36} {'':>4} {ratio:8.2f}")


if __name__ == "__main__":
    main()
