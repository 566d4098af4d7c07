"""The on-screen panel's pixels, drawn by the firmware's own renderer (`firmware/frame.py`).

The firmware's modules import each other flat (`from compat import const`), as MicroPython
does on the board; `companion_app.bridge.firmware.load_firmware()` (the bridge's loader, the
one place that loads them on the host) gives them to us without touching `sys.path`.

Time: what the box reports it draws wins (issue 34 item 4). The bridge reads the anchors of
the box's animations from its heartbeats and ACKs (the moment its raid began, the moment its
countdown ends, on the host's clock: `drawn`, in the bridge status); with them the panel draws
the box's raid and countdown. A box that reports anchors and no raid draws none (yet: its SET
is on its way; its ACK brings the raid's moment at once). Without a box (the virtual one, or
firmware older than 0.3.0) the panel keeps its own timeline: the raid from the move that
filled the police row (the table's latest activity), the countdown from the press that locked
the last seat (when the box's own button locked it, the moment the box sent it: its `age_ms`).

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
__all__ = ["FIRMWARE_DIR", "anchors", "firmware_frame", "render"]

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


def anchors(
    display: dict, current: Reveal | None, changed_at: datetime, drawn: dict | None = None
) -> tuple[float | None, float | None]:
    """(epoch ms the raid began, epoch ms the countdown ends), None for an animation that is
    not drawn: the box's own (`drawn`, the bridge status's) when it reports them, else the
    table's timeline. The box's countdown comes in its next heartbeat; until then the press's
    own moment (dated by the same box clock) stands for it."""
    raid_at = None
    if display["police"] >= display["limit"] > 0:
        raid_at = changed_at.timestamp() * MS_PER_S if drawn is None else drawn.get("raid_at")
    countdown_end = None
    if current is not None and current.revealed_at is not None:
        countdown_end = current.revealed_at.timestamp() * MS_PER_S + COUNTDOWN_MS
    if current is not None and drawn is not None and drawn.get("countdown_end") is not None:
        countdown_end = drawn["countdown_end"]
    return raid_at, countdown_end


def build_scene(display: dict, current: Reveal | None, moments: tuple, now: float, connected=True):
    """(the firmware Scene for this moment, its tick, the running animation, ms it has left);
    `moments`: the animations' `anchors`."""
    tick = round(now * MS_PER_S) & TICKS_MASK
    now_ms = now * MS_PER_S
    raid_at, countdown_end = moments
    scene = firmware_frame.Scene(firmware_frame.Frame.SEAT_LEDS)
    scene.connected = connected  # False: a box whose bridge lost it shows the violet dot
    scene.police, scene.limit = display["police"], display["limit"]
    scene.round, scene.rounds = display["round"], display["rounds"]
    animation, left_ms = None, 0
    raid_ms = None if raid_at is None else max(0, round(now_ms - raid_at))
    if raid_ms is not None and raid_ms < RAID_MS:
        scene.raid, scene.raid_at = True, (tick - raid_ms) & TICKS_MASK
        animation, left_ms = RAID, RAID_MS - raid_ms
    counting_down = False
    countdown_ms = (
        None if countdown_end is None else min(COUNTDOWN_MS, round(countdown_end - now_ms))
    )
    if countdown_ms is not None and countdown_ms > 0:
        counting_down = True
        scene.countdown = True
        scene.countdown_at = (tick + countdown_ms) & TICKS_MASK
        animation = animation or COUNTDOWN
        left_ms = max(left_ms, countdown_ms)
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
    drawn: dict | None = None,
):
    """The panel's frame: 18 (r, g, b) pixels as the strip gets them, seat states, animation,
    the timeline of what the strip shows next (`now`: the server's epoch ms) and whose
    timeline it is (`anchored`: "box" when drawn from the box's reported anchors, `drawn`)."""
    now = time.time() if now is None else now
    moments = anchors(display, current, changed_at, drawn)
    scene, tick, animation, left_ms = build_scene(display, current, moments, now, connected)
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
        "timeline": timeline(display, current, moments, now, connected),
        "anchored": "app" if drawn is None else "box",
        "drawn": None if drawn is None else dict(drawn),
        "now": now * MS_PER_S,
    }


def timeline(display, current, moments, now, connected=True) -> dict:
    """The frames the strip shows from `now` on: `at` (epoch ms), `steps` [ms after `at`,
    index into `frames`], and `loop_ms` when they repeat (the disconnected dot)."""
    if not connected:
        return _scanner_loop(display, current, moments, now)
    now_ms = now * MS_PER_S
    steps_at = [now_ms] + sorted(m for m in _step_moments(moments, now) if m > now_ms)
    frames, steps = [], []
    for moment in steps_at:
        frame = draw(
            *build_scene(display, current, moments, (moment + DRAW_AFTER_MS) / MS_PER_S)[:2]
        )
        if frames and frames[steps[-1][1]] == frame:
            continue  # no change at this step (a seat that is not blinking)
        if frame not in frames:
            frames.append(frame)
        lag = STRIP_LAG_MS if steps else 0  # the first frame is the strip's state now
        steps.append([round(moment - now_ms + lag, 1), frames.index(frame)])
    return {"at": now_ms, "steps": steps, "frames": frames, "loop_ms": None}


def _step_moments(moments, now) -> list[float]:
    """Epoch ms of every step of the raid and the countdown still to come, and their ends,
    from the animations' `anchors`."""
    raid_at, countdown_end = moments
    now_ms = now * MS_PER_S
    steps = []
    if raid_at is not None and now_ms - raid_at < RAID_MS:
        steps += [raid_at + k * STEP_MS for k in range(RAID_MS // STEP_MS + 1)]
    if countdown_end is not None and countdown_end > now_ms:
        steps += [countdown_end - k * STEP_MS for k in range(COUNTDOWN_MS // STEP_MS + 1)]
    return steps


def _scanner_loop(display, current, moments, now) -> dict:
    """The disconnected dot's round trip along the police and round pixels, on a loop that
    starts at the epoch (the box's own phase is its clock's: unknowable)."""
    layout = firmware_frame.Frame
    span = 2 * (layout.POLICE_LEDS + layout.ROUND_LEDS - 1)
    scene = build_scene(display, current, moments, now, connected=False)[0]
    frames = [draw(scene, k * SCAN_STEP_MS) for k in range(span)]
    steps = [[k * SCAN_STEP_MS, k] for k in range(span)]
    return {"at": 0, "steps": steps, "frames": frames, "loop_ms": span * SCAN_STEP_MS}
