"""Issue 33 item 7: the box check is one row of the database, so every worker process sees it.

`serve --workers` forks its workers from the parent's app object: here a child process is
forked from the test's app the same way (its own connections and change feed, the app's boot
id inherited) and steps of one check are taken on both sides. A second app object opened on
the same folder is a later server run: it sees no check (a restart forgets one).
"""

import json
import os
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor

import pytest

from companion_app.device.check import get_check
from companion_app.device.status import get_status
from companion_app.server import rights
from companion_app.store import db
from companion_app.store.changes import new_feed
from tests.device_app.conftest import make_app

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked processes")

QUESTION = {"kind": "beep"}
ANOTHER = "The box is being checked from another table's box page; answer or stop it there."
PLAYERS = ["Ann", "Bob", "Cid"]


def in_forked_worker(app, step):
    """`step(app)` in a process forked from `app` as `serve --workers` forks a worker; its
    JSON result (an exception in the child fails the test with the child's traceback)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: a fresh feed and connections, as workers._fresh_process_state
        os.close(read_end)
        code = 0
        try:
            new_feed(app)
            db.forget_inherited(app)
            answer = {"result": step(app)}
        except BaseException:
            answer, code = {"error": traceback.format_exc()}, 1
        with os.fdopen(write_end, "w") as out:
            json.dump(answer, out)
        os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end) as answer_in:
        answer = json.load(answer_in)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and "error" not in answer, answer.get("error")
    return answer["result"]


def bridge_of(app):
    """A test client with the box's key, as the bridge calls the app."""
    with app.test_request_context():
        key = rights.device_key()
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {key}"
    return client


def new_table(app) -> str:
    """A table made on this machine (which hosts it); its id."""
    made = app.test_client().post("/api/tables", json={"game": "razzia", "players": PLAYERS})
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"]


@pytest.fixture
def app(tmp_path):
    """An app with a connected box (the status every worker gets from the parent)."""
    app = make_app(str(tmp_path))
    get_status(app).update(mode="simulator", connected=True)
    return app


def test_a_check_asked_on_one_worker_is_run_and_answered_across_processes(app):
    """Issue 33 item 7: asked in one process, pending and shown in another; the answer made
    in a third is what the first's snapshot and etag show."""
    table = new_table(app)

    def ask(worker):
        asked = worker.test_client().post(f"/api/tables/{table}/box-check", json={})
        return asked.status_code, asked.get_json()

    status, asked = in_forked_worker(app, ask)
    assert status == 202 and asked["state"] == "asked"
    bridge = bridge_of(app)
    view = bridge.get("/api/device").get_json()
    assert view["check"] == asked["number"]
    assert bridge.get("/api/device/check").get_json()["etag"] == asked["etag"]
    number = asked["number"]
    assert (
        bridge.put("/api/device/check", json={"number": number, "start": True}).status_code == 200
    )
    put = bridge.put("/api/device/check", json={"number": number, "question": QUESTION})
    question, before = put.get_json()["question"], put.get_json()["etag"]
    assert bridge.get("/api/device").get_json()["check"] is None  # started: no longer pending

    def answer(worker):
        page = worker.test_client()
        shown = page.get(f"/api/device/check?table={table}").get_json()
        said = page.post(
            f"/api/tables/{table}/box-check/answer", json={"question": question["id"], "yes": True}
        )
        return shown, said.status_code

    shown, status = in_forked_worker(app, answer)
    assert shown["question"] == question and shown["state"] == "running"
    assert status == 200
    seen = bridge.get("/api/device/check").get_json()
    assert seen["answer"] == {"question": question["id"], "yes": True}
    assert seen["etag"] != before
    with app.app_context():
        assert get_check(app).etag() == seen["etag"]


def test_the_table_that_asked_owns_the_check_in_every_process(app):
    """Issue 33 items 4 and 7: another table's box page, on another worker, cannot answer or
    stop the check, and sees only that it runs."""
    table_a, table_b = new_table(app), new_table(app)

    def ask(worker):
        return worker.test_client().post(f"/api/tables/{table_a}/box-check", json={}).status_code

    assert in_forked_worker(app, ask) == 202
    bridge = bridge_of(app)
    assert bridge.put("/api/device/check", json={"number": 1, "start": True}).status_code == 200
    put = bridge.put("/api/device/check", json={"number": 1, "question": QUESTION})
    question = put.get_json()["question"]["id"]

    def from_table_b(worker):
        page = worker.test_client()
        stop = page.post(f"/api/tables/{table_b}/box-check/cancel", json={})
        said = page.post(
            f"/api/tables/{table_b}/box-check/answer", json={"question": question, "yes": True}
        )
        again = page.post(f"/api/tables/{table_b}/box-check", json={})
        seen = page.get(f"/api/device/check?table={table_b}").get_json()
        return (
            [stop.status_code, stop.get_json()],
            [said.status_code, said.get_json()],
            (again.status_code),
            seen,
        )

    stop, said, again, seen = in_forked_worker(app, from_table_b)
    assert stop == [409, {"error": ANOTHER}] and said == [409, {"error": ANOTHER}]
    assert again == 409
    assert seen["state"] == "running" and seen["table"] == table_a and seen["question"] is None
    kept = app.test_client().get(f"/api/device/check?table={table_a}").get_json()
    assert kept["state"] == "running" and kept["answer"] is None


def test_a_check_of_an_earlier_server_run_reads_as_none(app, tmp_path):
    """Issue 33 item 7: a restart forgets a check, though its row stays in the file: the next
    run (another app object on the folder) sees no check, pending nothing, and the old run's
    bridge is refused; a new check goes on from the old one's number."""
    table = new_table(app)
    asked = app.test_client().post(f"/api/tables/{table}/box-check", json={}).get_json()
    assert (
        bridge_of(app).put("/api/device/check", json={"number": 1, "start": True}).status_code
        == 200
    )
    later = make_app(str(tmp_path))
    get_status(later).update(mode="simulator", connected=True)
    bridge = bridge_of(later)
    seen = bridge.get("/api/device/check").get_json()
    assert seen["state"] == "idle" and seen["table"] is None and seen["question"] is None
    assert seen["etag"] != asked["etag"]
    assert bridge.get("/api/device").get_json()["check"] is None
    put = bridge.put("/api/device/check", json={"number": 1, "question": QUESTION})
    assert put.status_code == 409
    again = later.test_client().post(f"/api/tables/{table}/box-check", json={})
    assert again.status_code == 202 and again.get_json()["number"] == 2
    assert bridge.get("/api/device").get_json()["check"] == 2
    # The earlier run, were it still up, no longer owns the row either.
    assert app.test_client().get("/api/device/check").get_json()["state"] == "idle"


def test_two_pages_asking_at_once_get_one_check(app):
    """Issue 33 item 7: each step is one write transaction, so of eight box pages asking at
    the same moment (each with its own connection, as worker processes have) one gets the
    check and the others are told one runs."""
    tables = [new_table(app) for _ in range(8)]
    ready = threading.Barrier(len(tables))

    def ask(table):
        client = app.test_client()
        ready.wait()
        return client.post(f"/api/tables/{table}/box-check", json={}).status_code

    with ThreadPoolExecutor(len(tables)) as pool:
        statuses = sorted(pool.map(ask, tables))
    assert statuses == [202] + [409] * (len(tables) - 1)
    seen = app.test_client().get("/api/device/check").get_json()
    assert seen["number"] == 1 and seen["state"] == "asked" and seen["table"] in tables
