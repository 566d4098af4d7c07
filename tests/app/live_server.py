"""Run `companion serve` as a real process on a free port and talk to it over HTTP (urllib)."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.live import json_request

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 20.0
REQUEST_TIMEOUT_S = 10.0
POLL_S = 0.05


def free_port() -> int:
    """A TCP port that was free a moment ago on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(instance: Path, port: int, log: Path) -> subprocess.Popen:
    """`companion serve --port PORT --instance INSTANCE`, waiting until it answers."""
    command = [
        sys.executable,
        "-m",
        "companion_app.cli",
        "serve",
        "--port",
        str(port),
        "--instance",
        str(instance),
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with open(log, "ab") as log_file:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=log_file, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"companion serve exited with {process.returncode}: {log.read_text()}"
            )
        try:
            request(port, "GET", "/api/tables")
            return process
        except OSError:
            time.sleep(POLL_S)
    process.kill()
    raise RuntimeError(f"companion serve did not answer within {START_TIMEOUT_S} s")


def request(port: int, method: str, path: str, body: object = None) -> tuple[int, dict]:
    """One HTTP request; (status, JSON body). Connection failures raise OSError."""
    return json_request(f"http://127.0.0.1:{port}", method, path, body, REQUEST_TIMEOUT_S)


def stop(process: subprocess.Popen) -> None:
    """Terminate a server we started and reap it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=START_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
