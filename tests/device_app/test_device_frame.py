"""The panel's pixels are the firmware's: /device/frame against firmware/frame.py itself."""

import time
from datetime import UTC, datetime, timedelta

from companion_app.device import frame as device_frame
from companion_app.device.frame import firmware_frame as F
from companion_app.store.reveals import Reveal

DISPLAY = {"police": 3, "limit": 7, "round": 1, "rounds": 3, "seats": 4}
NOW = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)


def firmware_pixels(police: int, seats: list[int], round_=1) -> list[list[int]]:
    """What firmware/frame.py draws for a connected box showing this, pixel by pixel."""
    scene = F.Scene(F.Frame.SEAT_LEDS)
    scene.connected = True
    scene.police, scene.limit, scene.round, scene.rounds = police, 7, round_, 3
    scene.seat[: len(seats)] = bytes(seats)
    frame = F.Frame()
    frame.render(scene, 0)
    return [list(frame.pixel(i)) for i in range(F.Frame.LED_COUNT)]


def test_police_three_of_seven_is_what_the_firmware_draws(device):
    """The endpoint's 18 pixels equal the firmware's rendering of the same scene."""
    table = device.police(device.dealt(), 3)
    status, body = device.frame(table["id"])
    assert status == 200
    idle = [F.SEAT_IDLE] * 4
    assert body["pixels"] == firmware_pixels(3, idle)
    assert body["animation"] is None and body["cap"] == F.Frame.MAX_LEVEL
    assert body["seats"] == ["idle"] * 4 + ["off"] * 2
    assert body["layout"] == {"police": [0, 7], "round": [7, 5], "seat": [12, 6]}


def test_the_fourth_police_pixel_lights_with_the_fourth_police_card(device):
    """Pixel 3 goes from the faint slot colour to police red."""
    table = device.police(device.dealt(), 3)
    before = device.frame(table["id"])[1]["pixels"][3]
    device.police(table, 1)
    after = device.frame(table["id"])[1]["pixels"][3]
    palette = F.Frame()
    assert (before, after) == (list(palette.colour(F.C_SLOT)), list(palette.colour(F.C_POLICE)))


def test_reveal_seats_show_armed_and_locked(device):
    """Armed blue, locked green, as the box shows them."""
    table = device.dealt()
    device.arm(table["id"], [0, 1, 2])
    device.press(table["id"], 1, 1)
    body = device.frame(table["id"])[1]
    seats = [F.SEAT_ARMED, F.SEAT_LOCKED, F.SEAT_ARMED, F.SEAT_IDLE]
    assert body["pixels"] == firmware_pixels(0, seats)
    assert body["seats"] == ["armed", "locked", "armed", "idle", "off", "off"]
    assert body["reveal"]["locked"] == [1]


def test_the_raid_animates_for_four_seconds_then_stays_red():
    """Police at the limit: the firmware's raid for RAID_MS after the move, then solid red."""
    raid = {**DISPLAY, "police": 7}
    moved = NOW.timestamp()
    during = device_frame.render(raid, None, NOW, now=moved + 0.2)
    assert during["animation"] == "raid"
    assert during["remaining_ms"] == device_frame.RAID_MS - 200
    palette = F.Frame()
    red, blue = list(palette.colour(F.C_RED)), list(palette.colour(F.C_BLUE))
    assert {tuple(pixel) for pixel in during["pixels"][:12]} == {tuple(red), tuple(blue)}
    after = device_frame.render(raid, None, NOW, now=moved + device_frame.RAID_MS / 1000 + 0.1)
    assert after["animation"] is None
    assert after["pixels"][:7] == [list(palette.colour(F.C_POLICE))] * 7


def test_an_old_raid_never_animates_again():
    """Days later (ticks wrap after about 12 days on the box) the row is simply red."""
    raid = {**DISPLAY, "police": 7}
    later = device_frame.render(raid, None, NOW, now=(NOW + timedelta(days=20)).timestamp())
    assert later["animation"] is None


def test_the_reveal_counts_down_then_shows_white():
    """All locked: locked seats flash for the firmware's countdown, then show revealed."""
    done = Reveal(id=1, seats=[0, 1], locked=[0, 1], revealed_at=NOW)
    start = NOW.timestamp()
    during = device_frame.render(DISPLAY, done, NOW - timedelta(hours=1), now=start + 0.5)
    assert during["animation"] == "countdown" and during["seats"][:2] == ["locked", "locked"]
    after = device_frame.render(DISPLAY, done, NOW - timedelta(hours=1), now=start + 2)
    assert after["animation"] is None
    assert after["seats"][:3] == ["revealed", "revealed", "idle"]
    assert after["pixels"][12] == list(F.Frame().colour(F.C_REVEALED))


def test_the_firmware_is_imported_from_the_repository():
    """One helper puts firmware/ on the path; the modules are the repository's files."""
    assert F.__file__ == str(device_frame.FIRMWARE_DIR / "frame.py")


# ----- the timeline: the strip's frames with the moments they show (issue 25, item 5) ------


def firmware_frame_at(scene, tick):
    """firmware/frame.py's frame of `scene` at `tick`: its pixels."""
    frame = F.Frame()
    frame.render(scene, tick)
    return [list(frame.pixel(i)) for i in range(F.Frame.LED_COUNT)]


def countdown_scene(ends_tick):
    """The box's scene while seats 1 and 2 (both armed) are locked, counting down to `ends`."""
    scene = F.Scene(F.Frame.SEAT_LEDS)
    scene.connected = True
    scene.police, scene.limit, scene.round, scene.rounds = 3, 7, 1, 3
    scene.seat[:4] = bytes([F.SEAT_LOCKED, F.SEAT_LOCKED, F.SEAT_IDLE, F.SEAT_IDLE])
    scene.countdown, scene.countdown_at = True, ends_tick
    return scene


def test_a_countdown_is_every_step_of_the_box_at_its_moment():
    """docs/protocol.md "Reveal flow": locked seats flash every 125 ms for 1500 ms from the
    last lock, then show revealed; the timeline has each frame at the strip's moment."""
    done = Reveal(id=1, seats=[0, 1], locked=[0, 1], revealed_at=NOW)
    start = NOW.timestamp()
    body = device_frame.render(DISPLAY, done, NOW - timedelta(hours=1), now=start + 0.3)
    line = body["timeline"]
    assert line["at"] == body["now"] == (start + 0.3) * 1000 and line["loop_ms"] is None
    ends_ms = 1500 - 300  # from `at`
    lag = device_frame.STRIP_LAG_MS
    moments = [step[0] for step in line["steps"]]
    assert moments == [0] + [round(ends_ms - k * 125 + lag, 1) for k in range(9, -1, -1)]
    for moment, index in line["steps"][:-1]:  # each step: the firmware's own frame then
        ms_before_end = round(ends_ms - (moment - (lag if moment else 0)) - 1)
        expected = firmware_frame_at(countdown_scene(1_000_000), 1_000_000 - ms_before_end)
        assert line["frames"][index]["pixels"] == expected, moment
    last = line["frames"][line["steps"][-1][1]]
    assert last["seats"][:2] == ["revealed", "revealed"]  # the reveal, at the end
    blinks = [line["frames"][i]["pixels"][12] for _, i in line["steps"][:-1]]
    white, green = list(F.Frame().colour(F.C_WHITE)), list(F.Frame().colour(F.C_LOCKED))
    assert blinks == [white] + [green, white] * 4 + [green]  # white while odd steps are left


def test_a_raid_is_32_steps_of_125_ms_then_solid_red():
    raid = {**DISPLAY, "police": 7}
    moved = NOW.timestamp()
    line = device_frame.render(raid, None, NOW, now=moved + 1.0)["timeline"]
    lag = device_frame.STRIP_LAG_MS
    moments = [step[0] for step in line["steps"]]
    assert moments == [0] + [round(k * 125 - 1000 + lag, 1) for k in range(9, 33)]
    palette = F.Frame()
    for moment, index in line["steps"][:-1]:
        step = int((moment - (lag if moment else 0) + 1000) // 125)
        pixels = line["frames"][index]["pixels"][:12]
        if step % 4 == 3:
            assert pixels == [list(palette.colour(F.C_WHITE))] * 12  # the strobe
        else:
            first = F.C_RED if step % 2 == 0 else F.C_BLUE
            assert pixels[0] == list(palette.colour(first))
    assert (
        line["frames"][line["steps"][-1][1]]["pixels"][:7] == [list(palette.colour(F.C_POLICE))] * 7
    )
    assert len(line["frames"]) <= 4  # red/blue, blue/red, the strobe, the end: sent once each


def test_a_box_its_bridge_cannot_reach_shows_the_disconnected_dot_on_a_loop():
    body = device_frame.render(DISPLAY, None, NOW, now=NOW.timestamp(), connected=False)
    line = body["timeline"]
    assert body["animation"] == "disconnected" and line["loop_ms"] == 22 * 90 and line["at"] == 0
    dots = [
        frame["pixels"][:12].index(list(F.Frame().colour(F.C_SCAN))) for frame in line["frames"]
    ]
    assert dots == list(range(12)) + list(range(10, 0, -1))  # there and back
    assert [step[0] for step in line["steps"]] == [k * 90 for k in range(22)]
    assert all(frame["seats"][:4] == ["idle"] * 4 for frame in line["frames"])  # seats as ever


def test_a_press_from_the_box_dates_the_countdown_from_the_box(device):
    """The bridge's `age_ms`: the box began counting down when it sent the press."""
    table = device.dealt(["Ann", "Bob"])
    device.arm(table["id"], [0, 1])
    device.press(table["id"], 1, 0)
    status, _ = device.call(
        "POST", f"/api/tables/{table['id']}/reveal/press", {"id": 1, "seat": 1, "age_ms": 400}
    )
    assert status == 200
    body = device.frame(table["id"])[1]
    remaining = body["timeline"]["steps"][-1][0] - device_frame.STRIP_LAG_MS
    assert 1500 - 400 - 150 < remaining <= 1500 - 400  # ends 400 ms sooner than if sent now


def test_a_press_age_out_of_range_is_refused_and_changes_nothing(device):
    table = device.dealt(["Ann", "Bob"])
    device.arm(table["id"], [0, 1])
    for age in (-1, 60_001, 1.5, "10", True):
        status, answer = device.call(
            "POST", f"/api/tables/{table['id']}/reveal/press", {"id": 1, "seat": 0, "age_ms": age}
        )
        assert (status, answer) == (
            400,
            {"error": "age_ms must be a whole number of milliseconds, 0 to 60000."},
        )
    assert device.view(table["id"])[1]["reveal"]["locked"] == []


def test_the_server_clock_is_there_for_panels(device):
    status, answer = device.call("GET", "/api/device/clock")
    assert status == 200 and abs(answer["now"] - time.time() * 1000) < 5000


def test_issue_34_item_4_a_raid_the_box_reports_is_drawn_from_its_moment():
    """The box began its raid 300 ms after the move (its SET came one long poll later): the
    panel's timeline steps on the box's moment, not the move's."""
    raid = {**DISPLAY, "police": 7}
    moved = NOW.timestamp()
    began = moved * 1000 + 300
    drawn = {"raid_at": began, "countdown_end": None}
    body = device_frame.render(raid, None, NOW, now=moved + 1.0, drawn=drawn)
    own = device_frame.render(raid, None, NOW, now=moved + 1.0)
    assert (body["anchored"], own["anchored"]) == ("box", "app")
    assert body["remaining_ms"] == device_frame.RAID_MS - 700 != own["remaining_ms"]
    lag = device_frame.STRIP_LAG_MS
    moments = [step[0] for step in body["timeline"]["steps"]]
    assert moments == [0] + [round(300 + k * 125 - 1000 + lag, 1) for k in range(6, 33)]


def test_issue_34_item_4_a_box_that_draws_no_raid_gets_none_on_the_panel():
    """Police still full after the raid (a later move): the box reports no raid, so the
    panel replays none; with no box the panel's own timeline starts it from the move."""
    raid = {**DISPLAY, "police": 7}
    none = {"raid_at": None, "countdown_end": None}
    body = device_frame.render(raid, None, NOW, now=NOW.timestamp() + 0.5, drawn=none)
    assert body["animation"] is None and len(body["timeline"]["steps"]) == 1
    assert device_frame.render(raid, None, NOW, now=NOW.timestamp() + 0.5)["animation"] == "raid"


def test_issue_34_item_4_the_countdown_ends_when_the_box_says():
    """The box's `countdown_end` wins over the press's moment; until the box reported it
    (its next heartbeat), the press's moment stands."""
    done = Reveal(id=1, seats=[0, 1], locked=[0, 1], revealed_at=NOW)
    start = NOW.timestamp()
    ends = start * 1000 + 1500 + 40  # the box's clock puts it 40 ms later
    drawn = {"raid_at": None, "countdown_end": ends}
    body = device_frame.render(
        DISPLAY, done, NOW - timedelta(hours=1), now=start + 0.3, drawn=drawn
    )
    assert body["anchored"] == "box" and body["remaining_ms"] == 1500 - 300 + 40
    lag = device_frame.STRIP_LAG_MS
    moments = [step[0] for step in body["timeline"]["steps"]]
    assert moments == [0] + [round(1240 - k * 125 + lag, 1) for k in range(9, -1, -1)]
    pending = {"raid_at": None, "countdown_end": None}
    early = device_frame.render(DISPLAY, done, NOW, now=start + 0.3, drawn=pending)
    assert early["remaining_ms"] == 1500 - 300  # the press's moment until the box's HB
    after = device_frame.render(DISPLAY, done, NOW, now=start + 1.52, drawn=drawn)
    assert after["animation"] == "countdown" and after["seats"][:2] == ["locked", "locked"]
