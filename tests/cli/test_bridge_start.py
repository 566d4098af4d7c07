"""`companion device run` starts without the server's imports (issue 34, item 5).

A bridge restarted after a `kill -9` spent most of its 1.3-3.3 s before its first HELLO
importing Flask, the store and the server through the whole CLI parser, none of which a bridge
uses; bench/bench_bridge_start.py measures the start. Here: what the running bridge imported.
"""

import subprocess
import sys

from tests.device.procs import REPO

#: Runs `companion device run` (a port that does not exist: it keeps looking for it) and,
#: once the bridge's reader thread runs, prints which of the app's heavy packages it imported.
PROBE = """
import os, sys, threading, time
from companion_app import cli

def look():
    while not any(t.name == "device-serial" for t in threading.enumerate()):
        time.sleep(0.05)  # the bridge's reader thread runs: everything it needs is imported
    heavy = ("flask", "werkzeug", "uvicorn", "companion_app.store", "companion_app.server")
    print(sorted(name for name in heavy if name in sys.modules), flush=True)
    os._exit(0)

threading.Thread(target=look, daemon=True).start()
cli.main(["device", "run", "--port", "/dev/no-such-box", "--app", "http://127.0.0.1:9"])
"""


def test_device_run_imports_no_flask_no_store_no_server():
    """Issue 34 item 5: the bridge's start pays for the bridge alone."""
    ran = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    looked = [line for line in ran.stdout.splitlines() if line.startswith("[")]
    assert looked == ["[]"], (ran.stdout, ran.stderr)


def test_the_whole_parser_still_knows_every_command():
    """The quick path is `device run` alone; `device key` and the rest keep the whole parser."""
    from companion_app import cli

    parser = cli.build_parser()
    assert parser.parse_args(["device", "key"]).func is cli.cmd_device_key
    assert cli.bridge_parser().parse_args(["device", "run"]).port is None
