"""Seat buttons: the first edge counts at once, bounce within the window is ignored."""

import machine
import pytest
from buttons import Buttons

GPIOS = (32, 33, 25)


@pytest.fixture
def buttons():
    pins = [machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP) for g in GPIOS]
    return Buttons(pins)


def test_nothing_pressed_reports_nothing(buttons):
    assert [buttons.poll(t) for t in range(0, 100, 5)] == [0] * 20


def test_first_edge_reacts_in_the_same_poll(buttons):
    assert buttons.poll(0) == 0
    machine.press(33)
    assert buttons.poll(1) == 0b010
    assert buttons.is_down(1)


def test_bounce_within_the_window_is_ignored(buttons):
    machine.press(25)
    assert buttons.poll(100) == 0b100
    pressed = 0
    for t, level in [(102, 1), (104, 0), (107, 1), (111, 0), (140, 1), (149, 0)]:
        (machine.release if level else machine.press)(25)
        pressed |= buttons.poll(t)
    assert pressed == 0
    assert buttons.is_down(2)


def test_release_bounce_does_not_make_a_second_press(buttons):
    machine.press(32)
    assert buttons.poll(0) == 1
    machine.release(32)
    assert buttons.poll(80) == 0  # release accepted at its first edge
    assert not buttons.is_down(0)
    for t in (82, 90, 100, 120):  # the contact chatters while opening
        machine.press(32) if t % 4 else machine.release(32)
        assert buttons.poll(t) == 0
    machine.release(32)
    assert buttons.poll(140) == 0


def test_a_new_press_after_the_window_counts(buttons):
    machine.press(32)
    assert buttons.poll(0) == 1
    machine.release(32)
    assert buttons.poll(60) == 0
    machine.press(32)
    assert buttons.poll(120) == 1


def test_a_press_inside_the_window_after_a_release_is_seen_once_the_window_ends(buttons):
    machine.press(32)
    buttons.poll(0)
    machine.release(32)
    buttons.poll(60)  # release accepted, window until 110
    machine.press(32)
    assert buttons.poll(70) == 0  # within the window: could be bounce
    assert buttons.poll(110) == 1  # still down after it: a real press


def test_holding_does_not_repeat(buttons):
    machine.press(33)
    hits = [buttons.poll(t) for t in range(0, 1000, 5)]
    assert hits.count(0b010) == 1


def test_simultaneous_presses_come_together(buttons):
    machine.press(32)
    machine.press(25)
    assert buttons.poll(0) == 0b101


def test_debounce_works_across_the_tick_wrap(buttons):
    near_end = (1 << 30) - 10
    machine.press(32)
    assert buttons.poll(near_end) == 1
    machine.release(32)
    assert buttons.poll(20) == 0  # 30 ms later, after the wrap: still in the window
    assert buttons.is_down(0)
    assert buttons.poll(45) == 0  # 55 ms later: the release is accepted
    assert not buttons.is_down(0)


def test_a_button_held_at_boot_is_not_a_press(buttons):
    machine.press(32)
    held = Buttons([machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP) for g in GPIOS])
    assert held.poll(0) == 0


def test_deinit_forgets_the_pins(buttons):
    buttons.deinit()
    machine.press(32)
    assert buttons.poll(0) == 0
