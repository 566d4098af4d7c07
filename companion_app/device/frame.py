"""The on-screen panel's pixels, drawn by the firmware's own renderer (`firmware/frame.py`).

The firmware's modules import each other flat (`from compat import const`), as MicroPython
does on the board; `companion_app.bridge.firmware.load_firmware()` (the bridge's loader, the
one place that loads them on the host) gives them to us without touching `sys.path`.

Time: the raid animation starts at the move that filled the police row (the table's latest
activity) and the reveal countdown at the press that locked the last seat (when the box's own
button locked it, the moment the box sent the press: its `age_ms`), as on the box.

The strip changes on the firmware's own clock: raid and countdown steps of 125 ms from the
moment they began, the "disconnected" dot every 90 ms. So the panel is not sampled: `render`
adds the `timeline`, every frame of the running animations with the moment it begins (epoch
ms), each drawn by the firmware's renderer for that moment, and the browser (static/device/
device.js) paints each at its moment on a clock set to the server's. The disconnected dot
loops (`loop_ms`); its phase is the box's own and cannot be known, so it starts at the epoch.
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
RAID, COUNTDOWN, DISCONNECTED = "raid", "countdown", "disconnected"
STEP_MS = firmware_frame.Frame.RAID_STEP_MS  # raid and countdown steps (COUNTDOWN_BLINK_MS too)
SCAN_STEP_MS = firmware_frame.Frame.SCAN_STEP_MS
#: The strip redraws on the box's 5 ms tick: a step shows on the first tick after its moment,
#: half a tick later on average, which the timeline's moments include.
STRIP_LAG_MS = _FIRMWARE.box.Box.TICK_MS / 2
#: A step's frame is drawn just after its moment: the firmware's countdown step changes 1 ms
#: after a multiple of 125 ms before its end, the raid's on it.
DRAW_AFTER_MS = 1
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


def build_scene(
    display: dict, current: Reveal | None, changed_at: datetime, now: float, connected=True
):
    """(the firmware Scene for this moment, its tick, the running animation, ms it has left)."""
    tick = round(now * MS_PER_S) & TICKS_MASK
    scene = firmware_frame.Scene(firmware_frame.Frame.SEAT_LEDS)
    scene.connected = connected  # False: a box whose bridge lost it shows the violet dot
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


def draw(scene, tick: int) -> dict:
    """One frame of the strip: its 18 (r, g, b) pixels and each seat's state."""
    drawn = firmware_frame.Frame()
    drawn.render(scene, tick)
    return {
        "pixels": [list(drawn.pixel(i)) for i in range(firmware_frame.Frame.LED_COUNT)],
        "seats": [SEAT_NAMES[code] for code in scene.seat],
    }


def render(
    display: dict,
    current: Reveal | None,
    changed_at: datetime,
    now: float | None = None,
    connected: bool = True,
):
    """The panel's frame: 18 (r, g, b) pixels as the strip gets them, seat states, animation,
    and the timeline of what the strip shows next (`now`: the server's epoch ms)."""
    now = time.time() if now is None else now
    scene, tick, animation, left_ms = build_scene(display, current, changed_at, now, connected)
    layout = firmware_frame.Frame
    return {
        **draw(scene, tick),
        "cap": layout.MAX_LEVEL,
        "animation": animation if connected else DISCONNECTED,
        "remaining_ms": left_ms,
        "layout": {
            "police": [layout.POLICE_FIRST, layout.POLICE_LEDS],
            "round": [layout.ROUND_FIRST, layout.ROUND_LEDS],
            "seat": [layout.SEAT_FIRST, layout.SEAT_LEDS],
        },
        "timeline": timeline(display, current, changed_at, now, connected),
        "now": now * MS_PER_S,
    }


def timeline(display, current, changed_at, now, connected=True) -> dict:
    """The frames the strip shows from `now` on: `at` (epoch ms), `steps` [ms after `at`,
    index into `frames`], and `loop_ms` when they repeat (the disconnected dot)."""
    if not connected:
        return _scanner_loop(display, current, changed_at, now)
    now_ms = now * MS_PER_S
    moments = [now_ms] + sorted(
        m for m in _step_moments(display, current, changed_at, now) if m > now_ms
    )
    frames, steps = [], []
    for moment in moments:
        frame = draw(
            *build_scene(display, current, changed_at, (moment + DRAW_AFTER_MS) / MS_PER_S)[:2]
        )
        if frames and frames[steps[-1][1]] == frame:
            continue  # no change at this step (a seat that is not blinking)
        if frame not in frames:
            frames.append(frame)
        lag = STRIP_LAG_MS if steps else 0  # the first frame is the strip's state now
        steps.append([round(moment - now_ms + lag, 1), frames.index(frame)])
    return {"at": now_ms, "steps": steps, "frames": frames, "loop_ms": None}


def _step_moments(display, current, changed_at, now) -> list[float]:
    """Epoch ms of every step of the raid and the countdown still to come, and their ends."""
    moments = []
    raid_ms = _elapsed_ms(changed_at, now)
    if display["police"] >= display["limit"] > 0 and raid_ms < RAID_MS:
        began = changed_at.timestamp() * MS_PER_S
        moments += [began + k * STEP_MS for k in range(RAID_MS // STEP_MS + 1)]
    if current is not None and current.revealed_at is not None:
        ends = current.revealed_at.timestamp() * MS_PER_S + COUNTDOWN_MS
        if ends > now * MS_PER_S:
            moments += [ends - k * STEP_MS for k in range(COUNTDOWN_MS // STEP_MS + 1)]
    return moments


def _scanner_loop(display, current, changed_at, now) -> dict:
    """The disconnected dot's round trip along the police and round pixels, on a loop that
    starts at the epoch (the box's own phase is its clock's: unknowable)."""
    layout = firmware_frame.Frame
    span = 2 * (layout.POLICE_LEDS + layout.ROUND_LEDS - 1)
    scene = build_scene(display, current, changed_at, now, connected=False)[0]
    frames = [draw(scene, k * SCAN_STEP_MS) for k in range(span)]
    steps = [[k * SCAN_STEP_MS, k] for k in range(span)]
    return {"at": 0, "steps": steps, "frames": frames, "loop_ms": span * SCAN_STEP_MS}
