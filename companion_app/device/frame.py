"""The on-screen panel's pixels, drawn by the firmware's own renderer (`firmware/frame.py`).

The firmware's modules import each other flat (`from compat import const`), as MicroPython
does on the board; `companion_app.bridge.firmware.load_firmware()` (the bridge's loader, the
one place that loads them on the host) gives them to us without touching `sys.path`.

Time: the raid animation starts at the move that filled the police row (the table's latest
activity) and the reveal countdown at the press that locked the last seat, as on the box.
"""

import time
from datetime import datetime

from companion_app.bridge.firmware import FIRMWARE_DIR, load_firmware
from companion_app.store.reveals import Reveal

_FIRMWARE = load_firmware()
firmware_frame = _FIRMWARE.frame
__all__ = ["FIRMWARE_DIR", "firmware_frame", "render"]

MS_PER_S = 1000
#: Ticks wrap like MicroPython's (compat.ticks_ms): 2**30 ms.
TICKS_MASK = (1 << 30) - 1
RAID_MS = firmware_frame.Frame.RAID_MS
COUNTDOWN_MS = _FIRMWARE.box.Box.COUNTDOWN_MS
RAID, COUNTDOWN = "raid", "countdown"
#: Names of the firmware's SEAT_* codes, in code order (off = no such seat at the table).
SEAT_NAMES = ("off", "idle", "armed", "locked", "revealed")


def _elapsed_ms(since: datetime, now: float) -> int:
    """Milliseconds from `since` to the wall-clock time `now` (never negative)."""
    return max(0, round((now - since.timestamp()) * MS_PER_S))


def seat_states(display: dict, current: Reveal | None, counting_down: bool) -> bytearray:
    """The firmware's SEAT_* code per box seat: off, idle, armed, locked or revealed."""
    seats = bytearray(firmware_frame.Frame.SEAT_LEDS)
    for seat in range(min(display["seats"], len(seats))):
        seats[seat] = firmware_frame.SEAT_IDLE
    if current is None:
        return seats
    for seat in current.seats:
        if seat >= len(seats):
            continue
        if seat not in current.locked:
            seats[seat] = firmware_frame.SEAT_ARMED
        elif current.revealed and not counting_down:
            seats[seat] = firmware_frame.SEAT_REVEALED
        else:
            seats[seat] = firmware_frame.SEAT_LOCKED
    return seats


def build_scene(display: dict, current: Reveal | None, changed_at: datetime, now: float):
    """(the firmware Scene for this moment, its tick, the running animation, ms it has left)."""
    tick = round(now * MS_PER_S) & TICKS_MASK
    scene = firmware_frame.Scene(firmware_frame.Frame.SEAT_LEDS)
    scene.connected = True  # the panel is wired to the app itself
    scene.police, scene.limit = display["police"], display["limit"]
    scene.round, scene.rounds = display["round"], display["rounds"]
    animation, left_ms = None, 0
    raid_ms = _elapsed_ms(changed_at, now)
    if display["police"] >= display["limit"] > 0 and raid_ms < RAID_MS:
        scene.raid, scene.raid_at = True, (tick - raid_ms) & TICKS_MASK
        animation, left_ms = RAID, RAID_MS - raid_ms
    counting_down = False
    if current is not None and current.revealed_at is not None:
        countdown_ms = _elapsed_ms(current.revealed_at, now)
        if countdown_ms < COUNTDOWN_MS:
            counting_down = True
            scene.countdown = True
            scene.countdown_at = (tick + COUNTDOWN_MS - countdown_ms) & TICKS_MASK
            animation = animation or COUNTDOWN
            left_ms = max(left_ms, COUNTDOWN_MS - countdown_ms)
    scene.seat[:] = seat_states(display, current, counting_down)
    return scene, tick, animation, left_ms


def render(display: dict, current: Reveal | None, changed_at: datetime, now: float | None = None):
    """The panel's frame: 18 (r, g, b) pixels as the strip gets them, seat states, animation."""
    now = time.time() if now is None else now
    scene, tick, animation, left_ms = build_scene(display, current, changed_at, now)
    drawn = firmware_frame.Frame()
    drawn.render(scene, tick)
    layout = firmware_frame.Frame
    return {
        "pixels": [list(drawn.pixel(i)) for i in range(layout.LED_COUNT)],
        "cap": layout.MAX_LEVEL,
        "animation": animation,
        "remaining_ms": left_ms,
        "seats": [SEAT_NAMES[code] for code in scene.seat],
        "layout": {
            "police": [layout.POLICE_FIRST, layout.POLICE_LEDS],
            "round": [layout.ROUND_FIRST, layout.ROUND_LEDS],
            "seat": [layout.SEAT_FIRST, layout.SEAT_LEDS],
        },
    }
