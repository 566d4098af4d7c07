"""Seat buttons: a level on two polls in a row counts, a one-poll glitch does not, bounce is
ignored, a quick human re-press still counts, a button held beforehand is no press."""

import machine
import pytest
from buttons import Buttons

GPIOS = (32, 33, 25)
TICK = 5  # the box's loop period (Box.TICK_MS)


@pytest.fixture
def buttons():
    pins = [machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP) for g in GPIOS]
    return Buttons(pins)


def level(gpio, down):
    """Set one button's contact."""
    (machine.press if down else machine.release)(gpio)


def run(buttons, timeline, start=0, end=None):
    """Poll every TICK from `start`; `timeline` is {ms: (gpio, down)}; the ticks with a press."""
    end = max(timeline) + 100 if end is None else end
    hits = []
    for t in range(start, end, TICK):
        if t in timeline:
            level(*timeline[t])
        if buttons.poll(t):
            hits.append(t)
    return hits


def test_nothing_pressed_reports_nothing(buttons):
    assert [buttons.poll(t) for t in range(0, 100, 5)] == [0] * 20


def test_a_press_counts_on_the_second_low_poll(buttons):
    assert buttons.poll(0) == 0
    machine.press(33)
    assert buttons.poll(5) == 0
    assert buttons.poll(10) == 0b010
    assert buttons.is_down(1)


def test_a_single_low_poll_is_a_glitch_not_a_press(buttons):
    machine.press(33)
    assert buttons.poll(5) == 0
    machine.release(33)
    assert [buttons.poll(t) for t in range(10, 200, 5)] == [0] * 38
    assert not buttons.is_down(1)


def test_glitches_every_other_poll_never_make_a_press(buttons):
    pressed = 0
    for t in range(0, 1000, 5):
        level(25, t % 10 == 0)
        pressed |= buttons.poll(t)
    assert pressed == 0


def test_bounce_after_the_press_is_ignored(buttons):
    timeline = {0: (25, True), 10: (25, False), 15: (25, True), 20: (25, False), 25: (25, True)}
    assert run(buttons, timeline, end=200) == [5]
    assert buttons.is_down(2)


def test_release_bounce_does_not_make_a_second_press(buttons):
    timeline = {0: (32, True), 80: (32, False), 90: (32, True), 95: (32, False)}
    timeline.update({100: (32, True), 105: (32, False)})
    assert run(buttons, timeline, end=300) == [5]
    assert not buttons.is_down(0)


@pytest.mark.parametrize("gap_ms", [30, 40, 60])
def test_a_quick_human_re_press_counts_twice(buttons, gap_ms):
    """Press, hold 30 ms, release, press again `gap_ms` after the first press went down."""
    timeline = {0: (32, True), 30: (32, False), 30 + gap_ms: (32, True)}
    timeline[60 + gap_ms] = (32, False)
    hits = run(buttons, timeline, end=300)
    assert len(hits) == 2, hits


def test_holding_does_not_repeat(buttons):
    machine.press(33)
    hits = [buttons.poll(t) for t in range(0, 1000, 5)]
    assert hits.count(0b010) == 1


def test_simultaneous_presses_come_together(buttons):
    machine.press(32)
    machine.press(25)
    assert buttons.poll(0) == 0
    assert buttons.poll(5) == 0b101


def test_debounce_works_across_the_tick_wrap(buttons):
    near_end = (1 << 30) - 10
    machine.press(32)
    buttons.poll(near_end)
    assert buttons.poll(near_end + 5) == 1
    machine.release(32)
    assert buttons.poll(0) == 0  # 5 ms after the press was accepted (across the wrap): bounce
    assert buttons.is_down(0)
    assert buttons.poll(10) == 0 and buttons.poll(15) == 0  # two high polls after the window
    assert not buttons.is_down(0)


def test_a_button_held_at_boot_is_not_a_press_until_pressed_again(buttons):
    machine.press(32)
    held = Buttons([machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP) for g in GPIOS])
    assert [held.poll(t) for t in range(0, 100, 5)] == [0] * 20
    machine.release(32)
    assert [held.poll(t) for t in range(100, 120, 5)] == [0] * 4
    machine.press(32)
    assert held.poll(120) == 0 and held.poll(125) == 1


def test_deinit_forgets_the_pins(buttons):
    buttons.deinit()
    machine.press(32)
    assert buttons.poll(0) == 0 and buttons.poll(5) == 0
