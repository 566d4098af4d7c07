"""Razzia! end to end: the real app, the bridge and the simulated box, read off its pixels."""

import threading

from companion_app.simulator.leds import LedView
from tests.device.liveapp import SHOWN_S, Razzia

RAID_S = 4.0  # the firmware's raid animation (Frame.RAID_MS)


class Frames:
    """Collects every frame the firmware sends to the strip (the simulator's on_frame hook)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.frames = []

    def __call__(self, frame, _stamp):
        with self.lock:
            self.frames.append(frame)

    def since(self, index):
        """Frames from `index` on."""
        with self.lock:
            return self.frames[index:]


def test_police_raid_and_rounds_on_the_strip(live, make_sim, make_bridge):
    frames = Frames()
    sim = make_sim(on_frame=frames)
    make_bridge(sim)
    game = Razzia(live)
    view = sim.wait_leds(lambda v: v.shows(0, 7, 1), SHOWN_S)
    assert view.round_px == ["now", "todo", "todo", "off", "off"]  # round 1 of 3
    assert view.seat_px == ["idle"] * 4 + ["off"] * 2
    for drawn in range(1, 7):
        game.draw_police()
        view = sim.wait_leds(lambda v, n=drawn: v.shows(n, 7, 1), SHOWN_S)
        assert view, f"police {drawn}: {sim.leds()}"
        assert view.police_px == ["red"] * drawn + ["slot"] * (7 - drawn)  # the next LED lit
    before_raid = len(frames.frames)
    game.draw_police()  # the 7th: the round ends in a raid
    assert sim.wait_leds(lambda v: v.raid, SHOWN_S), sim.leds()
    after = sim.wait_leds(lambda v: v.police == 7 and not v.raid, RAID_S + SHOWN_S)
    assert after.police_px == ["red"] * 7  # the raid stays visible until the next round
    raid = [sim_view(sim, f) for f in frames.since(before_raid)]
    assert any(v.police_px[:3] == ["red"] * 3 and "blue" in v.round_px for v in raid)
    assert any(v.police_px[:3] == ["blue"] * 3 for v in raid)  # the halves swap
    assert any(set(v.police_px + v.round_px) == {"white"} for v in raid)  # the strobe
    game.next_round()
    view = sim.wait_leds(lambda v: v.shows(0, 7, 2), SHOWN_S)
    assert view.round_px == ["done", "now", "todo", "off", "off"]
    assert not live.log.server_errors()


def test_two_players_use_five_police_lights(live, sim, bridge):
    game = Razzia(live, players=("Ann", "Bob"))
    view = sim.wait_leds(lambda v: v.shows(0, 5, 1), SHOWN_S)
    assert view.police_px == ["slot"] * 5 + ["off"] * 2
    assert view.seat_px == ["idle"] * 2 + ["off"] * 4
    game.draw_police()
    assert sim.wait_leds(lambda v: v.shows(1, 5, 1), SHOWN_S)


def test_the_box_follows_the_table_the_app_chooses(live, sim, bridge):
    first = Razzia(live)
    first.draw_police()
    second = Razzia(live, players=("Ann", "Bob", "Cid"))
    # A newer table does not take the box from the game in play it shows (issue 24)...
    assert sim.wait_leds(lambda v: v.shows(1, 7, 1) and v.seat_px[3] == "idle", SHOWN_S)
    # ...pointing it there (with rights on both: this computer) does.
    live.ok("PUT", "/api/device/table", {"table": second.id})
    assert sim.wait_leds(lambda v: v.shows(0, 7, 1) and v.seat_px[3] == "off", SHOWN_S)
    live.ok("PUT", "/api/device/table", {"table": first.id})
    assert sim.wait_leds(lambda v: v.shows(1, 7, 1) and v.seat_px[3] == "idle", SHOWN_S)
    assert second.id != first.id


def test_the_status_says_connected_with_the_box_hello(live, sim, bridge):
    Razzia(live)
    assert sim.wait_leds(lambda v: v.shows(0, 7, 1), SHOWN_S)
    status = live.ok("GET", "/api/device/status")
    assert status["mode"] == "simulator" and status["connected"]
    assert status["port"] == sim.path and status["hello"]["board"] == "simulator"
    assert status["last_seen_ms"] is not None and status["last_seen_ms"] >= 0  # a host-clock age


def sim_view(sim, frame):
    """A collected frame read back like sim.leds()."""
    return LedView(frame, sim.fw.frame)
