"""Issue 33, item 4: the box check belongs to the table whose box page asked for it.

Table B's host has edit rights on B only: answering or stopping the check table A's host
started, through B's URLs, is a 409 with a sentence, and B's box page does not see A's
questions or report (`GET /api/device/check?table=B`).
"""

import pytest

from companion_app.device.status import get_status
from companion_app.server import rights
from tests.device_app.conftest import make_app

HOST_A, HOST_B = "192.168.1.21", "192.168.1.22"
ANOTHER = "The box is being checked from another table's box page; answer or stop it there."
QUESTION = {"kind": "beep"}


def host_at(app, address: str):
    """A test client on `address` that creates a table of its own: (client, table id)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    made = client.post("/api/tables", json={"game": "razzia", "players": ["Ann", "Bob", "Cid"]})
    assert made.status_code == 201, made.get_json()
    return client, made.get_json()["id"]


@pytest.fixture
def two_hosts(tmp_path):
    """An app with a connected box, a running check asked for by table A, and table B's host."""
    app = make_app(str(tmp_path), LOCAL_IS_HOST=False)
    get_status(app).update(mode="simulator", connected=True)
    a, table_a = host_at(app, HOST_A)
    b, table_b = host_at(app, HOST_B)
    with app.test_request_context():
        key = rights.device_key()
    bridge = app.test_client()
    bridge.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    bridge.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {key}"
    assert a.post(f"/api/tables/{table_a}/box-check", json={}).status_code == 202
    assert bridge.put("/api/device/check", json={"number": 1, "start": True}).status_code == 200
    asked = bridge.put("/api/device/check", json={"number": 1, "question": QUESTION})
    assert asked.status_code == 200
    return a, table_a, b, table_b, asked.get_json()["question"]["id"]


def test_another_tables_host_cannot_stop_or_answer_the_check(two_hosts):
    """Issue 33, item 4: cancel and answer check the URL's table (409 with a sentence)."""
    a, table_a, b, table_b, question = two_hosts
    stopped = b.post(f"/api/tables/{table_b}/box-check/cancel", json={})
    assert (stopped.status_code, stopped.get_json()) == (409, {"error": ANOTHER})
    answered = b.post(
        f"/api/tables/{table_b}/box-check/answer", json={"question": question, "yes": True}
    )
    assert (answered.status_code, answered.get_json()) == (409, {"error": ANOTHER})
    started = b.post(f"/api/tables/{table_b}/box-check", json={})
    assert started.status_code == 409
    state = a.get(f"/api/device/check?table={table_a}").get_json()
    assert state["state"] == "running" and state["answer"] is None
    assert state["question"]["id"] == question
    # B's host cannot reach A's check through A's URLs either: no rights on A.
    assert b.post(f"/api/tables/{table_a}/box-check/cancel", json={}).status_code == 403


def test_the_tables_own_host_answers_and_stops_its_check(two_hosts):
    """Issue 33, item 4: the host of the table that asked still answers and stops it."""
    a, table_a, _b, _table_b, question = two_hosts
    answered = a.post(
        f"/api/tables/{table_a}/box-check/answer", json={"question": question, "yes": False}
    )
    assert answered.status_code == 200
    assert answered.get_json()["answer"] == {"question": question, "yes": False}
    stopped = a.post(f"/api/tables/{table_a}/box-check/cancel", json={})
    assert stopped.status_code == 200 and stopped.get_json()["state"] == "cancelled"


def test_another_tables_box_page_sees_only_that_a_check_runs(two_hosts):
    """Issue 33, item 4: the box page passes its table; another table's questions stay off it."""
    _a, table_a, b, table_b, _question = two_hosts
    seen = b.get(f"/api/device/check?table={table_b}").get_json()
    assert seen["state"] == "running" and seen["table"] == table_a
    assert seen["question"] is None and seen["answer"] is None and seen["report"] is None
    page = b.get(f"/tables/{table_b}/box").get_data(as_text=True)
    assert f'data-table="{table_b}"' in page
    assert f"/api/device/check?table={table_b}" in page
