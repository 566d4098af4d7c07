"""`companion serve --workers N` (issue 33 item 7): worker processes behind one socket.

A move posted to one worker is seen on a live stream held by another (the change feed is the
database's data_version), and one address's shares hold across workers (the parent passes
each address's connections to one worker). Real processes on loopback aliases; which worker
holds a connection is read from /proc (Linux).
"""

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion_app.server import workers
from companion_app.server.room import STREAMS_PER_ADDRESS
from tests.app.live_server import REPO, free_port, stop
from tests.live import json_request

pytestmark = pytest.mark.skipif(
    not (workers.supported() and os.path.isdir("/proc/self/fd")),
    reason="workers need fork and socket passing; the test reads /proc",
)
#: A liveness bound, not a speed one: a busy machine still gets there.
WAIT_S = 30.0
PLAYERS = ["Ann", "Bob", "Cid"]


def _aliases_on_two_workers() -> tuple[str, str]:
    """Two loopback addresses that the parent sends to different workers of two."""
    first = "127.0.0.2"
    other = next(
        f"127.0.0.{n}"
        for n in range(3, 250)
        if workers.worker_of(f"127.0.0.{n}", 2) != workers.worker_of(first, 2)
    )
    return first, other


def _serve(instance: Path, port: int, count: int, **settings: str) -> subprocess.Popen:
    """`companion serve --workers count` with loopback aliases as LAN devices (and
    COMPANION_<name> settings)."""
    command = [sys.executable, "-m", "companion_app.cli", "serve", "--port", str(port)]
    command += ["--instance", str(instance), "--workers", str(count)]
    env = {**os.environ, "PYTHONPATH": str(REPO), "COMPANION_LOCAL_IS_HOST": "0"}
    env.update({f"COMPANION_{name}": value for name, value in settings.items()})
    with open(instance / "serve.log", "ab") as log:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        assert process.poll() is None, (instance / "serve.log").read_text()
        try:
            json_request(f"http://127.0.0.1:{port}", "GET", "/api/tables", timeout=WAIT_S)
            return process  # answered: the workers are serving
        except OSError:
            time.sleep(0.05)
    stop(process)
    raise RuntimeError("companion serve --workers did not start")


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                    if stat.read().rpartition(")")[2].split()[1] == str(pid):
                        found.append(int(entry))
            except OSError:
                continue
    return found


def _holder(client: socket.socket, pids: list[int]) -> int:
    """Which of `pids` holds the server side of the TCP connection `client` opened."""
    host, port = client.getsockname()
    wanted = f"{''.join(reversed([f'{int(p):02X}' for p in host.split('.')]))}:{port:04X}"
    inode = None
    with open("/proc/net/tcp", encoding="ascii") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            if fields[2] == wanted and fields[9] != "0":  # the server's end, still open
                inode = fields[9]
    assert inode is not None, "the server's end of the connection is not in /proc/net/tcp"
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    raise AssertionError("no worker holds the connection")


def _open_stream(port: int, source: str, path: str) -> tuple[socket.socket, int, bytes]:
    """A live stream opened from `source`: (socket, status, what was read with the head)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S, source_address=(source, 0))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    return sock, int(data.split()[1]), data


def _post(port: int, source: str, path: str, body: dict, key: str | None = None):
    """(connection kept open, status, answer) of a JSON POST from `source`."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=WAIT_S, source_address=(source, 0)
    )
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    connection.request("POST", path, json.dumps(body), headers)
    response = connection.getresponse()
    return connection, response.status, json.loads(response.read())


def test_worker_of_keeps_a_device_on_one_worker():
    """Issue 33 item 7: an address, its IPv4-mapped form and its /64 neighbours share a worker."""
    assert workers.worker_of("10.0.0.7", 4) == workers.worker_of("::ffff:10.0.0.7", 4)
    assert workers.worker_of("fd00::1", 4) == workers.worker_of("fd00::ffff:2", 4)
    spread = {workers.worker_of(f"10.0.0.{n}", 2) for n in range(2, 40)}
    assert spread == {0, 1}


def test_a_move_on_one_worker_is_seen_on_a_stream_held_by_another(tmp_path):
    """Issue 33 item 7: the stream and the move are on different worker processes."""
    viewer, mover = _aliases_on_two_workers()
    port = free_port()
    server = _serve(tmp_path, port, 2)
    try:
        pids = _children(server.pid)
        assert len(pids) == 2
        conn, status, created = _post(
            port, mover, "/api/tables", {"game": "razzia", "players": PLAYERS}
        )
        conn.close()
        assert status == 201, created
        stream, status, seen = _open_stream(
            port, viewer, f"/live/tables/{created['id']}?page=table&lang=en"
        )
        assert status == 200
        move = {"version": created["version"], "move": {"type": "deal", "sets": ["A", "B", "C"]}}
        path = f"/api/tables/{created['id']}/moves"
        conn, status, moved = _post(port, mover, path, move, created["edit_key"])
        assert status == 200, moved
        assert _holder(stream, pids) != _holder(conn.sock, pids)
        deadline = time.monotonic() + WAIT_S
        while f'"version":"{moved["version"]}.'.encode() not in seen:
            assert time.monotonic() < deadline, "the other worker's stream never got the move"
            seen += stream.recv(65536)
        stream.close()
        conn.close()
    finally:
        stop(server)


def _table_stream(port: int) -> str:
    """The live stream path of a new table's page (made from 127.0.0.9)."""
    conn, status, created = _post(
        port, "127.0.0.9", "/api/tables", {"game": "razzia", "players": PLAYERS}
    )
    conn.close()
    assert status == 201
    return f"/live/tables/{created['id']}?page=table&lang=en"


def test_an_address_share_of_streams_holds_across_workers(tmp_path):
    """Issue 33 item 7: one address gets its 16 streams from two workers, not 16 from each."""
    port = free_port()
    server = _serve(tmp_path, port, 2)
    try:
        path = _table_stream(port)
        held = [_open_stream(port, "127.0.0.7", path) for _ in range(STREAMS_PER_ADDRESS)]
        assert [status for _, status, _ in held] == [200] * STREAMS_PER_ADDRESS
        extra, status, answer = _open_stream(port, "127.0.0.7", path)
        assert status == 429, answer
        other, status, _ = _open_stream(port, "127.0.0.8", path)
        assert status == 200  # another device is not refused
        for sock, _, _ in [*held, (extra, 0, b""), (other, 0, b"")]:
            sock.close()
    finally:
        stop(server)


def test_the_total_of_streams_is_the_servers_not_each_workers(tmp_path):
    """Issue 33 item 7: 8 streams in all (5 for unknown devices) hold across two workers."""
    first, other = _aliases_on_two_workers()
    port = free_port()
    server = _serve(tmp_path, port, 2, LIVE_MAX_VIEWERS="8")
    held = []
    try:
        path = _table_stream(port)
        held = [_open_stream(port, first, path) for _ in range(3)]
        held += [_open_stream(port, other, path) for _ in range(2)]
        assert [status for _, status, _ in held] == [200] * 5
        pids = _children(server.pid)
        assert _holder(held[0][0], pids) != _holder(held[-1][0], pids)
        extra, status, answer = _open_stream(port, other, path)
        held.append((extra, status, answer))
        assert status == 503, answer  # the unknown devices' 70 % of 8, on either worker
        while not answer.endswith(b"}"):
            answer += extra.recv(65536) or b"}"
        assert b"keeps its remaining live pages" in answer
    finally:
        for sock, _, _ in held:
            sock.close()
        stop(server)


def test_a_commit_by_another_process_wakes_the_feed(app):
    """Issue 33 item 7: the data_version watch notifies on another connection's commit only."""
    from companion_app.store import db
    from companion_app.store.changes import get_feed

    feed = get_feed(app)
    watch = workers.DataVersionWatch(app, period_s=0.01).start()
    try:
        quiet = feed.generation
        time.sleep(0.1)
        assert feed.generation == quiet  # nothing committed: nobody is woken
        other = sqlite3.connect(db.database_path(app), isolation_level=None)
        try:
            other.execute("INSERT INTO settings (key, value_json) VALUES ('workers-test', '1')")
        finally:
            other.close()
        feed.wait(quiet, WAIT_S)
        assert feed.generation > quiet
    finally:
        watch.stop()


def _device_key(instance: Path) -> str:
    """The box bridge's key (`companion device key`)."""
    command = [sys.executable, "-m", "companion_app.cli", "device", "key"]
    command += ["--instance", str(instance)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip().split()[-1]


def test_the_bridge_status_has_one_owner_every_worker_shows(tmp_path):
    """Issue 33 item 7: a bridge's report reaching one worker is what every worker shows."""
    bridge, phone = _aliases_on_two_workers()
    port = free_port()
    server = _serve(tmp_path, port, 2)
    reporter = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=WAIT_S, source_address=(bridge, 0)
    )
    asker = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S, source_address=(phone, 0))
    try:
        key = _device_key(tmp_path)
        report = {"mode": "remote", "connected": True, "port": "/dev/ttyUSB0", "last_seen_ms": 0}
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
        reporter.request("PUT", "/api/device/status", json.dumps(report), headers)
        response = reporter.getresponse()
        assert response.status == 200, response.read()
        response.read()
        asker.request("GET", "/api/device/status")
        shown = json.loads(asker.getresponse().read())
        pids = _children(server.pid)
        assert _holder(reporter.sock, pids) != _holder(asker.sock, pids)
        deadline = time.monotonic() + WAIT_S
        while shown["mode"] != "remote":
            assert time.monotonic() < deadline, f"the other worker still shows {shown}"
            time.sleep(0.1)
            asker.request("GET", "/api/device/status")
            shown = json.loads(asker.getresponse().read())
        assert shown["connected"] is True and shown["port"] == "/dev/ttyUSB0"
    finally:
        reporter.close()
        asker.close()
        stop(server)


def _call(connection: http.client.HTTPConnection, method: str, path: str, body=None, key=None):
    """(status, answer) of a JSON request on a connection kept open."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    connection.request(method, path, None if body is None else json.dumps(body), headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def test_a_box_check_asked_on_one_worker_is_run_from_another(tmp_path):
    """Issue 33 item 7: the host's box page and the bridge reach different workers and see
    one check (it lives in the database): pending for the bridge, the question on the page,
    the page's answer back to the bridge."""
    host, bridge = _aliases_on_two_workers()
    port = free_port()
    server = _serve(tmp_path, port, 2)
    page = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S, source_address=(host, 0))
    box = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S, source_address=(bridge, 0))
    try:
        key = _device_key(tmp_path)
        status, created = _call(page, "POST", "/api/tables", {"game": "razzia", "players": PLAYERS})
        assert status == 201, created
        table, edit = created["id"], created["edit_key"]
        report = {"mode": "remote", "connected": True, "port": "/dev/ttyUSB0", "last_seen_ms": 0}
        assert _call(box, "PUT", "/api/device/status", report, key)[0] == 200
        deadline = time.monotonic() + WAIT_S
        while True:  # the host's worker shows the box once the parent's copy reached it
            status, asked = _call(page, "POST", f"/api/tables/{table}/box-check", {}, edit)
            if status == 202:
                break
            assert status == 409 and time.monotonic() < deadline, asked
            time.sleep(0.1)
        pids = _children(server.pid)
        assert _holder(page.sock, pids) != _holder(box.sock, pids)
        number = asked["number"]
        assert _call(box, "GET", "/api/device", key=key)[1]["check"] == number
        assert (
            _call(box, "PUT", "/api/device/check", {"number": number, "start": True}, key)[0] == 200
        )
        put = {"number": number, "question": {"kind": "beep"}}
        question = _call(box, "PUT", "/api/device/check", put, key)[1]["question"]
        shown = _call(page, "GET", f"/api/device/check?table={table}")[1]
        assert shown["state"] == "running" and shown["question"] == question
        answer = {"question": question["id"], "yes": True}
        assert _call(page, "POST", f"/api/tables/{table}/box-check/answer", answer, edit)[0] == 200
        seen = _call(box, "GET", "/api/device/check", key=key)[1]
        assert seen["answer"] == answer
    finally:
        page.close()
        box.close()
        stop(server)


def test_stopping_the_parent_stops_every_worker(tmp_path):
    """Issue 33 item 7: SIGTERM to `companion serve --workers 2` ends the workers and itself."""
    server = _serve(tmp_path, free_port(), 2)
    pids = _children(server.pid)
    assert len(pids) == 2
    server.terminate()
    assert server.wait(timeout=WAIT_S) == 0
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert "Stopped." in (tmp_path / "serve.log").read_text()


def test_workers_stop_when_the_parent_is_killed(tmp_path):
    """Issue 33 item 7: a parent killed outright (SIGKILL) leaves no worker serving."""
    server = _serve(tmp_path, free_port(), 2)
    pids = _children(server.pid)
    assert len(pids) == 2
    server.kill()
    server.wait()
    deadline = time.monotonic() + WAIT_S
    for pid in pids:
        while _running(pid):
            assert time.monotonic() < deadline, f"worker {pid} outlived its parent"
            time.sleep(0.1)


def _running(pid: int) -> bool:
    """True while `pid` exists and is not a zombie waiting for whoever adopted it."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def test_a_device_whose_worker_died_is_served_by_another(tmp_path):
    """Issue 33 item 7: a worker killed outright hands its devices to the next worker."""
    port = free_port()
    server = _serve(tmp_path, port, 2)
    phone = "127.0.0.5"
    try:
        first = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=WAIT_S, source_address=(phone, 0)
        )
        first.request("GET", "/api/tables")
        answered = first.getresponse()
        answered.read()
        assert answered.status == 200
        dead = _holder(first.sock, _children(server.pid))
        first.close()
        os.kill(dead, signal.SIGKILL)
        deadline = time.monotonic() + WAIT_S
        while True:  # the first try may reach the dead worker's channel before it is noticed
            again = http.client.HTTPConnection(
                "127.0.0.1", port, timeout=5, source_address=(phone, 0)
            )
            try:
                again.request("GET", "/api/tables")
                response = again.getresponse()
                status = response.status
                response.read()
                break
            except (OSError, http.client.HTTPException):
                assert time.monotonic() < deadline, "the device was never served again"
                time.sleep(0.1)
            finally:
                again.close()
        assert status == 200
        assert _holder_pids_alive(server.pid) == 1  # the server goes on with one worker
        assert server.poll() is None
        assert "stopped" in (tmp_path / "serve.log").read_text()  # the log says which stopped
    finally:
        stop(server)


def _holder_pids_alive(parent: int) -> int:
    """How many of the parent's workers still run (not zombies)."""
    return sum(_running(pid) for pid in _children(parent))
