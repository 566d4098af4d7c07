"""Which table the box follows, and the bridge status (docs/device-api.md)."""

import time

import pytest

from companion_app.device.status import REMOTE_TTL_S, DeviceStatus, get_status


def followed(device) -> dict:
    """GET /api/device/table."""
    status, body = device.call("GET", "/api/device/table")
    assert status == 200
    return body


def test_no_tables_nothing_to_follow(device):
    """An empty database: null, and /api/device has an empty body."""
    assert followed(device) == {"table": None, "chosen": False}
    status, body = device.call("GET", "/api/device")
    assert status == 200 and body["table"] is None and body["etag"] == "none"


def test_the_box_keeps_the_game_in_play_it_shows(device):
    """Issue 24: the first table takes the empty box; a newer table, moved or not, does not
    take it from a game in play."""
    first = device.dealt()
    second = device.dealt()
    assert followed(device) == {"table": first["id"], "chosen": False}
    device.police(second, 1)
    assert followed(device)["table"] == first["id"]


def test_a_new_table_takes_the_box_once_its_game_is_over(device):
    """Issue 24: when the game the box shows is over (its final standings stay on the box),
    the next new table takes the box."""
    done = device.dealt(["Ann", "Bob"])
    for _ in range(3):
        done = device.police(done, 5)
        if done["state"]["phase"] == "round_end":
            done = device.move(done, {"type": "next_round"})
    assert done["finished"] and followed(device)["table"] == done["id"]
    after = device.table()
    assert followed(device) == {"table": after["id"], "chosen": False}


def test_a_finished_table_is_not_the_default(device):
    """A table that is over never takes the box (2 players, 3 raids of 5 police)."""
    live = device.dealt()
    done = device.dealt(["Ann", "Bob"])
    for _ in range(3):
        done = device.police(done, 5)
        if done["state"]["phase"] == "round_end":
            done = device.move(done, {"type": "next_round"})
    assert done["finished"]
    assert followed(device)["table"] == live["id"]


def test_choosing_a_table_sticks_until_reset(device):
    """PUT sets the choice; a later move elsewhere does not move the box; null lets go of
    the choice, and the box keeps showing the table it shows."""
    first = device.dealt()
    second = device.dealt()
    status, body = device.call("PUT", "/api/device/table", {"table": second["id"]})
    assert status == 200 and body == {"table": second["id"], "chosen": True}
    device.police(first, 1)
    assert followed(device) == {"table": second["id"], "chosen": True}
    status, body = device.call("PUT", "/api/device/table", {"table": None})
    assert body == {"table": second["id"], "chosen": False}


def test_the_followed_device_view_carries_the_table_in_its_etag(device):
    """GET /api/device is the followed table's view, etag prefixed with its id."""
    table = device.dealt()
    status, body = device.call("GET", "/api/device")
    assert status == 200
    assert body["table"] == table["id"]
    assert body["etag"] == f"{table['id']}/{device.view(table['id'])[1]['etag']}"


def test_choosing_another_table_wakes_the_followed_long_poll(app, device):
    """The etag changes with the followed table, so a waiting poll answers."""
    app.config["DEVICE_LONG_POLL_S"] = 30.0  # answering early then means well under 15 s
    first = device.dealt()
    second = device.dealt()
    etag = device.call("GET", "/api/device")[1]["etag"]
    device.call("PUT", "/api/device/table", {"table": second["id"]})
    started = time.monotonic()
    status, body = device.call("GET", f"/api/device?wait={etag}")
    assert body["table"] == second["id"] != first["id"]
    assert time.monotonic() - started < 15.0


def test_without_a_bridge_the_status_is_virtual(device):
    """No bridge reported: the panel is the device."""
    status, body = device.call("GET", "/api/device/status")
    assert status == 200
    assert body == {
        "mode": "virtual",
        "connected": False,
        "problem": None,
        "holders": [],
        "fault": None,
        "drawn": None,
        "port": None,
        "hello": None,
        "last_seen_ms": None,
    }


def test_a_remote_bridge_names_the_problem_and_who_else_has_the_port(device):
    """Issue 25: the user is told who else has the port, and why the box is not connected."""
    report = {
        "mode": "remote",
        "connected": False,
        "problem": "port_shared",
        "holders": [{"pid": 4242, "name": "cat"}],
    }
    status, body = device.call("PUT", "/api/device/status", report)
    assert status == 200 and body["problem"] == "port_shared"
    assert body["holders"] == [{"pid": 4242, "name": "cat"}]


@pytest.mark.parametrize(
    "report",
    [
        {"problem": "on fire"},
        {"holders": "cat"},
        {"holders": [{"pid": "1", "name": "cat"}]},
        {"holders": [{"pid": 1, "name": "cat", "uid": 0}]},
        {"holders": [{"pid": 1, "name": "x" * 65}]},
        {"holders": [{"pid": i, "name": "cat"} for i in range(9)]},
        {"fault": 3},
        {"fault": "x" * 201},
        {"fault": "two\nlines"},
        {"drawn": 5},
        {"drawn": {"raid_at": 1}},
        {"drawn": {"raid_at": "soon", "countdown_end": None}},
        {"drawn": {"raid_at": True, "countdown_end": None}},
        {"drawn": {"raid_at": -1, "countdown_end": None}},
        {"drawn": {"raid_at": None, "countdown_end": None, "cd": 1}},
    ],
)
def test_a_bad_problem_or_holders_report_is_refused_and_changes_nothing(device, report):
    status, body = device.call("PUT", "/api/device/status", report)
    assert status == 400 and set(body) == {"error"}
    assert device.call("GET", "/api/device/status")[1]["problem"] is None


def test_the_in_process_bridge_reports_through_get_status(app, device):
    """What the bridge in `companion serve` sets is what the API shows."""
    hello = {"fw": "0.1.0", "proto": 1, "uid": "a1b2"}
    get_status(app).update(mode="serial", connected=True, port="/dev/ttyUSB0", hello=hello)
    body = device.call("GET", "/api/device/status")[1]
    assert body["mode"] == "serial" and body["connected"] is True
    assert body["port"] == "/dev/ttyUSB0" and body["hello"] == hello


def test_a_remote_bridge_puts_its_status(device):
    """PUT changes the given fields and answers with the whole status."""
    report = {"mode": "remote", "connected": True, "port": "/dev/ttyACM0", "last_seen_ms": 40}
    status, body = device.call("PUT", "/api/device/status", report)
    assert status == 200
    assert body["mode"] == "remote" and body["connected"] is True
    assert body["port"] == "/dev/ttyACM0" and body["hello"] is None
    assert body["last_seen_ms"] >= 40  # an age: it grows from what was reported


def test_a_remote_report_expires():
    """A bridge that stops reporting reads as disconnected after REMOTE_TTL_S."""
    now = [100.0]
    status = DeviceStatus(clock=lambda: now[0])
    status.update(mode="remote", connected=True, last_seen_ms=0, ttl_s=REMOTE_TTL_S)
    now[0] += REMOTE_TTL_S - 0.1
    assert status.snapshot()["connected"] is True
    now[0] += 0.2
    snapshot = status.snapshot()
    assert snapshot["connected"] is False
    assert snapshot["last_seen_ms"] == round((REMOTE_TTL_S + 0.1) * 1000)


def test_an_in_process_report_does_not_expire():
    """Without ttl_s the bridge's own word stands until it changes it."""
    now = [0.0]
    status = DeviceStatus(clock=lambda: now[0])
    status.update(mode="simulator", connected=True)
    now[0] += 3600
    assert status.snapshot()["connected"] is True
    status.reset()
    assert status.snapshot()["mode"] == "virtual"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Another program has the box's port open: python3 (4242). Close it."),
        ("cs", "Port krabičky má otevřený jiný program: python3 (4242). Zavřete ho."),
    ],
)
def test_the_panel_names_the_program_that_shares_the_port(app, client, device, language, words):
    """Issue 25: the user is told who else has the port, in their language."""
    table = device.dealt()
    get_status(app).update(
        mode="serial",
        connected=True,
        problem="port_shared",
        holders=[{"pid": 4242, "name": "python3"}],
    )
    page = client.get(f"/tables/{table['id']}/box", headers={"Accept-Language": language})
    html = page.get_data(as_text=True)
    assert 'data-state="port_shared"' in html
    assert words.replace("'", "&#39;") in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "The box stopped showing this game: its firmware failed on the table's current"
            " state (ZeroDivisionError: divide by zero).",
        ),
        (
            "cs",
            "Krabička přestala ukazovat hru: její firmware selhal na současném stavu stolu"
            " (ZeroDivisionError: divide by zero).",
        ),
    ],
)
def test_issue_34_item_2_the_panel_shows_the_box_fault_in_the_players_words(
    app, client, device, language, words
):
    """The box holds back a state that made its firmware raise: the badge says so (with the
    error's own text) although the box is connected, and a remote bridge can report it."""
    table = device.dealt()
    fault = "ZeroDivisionError: divide by zero"
    report = {"mode": "remote", "connected": True, "problem": "box_fault", "fault": fault}
    status, body = device.call("PUT", "/api/device/status", report)
    assert status == 200 and body["fault"] == fault
    page = client.get(f"/tables/{table['id']}/box", headers={"Accept-Language": language})
    html = page.get_data(as_text=True)
    assert 'data-state="box_fault"' in html
    assert words.replace("'", "&#39;") in html


@pytest.mark.parametrize(
    ("problem", "connected", "words"),
    [
        ("box_silent", False, "Box not answering"),
        ("box_deaf", False, "The box does not hear the companion"),
        (None, False, "Box disconnected"),
        (None, True, "Box connected"),
    ],
)
def test_the_badge_tells_a_silent_box_from_a_deaf_one(
    app, client, device, problem, connected, words
):
    table = device.dealt()
    get_status(app).update(mode="serial", connected=connected, problem=problem)
    html = client.get(f"/tables/{table['id']}/box").get_data(as_text=True)
    assert words in html


def test_a_strangers_new_table_never_moves_the_box(app, device):
    """Issue 24, Done means: while the box shows a table in play, a table created by a
    stranger (a phone on the LAN, through the API) does not move it, and the stranger, host of
    the new table, cannot point the box at it; the box's bridge (device key) sees the same."""
    from companion_app.server import rights

    shown = device.dealt()
    with app.test_request_context():
        key = rights.device_key()
    bridge = app.test_client()
    bridge.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    bridge_headers = {"Authorization": f"Bearer {key}"}
    before = bridge.get("/api/device", headers=bridge_headers).get_json()
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.168.1.66"
    made = stranger.post("/api/tables", json={"game": "razzia", "players": ["X", "Y", "Z"]})
    assert made.status_code == 201
    taken = stranger.put("/api/device/table", json={"table": made.get_json()["id"]})
    assert taken.status_code == 403 and "host" in taken.get_json()["error"]
    after = bridge.get("/api/device", headers=bridge_headers).get_json()
    assert after["table"] == shown["id"] and after["etag"] == before["etag"]
    assert after["players"] == ["Ann", "Bob", "Cid", "Dee"]


BUSY = {"problem": "port_busy", "connected": False, "port": "/dev/ttyUSB0"}
HOLDER = [{"pid": 4242, "name": "companion"}]


def test_a_bridge_waiting_for_a_held_port_never_speaks_over_the_one_holding_it():
    """Issue 34 item 1: the second bridge's report (port_busy) is kept apart; the first's
    stands, in-process (no expiry) or PUT (until it expires), however often the second says."""
    now = [0.0]
    status = DeviceStatus(clock=lambda: now[0])
    status.update(mode="remote", connected=True, port="/dev/ttyUSB0", ttl_s=REMOTE_TTL_S)
    for _ in range(5):
        status.update(mode="remote", holders=HOLDER, ttl_s=REMOTE_TTL_S, **BUSY)
        now[0] += 0.5
        assert status.snapshot()["connected"] is True
        assert status.snapshot()["problem"] is None
    in_process = DeviceStatus(clock=lambda: now[0])
    in_process.update(mode="serial", connected=True, port="/dev/ttyUSB0")
    in_process.update(mode="remote", holders=HOLDER, ttl_s=REMOTE_TTL_S, **BUSY)
    assert in_process.snapshot()["connected"] is True


def test_a_waiting_bridge_is_the_status_only_while_no_other_bridge_speaks():
    """Issue 34 item 1: no other report (none yet, or it expired): the app shows the waiting
    bridge as such (port_busy, who holds the port); its report expires like a PUT."""
    now = [0.0]
    status = DeviceStatus(clock=lambda: now[0])
    status.update(mode="serial", holders=HOLDER, **BUSY)  # in-process: it expires too
    snapshot = status.snapshot()
    assert snapshot["problem"] == "port_busy" and snapshot["connected"] is False
    assert snapshot["holders"] == HOLDER and snapshot["mode"] == "serial"
    now[0] += REMOTE_TTL_S + 0.1
    assert status.snapshot()["mode"] == "virtual" and status.snapshot()["problem"] is None
    status.update(mode="remote", connected=True, ttl_s=REMOTE_TTL_S)
    status.update(mode="remote", holders=[], ttl_s=REMOTE_TTL_S, **BUSY)
    now[0] += REMOTE_TTL_S + 0.1  # the first bridge died (its PUTs stopped); the second waits
    status.update(mode="remote", holders=HOLDER, ttl_s=REMOTE_TTL_S, **BUSY)
    assert status.snapshot()["problem"] == "port_busy"


def test_a_port_busy_put_answers_with_the_box_status_it_leaves_alone(device):
    """Issue 34 item 1 through the API: the PUT is taken (200) and the status stays the first
    bridge's."""
    first = {"mode": "remote", "connected": True, "port": "/dev/ttyUSB0", "last_seen_ms": 5}
    assert device.call("PUT", "/api/device/status", first)[0] == 200
    status, body = device.call("PUT", "/api/device/status", {"mode": "remote", **BUSY})
    assert status == 200 and body["connected"] is True and body["problem"] is None


@pytest.mark.parametrize(
    ("language", "holders", "words"),
    [
        ("en", HOLDER, "The box's port is held by companion (4242): this bridge waits for it."),
        ("en", [], "The box's port is held by another program: this bridge waits for it."),
        ("cs", HOLDER, "Port krabičky drží companion (4242): tento propojovací program na něj"),
        ("cs", [], "Port krabičky drží jiný program: tento propojovací program na něj čeká."),
    ],
)
def test_the_panel_shows_a_waiting_bridge_as_such(app, client, device, language, holders, words):
    """Issue 34 item 1: "another bridge holds the port", in the player's language."""
    table = device.dealt()
    get_status(app).update(mode="remote", holders=holders, **BUSY)
    page = client.get(f"/tables/{table['id']}/box", headers={"Accept-Language": language})
    html = page.get_data(as_text=True)
    assert 'data-state="port_busy"' in html
    assert words.replace("'", "&#39;") in html


DRAWN = {"raid_at": 1_700_000_000_300, "countdown_end": None}


def test_issue_34_item_4_a_remote_bridge_reports_what_the_box_draws(device):
    """The PUT carries `drawn`; the status shows it while the box is connected, null after."""
    report = {"mode": "remote", "connected": True, "drawn": DRAWN}
    status, body = device.call("PUT", "/api/device/status", report)
    assert status == 200 and body["drawn"] == DRAWN
    device.call("PUT", "/api/device/status", {"connected": False})
    assert device.call("GET", "/api/device/status")[1]["drawn"] is None  # the dot, no anchors


def test_issue_34_item_4_a_change_of_what_the_box_draws_calls_the_listeners():
    """Only a change of `drawn` calls the status's listeners (the live hub wakes and reads
    the panel's frame again); the same anchors again, or any other field, do not."""
    status, calls = DeviceStatus(), []
    status.add_listener(lambda: calls.append(1))
    status.update(mode="serial", connected=True, drawn=None)
    status.update(drawn=DRAWN)
    assert len(calls) == 1
    status.update(drawn=dict(DRAWN), last_seen_ms=0, connected=True)
    assert len(calls) == 1
    status.update(drawn={**DRAWN, "raid_at": None})
    assert len(calls) == 2


def test_issue_34_item_4_the_apps_status_nudges_the_live_pages_not_the_polls(app):
    """A change of `drawn` nudges the app's change feed once (the live hub's round), and
    bumps no generation: long polls and backups have nothing new to look at."""
    from companion_app.store.changes import get_feed

    feed, nudges = get_feed(app), []
    feed.add_nudge_listener(lambda: nudges.append(1))
    seen = feed.generation
    get_status(app).update(mode="serial", connected=True, drawn=DRAWN)
    get_status(app).update(drawn=DRAWN)
    assert nudges == [1] and feed.generation == seen


def test_issue_34_item_4_the_followed_tables_panel_draws_the_boxs_anchors(app, device):
    """The panel of the table the box follows is drawn from the box's anchors; another
    table's keeps its own timeline; the virtual box's is its own."""
    shown = device.dealt()
    other = device.dealt()
    assert followed(device)["table"] == shown["id"]
    assert device.frame(shown["id"])[1]["anchored"] == "app"  # no box: the virtual one
    get_status(app).update(mode="serial", connected=True, drawn=DRAWN)
    assert device.frame(shown["id"])[1]["anchored"] == "box"
    assert device.frame(shown["id"])[1]["drawn"] == DRAWN
    assert device.frame(other["id"])[1]["anchored"] == "app"


def test_issue_34_item_4_a_remote_bridge_sends_a_change_of_what_the_box_draws_at_once():
    """`drawn` is among the fields whose change goes out at once (the age, last, is not)."""
    from companion_app.bridge.remote import FIELDS, RemoteStatus

    assert "drawn" in FIELDS[:-1] and FIELDS[-1] == "last_seen_ms"
    remote = RemoteStatus("http://127.0.0.1:9")
    remote(mode="remote", connected=True, drawn=None)
    remote._changed.clear()
    remote(last_seen_ms=5)
    assert not remote._changed.is_set()
    remote(drawn=DRAWN)
    assert remote._changed.is_set()


def test_issue_34_item_4_a_worker_mirrors_what_the_box_draws_and_nudges_its_pages(app):
    """`serve --workers`: a worker's copy of the parent's status carries `drawn`, and a
    change of it nudges the worker's own feed (its live hub redraws the panel's frame)."""
    from companion_app.device.status import worker_status
    from companion_app.store.changes import get_feed

    take = worker_status(app, lambda fields: None)
    nudges = []
    get_feed(app).add_nudge_listener(lambda: nudges.append(1))
    owner = DeviceStatus()
    owner.update(mode="serial", connected=True, drawn=DRAWN)
    take(owner.snapshot())
    assert get_status(app).snapshot()["drawn"] == DRAWN and nudges == [1]
