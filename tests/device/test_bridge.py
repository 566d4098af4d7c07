"""The bridge's own duties: app restarts, handler bugs, status without a box, other protocols."""

import os
import select
import threading
import time
import tty

import pytest

from companion_app.bridge.driver import Bridge
from firmware import protocol as P
from tests.device.conftest import start_bridge
from tests.device.liveapp import SHOWN_S, LiveApp, Razzia, wait_until
from tests.device.play import assert_each_press_once, assert_recovers, tap, wait_locked


def test_presses_wait_for_an_app_that_restarts(tmp_path, sim):
    live = LiveApp(tmp_path)
    port = live.server.server_port
    bridge = start_bridge(live, sim)
    try:
        game = Razzia(live)
        rid = game.arm([0, 1])
        assert sim.wait_leds(lambda v: v.seat_px[:2] == ["armed"] * 2, SHOWN_S)
        live.close()
        tap(sim, 2)  # the app is down: the box keeps retrying the PRESS
        time.sleep(3 * bridge.follower.RETRY_S / 2)
        live = LiveApp(tmp_path, port=port)  # the same database: the reveal survived
        game.live = live
        assert wait_locked(game, [1], 3 * SHOWN_S)
        assert_each_press_once(live, [(rid, 1)])
        assert_recovers(sim, game)
    finally:
        bridge.stop()
        live.close()


def test_a_bug_in_a_handler_is_logged_and_the_bridge_goes_on(live, sim, bridge, caplog):
    game = Razzia(live)
    real = bridge.on_press
    calls = []

    def buggy(token, reveal_id, seat):
        """Fails the first time."""
        calls.append(seat)
        if len(calls) == 1:
            raise RuntimeError("bug in a handler")
        real(token, reveal_id, seat)

    bridge.on_press = buggy
    rid = game.arm([0])
    assert sim.wait_leds(lambda v: v.seat_px[0] == "armed", SHOWN_S)
    sessions = bridge.sessions
    tap(sim, 1)
    assert wait_locked(game, [0], 3 * SHOWN_S)  # the box's retry went through
    assert "bug in a handler" in caplog.text and bridge.sessions == sessions
    assert_each_press_once(live, [(rid, 0)])


def test_a_bug_showing_a_view_is_logged_and_following_goes_on(live, sim, bridge, caplog):
    game = Razzia(live)
    follower = bridge.follower
    real, calls = follower._on_view, []

    def buggy(table, view):
        """Fails the first time it is handed a view with a reveal."""
        if view and view.get("reveal") and not calls:
            calls.append(table)
            raise TypeError("bug showing a view")
        real(table, view)

    follower._on_view = buggy
    game.arm([0])
    assert sim.wait_leds(lambda v: v.seat_px[0] == "armed", 3 * SHOWN_S)
    assert calls and "bug showing a view" in caplog.text


def test_without_a_box_the_status_says_so(live):
    bridge = Bridge(live.url, lambda: None, mode="serial", report=live.status.update).start()
    try:
        status = wait_until(lambda: live.ok("GET", "/api/device/status"), SHOWN_S)
        assert status["mode"] == "serial" and not status["connected"] and status["port"] is None
    finally:
        bridge.stop()


def test_stop_ends_a_long_poll_at_once(tmp_path, sim):
    live = LiveApp(tmp_path, long_poll_s=20.0)
    bridge = start_bridge(live, sim)
    try:
        game = Razzia(live)
        assert sim.wait_leds(lambda v: v.shows(0, 7, 1), SHOWN_S)
        started = time.monotonic()
        bridge.stop()
        assert time.monotonic() - started < 10.0  # not the 20 s the poll would have held
    finally:
        bridge.stop()
        # Abandoning the table changes the followed view: the app's poll returns (a newer
        # table would not: it never takes the box from a game in play, issue 24).
        live.ok("POST", f"/api/tables/{game.id}/abandon", {})
        live.close()
    assert game.id


class OtherBox:
    """A pty that answers every line with a HELLO of protocol 2 and records what it got."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.got = bytearray()
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run)
        self._thread.start()

    def _run(self):
        """Answer each chunk with a HELLO proto=2."""
        seq = 1
        while True:
            ready, _, _ = select.select([self.master, self._stop_r], [], [])
            if self._stop_r in ready:
                return
            self.got.extend(os.read(self.master, 4096))
            os.write(self.master, P.encode(seq, P.HELLO, "fw=9.0.0 proto=2 board=future"))
            seq += 1

    def close(self):
        """Stop and close every fd."""
        os.write(self._stop_w, b"x")
        self._thread.join()
        for fd in (self.master, self.slave, self._stop_r, self._stop_w):
            os.close(fd)


@pytest.fixture
def other_box():
    box = OtherBox()
    yield box
    box.close()


def test_a_box_with_another_protocol_gets_nothing_but_hello(live, other_box):
    Razzia(live)
    bridge = Bridge(
        live.url, lambda: other_box.path, mode="serial", report=live.status.update
    ).start()
    try:
        hello = wait_until(lambda: live.ok("GET", "/api/device/status")["hello"], SHOWN_S)
        assert hello["proto"] == "2" and hello["fw"] == "9.0.0"
        time.sleep(0.5)
        assert not live.ok("GET", "/api/device/status")["connected"]
    finally:
        bridge.stop()
    kinds = {P.decode(raw).kind for raw in bytes(other_box.got).split(b"\n") if raw}
    assert kinds <= {P.HELLO, P.HB}


AWAY_S = 2.0  # the bridge is gone this long after the press (a kill -9, an unplug)


def test_issue_34_item_3_a_press_made_before_the_bridge_started_is_posted_with_its_age(
    live, sim, monkeypatch
):
    """The box locked the seat AWAY_S before this bridge's session began: the app is told
    the press is that old (the panel must not replay a countdown the box already finished),
    not ~0 ms. Bounds from both sides of the real press, so a busy machine only widens them."""
    posted = []
    post = Bridge._post_press

    def record(self, client, link, token, table, body):
        posted.append((time.monotonic(), body))
        post(self, client, link, token, table, body)

    monkeypatch.setattr(Bridge, "_post_press", record)
    game = Razzia(live)
    first = start_bridge(live, sim)
    try:
        game.arm([0, 1])
        assert sim.wait_leds(lambda v: v.seat_px[:2] == ["armed"] * 2, SHOWN_S)
    finally:
        first.stop()  # the box keeps the reveal and retries what it sends
    pressed_from = time.monotonic()
    tap(sim, 1)
    pressed_by = time.monotonic()
    time.sleep(AWAY_S)
    second = start_bridge(live, sim)
    try:
        assert wait_locked(game, [0], SHOWN_S), posted
    finally:
        second.stop()
    (at, body) = posted[-1]
    slack_ms = 500  # the box clock's offset is the fastest heartbeat's: late by its trip
    assert (at - pressed_by) * 1000 - slack_ms <= body["age_ms"] <= (at - pressed_from) * 1000
    assert body["age_ms"] >= AWAY_S * 1000 - slack_ms


#: The box's clock on ours is late by the fastest heartbeat's crossing of the few heard so far.
CLOCK_SLACK_MS = 50


def test_issue_34_item_4_the_status_carries_what_the_box_draws_as_soon_as_it_draws_it(
    live, sim, bridge
):
    """The box's anchors reach the status when they change, not on the status tick: the raid's
    moment from the ACK of the SET that began it, the countdown's end from the next HB; both
    on this computer's epoch ms, inside the moments they stand for; gone once over."""
    reports = []
    report = bridge._report_to

    def recorded(**fields):
        """Keep every report that says what the box draws, with its moment."""
        if fields.get("drawn"):
            reports.append((time.time() * 1000, fields["drawn"]))
        report(**fields)

    bridge._report_to = recorded
    bridge.STATUS_S = 3600.0  # no status tick: only a change reports
    game = Razzia(live)
    assert wait_until(lambda: live.status.snapshot()["connected"], SHOWN_S)
    moved = time.time() * 1000
    while game.device()["display"]["police"] < game.device()["display"]["limit"]:
        game.draw_police()
    assert wait_until(lambda: [r for r in reports if r[1]["raid_at"]], SHOWN_S)
    told, drawn = next(r for r in reports if r[1]["raid_at"])
    assert moved <= drawn["raid_at"] <= told + CLOCK_SLACK_MS
    assert live.status.snapshot()["drawn"]["raid_at"] == drawn["raid_at"]
    assert sim.wait_leds(lambda v: not v.raid, 6.0)  # over: the next HB says no raid
    assert wait_until(lambda: live.status.snapshot()["drawn"]["raid_at"] is None, 2 * SHOWN_S)

    game.next_round()
    game.arm([0, 1])
    assert sim.wait_leds(lambda v: v.seat_px[:2] == ["armed"] * 2, SHOWN_S)
    tap(sim, 1)
    assert wait_locked(game, [0], SHOWN_S)
    before_last = time.time() * 1000
    tap(sim, 2)
    assert wait_until(lambda: [r for r in reports if r[1]["countdown_end"]], 2 * SHOWN_S)
    told, drawn = next(r for r in reports if r[1]["countdown_end"])
    assert before_last <= drawn["countdown_end"] - 1500 <= told + CLOCK_SLACK_MS
