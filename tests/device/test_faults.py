"""Fault tests over a pseudo-terminal: the simulated box, the bridge and the real app.

Each test damages the link (or resets, unplugs or floods the box), then checks that the LEDs
show the app's state again within 3 s, that the app never answered 5xx, and that every
button press reached the app exactly once.
"""

import random
import threading
import time

import pytest

from tests.device.faults import KINDS, Mangler
from tests.device.liveapp import Razzia
from tests.device.play import (
    assert_each_press_once,
    assert_recovers,
    tap,
    wait_locked,
)

SEATS = [0, 1, 2, 3]  # app seats (0-based); the box numbers them 1..4
ARMED_S = 5.0  # ARM reaches the box through the damage (retries every 300 ms)
LOCKED_S = 10.0  # presses reach the app through the damage (box retries every 500 ms)


def armed(sim, seats, timeout=ARMED_S):
    """Wait until the box shows these seats armed (presses before that are not reported)."""
    want = ["armed" if i in seats else "idle" for i in range(4)]
    assert sim.wait_leds(lambda v: v.seat_px[:4] == want, timeout), sim.leds()


def reveal_round(sim, game, rng):
    """Arm every seat, press them on the box in a random order; the presses expected."""
    rid = game.arm(SEATS)
    armed(sim, SEATS)
    for seat in rng.sample(SEATS, len(SEATS)):
        tap(sim, seat + 1)
    assert wait_locked(game, SEATS, LOCKED_S), game.device()["reveal"]
    return [(rid, seat) for seat in SEATS]


@pytest.mark.parametrize("kind", KINDS)
def test_damaged_lines_both_ways(live, make_sim, make_bridge, kind):
    to_box, from_box = Mangler((kind,), seed=11), Mangler((kind,), seed=12)
    sim = make_sim(rx_filter=to_box, tx_filter=from_box)
    bridge = make_bridge(sim)
    game = Razzia(live)
    rng = random.Random(kind)
    expected = []
    for _ in range(2):
        game.draw_police()
        expected += reveal_round(sim, game, rng)
    game.draw_police()
    to_box.on = from_box.on = False
    assert_recovers(sim, game)
    assert_each_press_once(live, expected)
    assert not live.log.server_errors()
    assert to_box.done[kind] and from_box.done[kind]
    assert bridge.sessions >= 1


def test_every_kind_of_damage_at_once(live, make_sim, make_bridge):
    to_box, from_box = Mangler(rate=0.4, seed=3), Mangler(rate=0.4, seed=4)
    sim = make_sim(rx_filter=to_box, tx_filter=from_box)
    make_bridge(sim)
    game = Razzia(live)
    expected = []
    for _ in range(2):
        game.draw_police()
        expected += reveal_round(sim, game, random.Random(5))
    to_box.on = from_box.on = False
    assert_recovers(sim, game)
    assert_each_press_once(live, expected)
    assert not live.log.server_errors()


def test_a_box_reset_mid_game(live, sim, bridge):
    game = Razzia(live)
    game.draw_police()
    game.draw_police()
    rid = game.arm(SEATS)
    armed(sim, SEATS)
    tap(sim, 1)
    assert wait_locked(game, [0], LOCKED_S)
    drawn = sim.frames
    sim.reset()
    assert_recovers(sim, game, after_frame=drawn)  # police, round and seat 1's lock are back
    for seat in (2, 3, 4):
        tap(sim, seat)
    assert wait_locked(game, SEATS, LOCKED_S)
    assert_recovers(sim, game)
    assert_each_press_once(live, [(rid, s) for s in SEATS])
    assert not live.log.server_errors()


def test_unplug_and_replug_at_a_new_path(live, sim, bridge):
    game = Razzia(live)
    game.draw_police()
    rid = game.arm(SEATS)
    armed(sim, SEATS)
    old_path = sim.path
    sim.unplug()
    tap(sim, 2)  # pressed while unplugged: the box locks the seat and keeps retrying
    game.draw_police()  # the game goes on without the box
    assert sim.wait_leds(lambda v: v.disconnected, 6.0)  # after the box's 3 s of silence
    sim.replug()
    assert sim.path != old_path
    assert_recovers(sim, game)
    assert wait_locked(game, [1], LOCKED_S)
    assert_each_press_once(live, [(rid, 1)])
    assert bridge.sessions >= 2 and bridge.port_path == sim.path
    assert not live.log.server_errors()


def test_a_flood_of_button_presses(live, sim, bridge):
    game = Razzia(live)
    expected = []
    for round_no in range(3):
        rid = game.arm(SEATS)
        armed(sim, SEATS)
        hammer(sim, seats=range(1, 7), seconds=0.4, seed=round_no)
        assert wait_locked(game, SEATS, LOCKED_S)
        expected += [(rid, s) for s in SEATS]
    assert_recovers(sim, game)
    assert_each_press_once(live, expected)
    assert not live.log.server_errors()


def hammer(sim, seats, seconds, seed):
    """Every seat's button bouncing up and down at once, a few ms per edge, for `seconds`."""

    def bounce(seat, rng):
        """One button chattering until the time is up."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            sim.press(seat)
            time.sleep(rng.uniform(0.001, 0.008))
            sim.release(seat)
            time.sleep(rng.uniform(0.001, 0.008))

    threads = [
        threading.Thread(target=bounce, args=(seat, random.Random(seed * 10 + seat)))
        for seat in seats
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
