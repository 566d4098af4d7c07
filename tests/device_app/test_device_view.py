"""GET /api/tables/<id>/device: display, reveal, etag, and the long poll (docs/device-api.md)."""

import threading
import time

from companion_app.store.changes import get_feed
from tests.device_app.conftest import TEST_LONG_POLL_S, make_app
from tests.device_app.helpers import DeviceApi

#: Polls that must answer early wait at most this long, so "early" has a wide margin even on a
#: loaded machine: such a poll must answer in under half of it (EARLY_S), never time out.
LONG_WAIT_S = 30.0
EARLY_S = LONG_WAIT_S / 2
#: A poll that times out answers at its deadline, give or take scheduling on a busy machine:
#: well under the 20 s default, so it shows the configured deadline held, not a host's speed.
DEADLINE_SLACK_S = 9.0


def test_the_view_shows_the_display_the_reveal_and_the_names(device):
    """Shape of the body: display from device_display, no reveal yet, names by seat."""
    table = device.police(device.dealt(), 3)
    status, body = device.view(table["id"])
    assert status == 200
    assert body == {
        "table": table["id"],
        "version": table["version"],
        "etag": f"{table['version']}:0",
        "display": {"police": 3, "limit": 7, "round": 1, "rounds": 3, "seats": 4},
        "reveal": None,
        "players": ["Ann", "Bob", "Cid", "Dee"],
    }


def test_the_etag_changes_with_every_move_and_reveal_step(device):
    """A move, an arm, a press and a disarm each give a new etag; a duplicate press does not."""
    table = device.dealt()
    seen = [device.view(table["id"])[1]["etag"]]
    device.police(table, 1)
    seen.append(device.view(table["id"])[1]["etag"])
    seen.append(device.arm(table["id"], [0, 1])[1]["etag"])
    seen.append(device.press(table["id"], 1, 0)[1]["etag"])
    assert device.press(table["id"], 1, 0)[1]["etag"] == seen[-1]
    seen.append(device.disarm(table["id"])[1]["etag"])
    assert len(set(seen)) == len(seen)


def test_an_unknown_table_is_a_404_sentence(device):
    """No such table: 404 with the API's error shape."""
    status, body = device.view("nosuchtb")
    assert status == 404
    assert body == {"error": "There is no table with id nosuchtb."}


def test_a_different_etag_answers_at_once(app, device):
    """wait= with an etag the client does not have now: no waiting."""
    app.config["DEVICE_LONG_POLL_S"] = LONG_WAIT_S
    table = device.dealt()
    started = time.monotonic()
    status, body = device.view(table["id"], wait="0:0")
    assert status == 200 and body["version"] == 1
    assert time.monotonic() - started < EARLY_S


def test_the_long_poll_times_out_with_the_same_body(device):
    """Nothing changes: the answer comes after DEVICE_LONG_POLL_S, unchanged."""
    table = device.dealt()
    etag = device.view(table["id"])[1]["etag"]
    started = time.monotonic()
    status, body = device.view(table["id"], wait=etag)
    waited = time.monotonic() - started
    assert status == 200 and body["etag"] == etag
    assert TEST_LONG_POLL_S <= waited < TEST_LONG_POLL_S + DEADLINE_SLACK_S


def poll_in_thread(app, table_id: str, etag: str) -> tuple[threading.Thread, dict]:
    """Start a long poll on its own client and thread; the dict gets its answer and timing."""
    result: dict = {}

    def poll() -> None:
        started = time.monotonic()
        result["answer"] = DeviceApi(app.test_client()).view(table_id, wait=etag)
        result["waited"] = time.monotonic() - started

    thread = threading.Thread(target=poll)
    thread.start()
    return thread, result


def test_a_move_wakes_the_long_poll(app, device):
    """A move in this process answers a waiting poll at once with the new state."""
    app.config["DEVICE_LONG_POLL_S"] = LONG_WAIT_S
    app.config["DEVICE_RECHECK_S"] = 10.0  # only the in-process notification can wake it
    table = device.dealt()
    etag = device.view(table["id"])[1]["etag"]
    thread, result = poll_in_thread(app, table["id"], etag)
    time.sleep(0.1)
    device.police(table, 1)
    thread.join(timeout=LONG_WAIT_S)
    status, body = result["answer"]
    assert status == 200 and body["display"]["police"] == 1
    assert result["waited"] < EARLY_S


def test_closing_the_feed_releases_waiting_polls_at_once(app, device):
    """Stopping the server ends every long poll now, not after DEVICE_LONG_POLL_S."""
    app.config["DEVICE_LONG_POLL_S"] = LONG_WAIT_S
    app.config["DEVICE_RECHECK_S"] = 10.0
    table = device.dealt()
    etag = device.view(table["id"])[1]["etag"]
    thread, result = poll_in_thread(app, table["id"], etag)
    time.sleep(0.1)
    get_feed(app).close()
    thread.join(timeout=LONG_WAIT_S)
    status, body = result["answer"]
    assert status == 200 and body["etag"] == etag
    assert result["waited"] < EARLY_S


def test_a_reveal_press_wakes_the_long_poll(app, device):
    """Reveal writes notify too."""
    app.config["DEVICE_LONG_POLL_S"] = LONG_WAIT_S
    app.config["DEVICE_RECHECK_S"] = 10.0
    table = device.dealt()
    etag = device.arm(table["id"], [0, 1])[1]["etag"]
    thread, result = poll_in_thread(app, table["id"], etag)
    time.sleep(0.1)
    device.press(table["id"], 1, 1)
    thread.join(timeout=LONG_WAIT_S)
    assert result["answer"][1]["reveal"]["locked"] == [1]
    assert result["waited"] < EARLY_S


def test_a_write_by_another_process_is_seen_by_the_recheck(app, device, tmp_path):
    """A second app on the same database notifies nobody here; the re-check finds its move."""
    app.config["DEVICE_LONG_POLL_S"] = LONG_WAIT_S
    app.config["DEVICE_RECHECK_S"] = 0.2
    table = device.dealt()
    etag = device.view(table["id"])[1]["etag"]
    other = DeviceApi(make_app(str(tmp_path)).test_client())
    thread, result = poll_in_thread(app, table["id"], etag)
    time.sleep(0.1)
    other.police(table, 1)
    thread.join(timeout=LONG_WAIT_S)
    assert result["answer"][1]["display"]["police"] == 1
    assert result["waited"] < EARLY_S  # the 0.2 s re-check found it, not the timeout


def test_a_refused_write_does_not_count_as_a_change(app, device):
    """A 409 move leaves the etag as it was, so the poll keeps waiting until its timeout."""
    table = device.dealt()
    etag = device.view(table["id"])[1]["etag"]
    thread, result = poll_in_thread(app, table["id"], etag)
    status, _ = device.call(
        "POST", f"/api/tables/{table['id']}/moves", {"version": 0, "move": {"type": "next_round"}}
    )
    assert status == 409
    thread.join(timeout=LONG_WAIT_S)
    assert result["answer"][1]["etag"] == etag
    assert result["waited"] >= TEST_LONG_POLL_S


def test_an_overlong_wait_etag_is_refused(device):
    """wait= longer than any etag the app makes: 400, at once."""
    table = device.dealt()
    status, body = device.view(table["id"], wait="x" * 500)
    assert status == 400 and body["error"].endswith(".")


def test_status_reports_do_not_wake_long_polls(app, device):
    """A remote bridge PUTs its status every second; that never changes the device view."""
    app.config["DEVICE_RECHECK_S"] = 10.0
    feed_before = get_feed(app).generation
    device.call("PUT", "/api/device/status", {"mode": "remote", "connected": True})
    assert get_feed(app).generation == feed_before
    device.dealt()
    assert get_feed(app).generation > feed_before
