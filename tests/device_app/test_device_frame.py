"""The panel's pixels are the firmware's: /device/frame against firmware/frame.py itself."""

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
