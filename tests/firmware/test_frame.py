"""LED frames: police, raid, rounds, seats, disconnected pattern and the brightness cap."""

import json

import frame as F
import pytest
from hypothesis import given
from hypothesis import strategies as st

from .conftest import ROOT

POLICE = range(0, 7)
ROUNDS = range(7, 12)
SEATS = range(12, 18)


def scene(**values):
    """A connected scene with the given fields."""
    s = F.Scene()
    s.connected = True
    for key, value in values.items():
        setattr(s, key, value)
    return s


def drawn(frame, pixels):
    """The (r, g, b) of some pixels of the last frame."""
    return [frame.pixel(i) for i in pixels]


def rgb(frame, colours):
    """Palette indices -> their (r, g, b) in this frame's palette."""
    return [frame.colour(c) for c in colours]


@pytest.fixture
def frame():
    return F.Frame()


@pytest.mark.parametrize("police", range(8))
def test_police_n_of_seven(frame, police):
    frame.render(scene(police=police, limit=7, raid=police == 7, raid_at=-10_000), 0)
    assert drawn(frame, POLICE) == rgb(frame, [F.C_POLICE] * police + [F.C_SLOT] * (7 - police))


@pytest.mark.parametrize("police", range(6))
def test_police_n_of_five_for_two_players_leaves_two_pixels_dark(frame, police):
    frame.render(scene(police=police, limit=5, raid=police == 5, raid_at=-10_000), 0)
    expected = [F.C_POLICE] * police + [F.C_SLOT] * (5 - police) + [F.C_OFF] * 2
    assert drawn(frame, POLICE) == rgb(frame, expected)


def test_raid_swaps_red_and_blue_halves_then_strobes_white(frame):
    s = scene(police=7, limit=7, raid=True, raid_at=1000)
    looks = []
    for step in range(4):
        frame.render(s, 1000 + step * frame.RAID_STEP_MS)
        looks.append(drawn(frame, range(12)))
    red, blue, white = (frame.colour(c) for c in (F.C_RED, F.C_BLUE, F.C_WHITE))
    assert looks[0] == [red] * 6 + [blue] * 6
    assert looks[1] == [blue] * 6 + [red] * 6
    assert looks[2] == looks[0]
    assert looks[3] == [white] * 12


def test_raid_uses_the_round_pixels_too_and_settles_to_a_solid_red_row(frame):
    s = scene(police=7, limit=7, round=2, rounds=3, raid=True, raid_at=0)
    frame.render(s, 10)
    assert frame.colour(F.C_ROUND_NOW) not in drawn(frame, ROUNDS)
    frame.render(s, frame.RAID_MS)
    assert drawn(frame, POLICE) == rgb(frame, [F.C_POLICE] * 7)
    assert drawn(frame, ROUNDS)[1] == frame.colour(F.C_ROUND_NOW)


def test_raid_animation_survives_the_tick_wrap(frame):
    start = (1 << 30) - 100
    s = scene(police=5, limit=5, raid=True, raid_at=start)
    frame.render(s, 50)  # 150 ms after the raid, past the wrap
    assert set(drawn(frame, range(12))) <= set(rgb(frame, [F.C_RED, F.C_BLUE, F.C_WHITE]))


@pytest.mark.parametrize(
    ("rnd", "rounds", "expected"),
    [
        (0, 3, ["todo", "todo", "todo", "off", "off"]),
        (1, 3, ["now", "todo", "todo", "off", "off"]),
        (2, 3, ["done", "now", "todo", "off", "off"]),
        (3, 3, ["done", "done", "now", "off", "off"]),
        (5, 5, ["done", "done", "done", "done", "now"]),
    ],
)
def test_round_r_of_up_to_five(frame, rnd, rounds, expected):
    names = {"todo": F.C_ROUND_TODO, "now": F.C_ROUND_NOW, "done": F.C_ROUND_DONE, "off": F.C_OFF}
    frame.render(scene(round=rnd, rounds=rounds), 0)
    assert drawn(frame, ROUNDS) == rgb(frame, [names[n] for n in expected])


def test_each_seat_state_has_its_own_colour(frame):
    states = bytearray(
        [F.SEAT_IDLE, F.SEAT_ARMED, F.SEAT_LOCKED, F.SEAT_REVEALED, F.SEAT_OFF, F.SEAT_IDLE]
    )
    frame.render(scene(seat=states), 0)
    expected = [F.C_IDLE, F.C_ARMED, F.C_LOCKED, F.C_REVEALED, F.C_OFF, F.C_IDLE]
    assert drawn(frame, SEATS) == rgb(frame, expected)
    colours = {frame.colour(c) for c in (F.C_IDLE, F.C_ARMED, F.C_LOCKED, F.C_REVEALED)}
    assert len(colours) == 4


def test_locked_seats_flash_during_the_countdown(frame):
    s = scene(seat=bytearray([F.SEAT_LOCKED, F.SEAT_LOCKED, 0, 0, 0, 0]))
    s.countdown = True
    s.countdown_at = 1500
    seen = set()
    for t in range(0, 1500, 25):
        frame.render(s, t)
        seen.add(tuple(drawn(frame, SEATS[:2])))
    assert seen == {tuple(rgb(frame, [c, c])) for c in (F.C_LOCKED, F.C_WHITE)}


def test_disconnected_pattern_is_one_violet_dot_bouncing(frame):
    s = scene(police=3, round=1, seat=bytearray([F.SEAT_LOCKED, 0, 0, 0, 0, 0]))
    s.connected = False
    positions = []
    for step in range(30):
        frame.render(s, step * frame.SCAN_STEP_MS)
        look = drawn(frame, range(12))
        dot = frame.colour(F.C_SCAN)
        assert look.count(dot) == 1 and look.count((0, 0, 0)) == 11
        positions.append(look.index(dot))
    assert positions[:13] == list(range(12)) + [10]
    assert drawn(frame, SEATS)[0] == frame.colour(F.C_LOCKED)  # the seats still answer presses


SCENES = st.builds(
    lambda police, limit, rnd, seats, raid, countdown, connected: scene(
        police=min(police, limit),
        limit=limit,
        round=rnd,
        rounds=5,
        seat=bytearray(seats),
        raid=raid,
        countdown=countdown,
        countdown_at=700,
        connected=connected,
    ),
    st.integers(0, 7),
    st.integers(1, 7),
    st.integers(0, 5),
    st.lists(st.integers(0, 4), min_size=6, max_size=6),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


def led_current_ma(buf, power):
    """Worst-case current of a frame: 20 mA per channel at 255, plus each pixel's idle draw."""
    per_level = power["led_ma_per_channel"] / 255
    return sum(buf) * per_level + power["led_idle_ma"] * len(buf) // 3


@given(SCENES, st.integers(0, 10_000), st.integers(0, 100))
def test_brightness_cap_is_never_exceeded(s, now, brightness):
    power = json.loads((ROOT / "hardware" / "pinout.json").read_text())["power"]
    frame = F.Frame(brightness)
    frame.render(s, now)
    assert max(frame.buf) <= frame.MAX_LEVEL
    budget = power["usb_budget_ma"] - power["esp32_reserve_ma"]
    assert led_current_ma(frame.buf, power) <= budget


def test_the_cap_keeps_even_an_all_white_strip_inside_the_usb_budget():
    power = json.loads((ROOT / "hardware" / "pinout.json").read_text())["power"]
    assert power["max_level"] == F.Frame.MAX_LEVEL
    white = bytes([F.Frame.MAX_LEVEL]) * (3 * F.Frame.LED_COUNT)
    total = power["esp32_reserve_ma"] + led_current_ma(white, power)
    assert total <= power["usb_budget_ma"]
    one_more = bytes([F.Frame.MAX_LEVEL + 3]) * (3 * F.Frame.LED_COUNT)
    assert power["esp32_reserve_ma"] + led_current_ma(one_more, power) > power["usb_budget_ma"]


def test_brightness_scales_below_the_cap_and_zero_is_dark(frame):
    s = scene(police=7, limit=7, raid=True, raid_at=-10_000, round=1)
    frame.render(s, 0)
    full = bytes(frame.buf)
    frame.set_brightness(50)
    frame.render(s, 0)
    assert max(frame.buf) == max(full) // 2
    frame.set_brightness(0)
    frame.render(s, 0)
    assert not any(frame.buf)


def test_render_writes_into_the_same_buffer(frame):
    buf = frame.buf
    frame.render(scene(police=2), 0)
    frame.render(scene(police=4), 10)
    assert frame.buf is buf and len(buf) == 3 * 18
