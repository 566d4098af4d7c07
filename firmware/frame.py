"""LED frame rendering: what the strip shows, drawn into one preallocated GRB buffer.

Pure (no machine, no clock of its own): `Frame.render(scene, now)` reads a `Scene` and the
time in ticks_ms and writes bytes; it allocates nothing, so it can run every few ms on the
ESP32. Every colour is scaled by the brightness cap once, when the palette is built.
"""

from compat import const, ticks_diff

SEAT_OFF = const(0)  # no such seat at this table
SEAT_IDLE = const(1)
SEAT_ARMED = const(2)  # must choose: waiting for the press
SEAT_LOCKED = const(3)  # pressed: choice locked in
SEAT_REVEALED = const(4)

# Palette indices.
C_OFF = const(0)
C_POLICE = const(1)
C_SLOT = const(2)
C_RED = const(3)
C_BLUE = const(4)
C_WHITE = const(5)
C_ROUND_DONE = const(6)
C_ROUND_NOW = const(7)
C_ROUND_TODO = const(8)
C_IDLE = const(9)
C_ARMED = const(10)
C_LOCKED = const(11)
C_REVEALED = const(12)
C_SCAN = const(13)
C_FAULT = const(14)

# Full-scale (R, G, B) of each palette index; Frame scales them under the cap.
RGB = (
    (0, 0, 0),  # off
    (255, 0, 0),  # police card in the row
    (16, 16, 40),  # empty police slot (faint)
    (255, 0, 0),  # raid red
    (0, 0, 255),  # raid blue
    (255, 255, 255),  # raid strobe / revealed
    (90, 40, 0),  # round played (dim amber)
    (255, 140, 0),  # current round (amber)
    (14, 8, 0),  # round to come (faint)
    (24, 24, 24),  # seat idle (dim white)
    (0, 90, 255),  # seat armed (blue)
    (0, 255, 0),  # seat locked (green)
    (255, 255, 255),  # seat revealed (white)
    (140, 0, 255),  # disconnected scanner (violet)
    (255, 60, 0),  # the loop failed and restarts (orange)
)

_SEAT_COLOUR = (C_OFF, C_IDLE, C_ARMED, C_LOCKED, C_REVEALED)


class Scene:
    """The state to show, as the box knows it; the box writes it, Frame only reads it."""

    def __init__(self, seats: int = 6) -> None:
        self.police = 0
        self.limit = 7  # police that end the round: 7, or 5 with 2 Razzia players
        self.round = 0  # 0 = no round yet
        self.rounds = 5
        self.seat = bytearray(seats)  # SEAT_* per seat, seat 1 first
        self.raid = False  # police reached the limit...
        self.raid_at = 0  # ...at this tick
        self.countdown = False  # every armed seat locked: counting down to the reveal...
        self.countdown_at = 0  # ...which happens at this tick
        self.connected = False  # heard the host within the silence window


class Frame:
    """Draws a Scene into `buf` (3 bytes per pixel, GRB as WS2812B expects)."""

    POLICE_FIRST = 0
    POLICE_LEDS = 7
    ROUND_FIRST = 7
    ROUND_LEDS = 5
    SEAT_FIRST = 12
    SEAT_LEDS = 6
    LED_COUNT = 18
    MAX_LEVEL = 76  # per channel, 0..255: keeps the strip inside the USB budget (hardware/BOM.md)
    RAID_MS = 4000  # the raid animation runs this long, then the row stays solid red
    RAID_STEP_MS = 125  # red/blue swap period of the raid animation
    RAID_STROBE = 4  # every 4th raid step is a white strobe
    COUNTDOWN_BLINK_MS = 125  # locked seats flash during the reveal countdown
    SCAN_STEP_MS = 90  # disconnected: the violet dot moves one pixel per step
    FAULT_STEP_MS = 250  # the loop failed: odd and even pixels swap orange/dark this often

    def __init__(self, brightness: int = 100) -> None:
        self.buf = bytearray(3 * self.LED_COUNT)
        self._pal = bytearray(3 * len(RGB))
        self.brightness = -1
        self.set_brightness(brightness)

    def set_brightness(self, percent: int) -> None:
        """Scale the palette to `percent` (0..100) of the cap; no-op when unchanged."""
        percent = min(100, max(0, percent))
        if percent == self.brightness:
            return
        self.brightness = percent
        top = self.MAX_LEVEL * percent
        for i, (r, g, b) in enumerate(RGB):
            self._pal[3 * i] = g * top // 25500
            self._pal[3 * i + 1] = r * top // 25500
            self._pal[3 * i + 2] = b * top // 25500

    def colour(self, index: int) -> tuple[int, int, int]:
        """Palette entry `index` as (r, g, b) after scaling (allocates: for tests and panels)."""
        c = 3 * index
        return (self._pal[c + 1], self._pal[c], self._pal[c + 2])

    def pixel(self, i: int) -> tuple[int, int, int]:
        """Pixel `i` of the last frame as (r, g, b) (allocates: for tests and panels)."""
        b = self.buf
        return (b[3 * i + 1], b[3 * i], b[3 * i + 2])

    def render(self, scene: Scene, now: int) -> None:
        """Draw `scene` as it should look at tick `now` into `self.buf`."""
        if not scene.connected:
            self._scanner(now)
        elif scene.raid and ticks_diff(now, scene.raid_at) < self.RAID_MS:
            self._raid(ticks_diff(now, scene.raid_at) // self.RAID_STEP_MS)
        else:
            self._police(scene)
            self._rounds(scene)
        self._seats(scene, now)

    def render_fault(self, now: int) -> None:
        """The loop failed and is restarting: odd and even pixels blink orange in turn."""
        phase = now // self.FAULT_STEP_MS & 1
        for i in range(self.LED_COUNT):
            self._put(i, C_FAULT if i & 1 == phase else C_OFF)

    def render_held(self) -> None:
        """The box holds back a state that made its code raise (Box.hold): the box-fault
        pattern, every other pixel steady orange, until the host sends a state that works."""
        for i in range(self.LED_COUNT):
            self._put(i, C_FAULT if i & 1 == 0 else C_OFF)

    def _put(self, pixel: int, colour: int) -> None:
        """Copy palette entry `colour` into `pixel`."""
        b = self.buf
        p = self._pal
        i = 3 * pixel
        c = 3 * colour
        b[i] = p[c]
        b[i + 1] = p[c + 1]
        b[i + 2] = p[c + 2]

    def _police(self, scene: Scene) -> None:
        """N of limit red, the rest of the limit faint, unused pixels dark."""
        for i in range(self.POLICE_LEDS):
            if i < scene.police and i < scene.limit:
                colour = C_POLICE
            elif i < scene.limit:
                colour = C_SLOT
            else:
                colour = C_OFF
            self._put(self.POLICE_FIRST + i, colour)

    def _rounds(self, scene: Scene) -> None:
        """Played rounds dim, the current one bright, the rounds to come faint."""
        for i in range(self.ROUND_LEDS):
            if i >= scene.rounds:
                colour = C_OFF
            elif i + 1 < scene.round:
                colour = C_ROUND_DONE
            elif i + 1 == scene.round:
                colour = C_ROUND_NOW
            else:
                colour = C_ROUND_TODO
            self._put(self.ROUND_FIRST + i, colour)

    def _raid(self, step: int) -> None:
        """Police and round pixels: red/blue halves swapping, with a white strobe."""
        count = self.POLICE_LEDS + self.ROUND_LEDS
        half = count // 2
        strobe = step % self.RAID_STROBE == self.RAID_STROBE - 1
        for i in range(count):
            if strobe:
                colour = C_WHITE
            elif (i < half) == (step & 1 == 0):
                colour = C_RED
            else:
                colour = C_BLUE
            self._put(self.POLICE_FIRST + i, colour)

    def _scanner(self, now: int) -> None:
        """Disconnected: one violet dot bouncing along the police and round pixels."""
        count = self.POLICE_LEDS + self.ROUND_LEDS
        span = 2 * (count - 1)
        pos = (now // self.SCAN_STEP_MS) % span
        if pos >= count:
            pos = span - pos
        for i in range(count):
            self._put(self.POLICE_FIRST + i, C_SCAN if i == pos else C_OFF)

    def _seats(self, scene: Scene, now: int) -> None:
        """One pixel per seat; locked seats flash white during the countdown."""
        blink = False
        if scene.countdown:
            blink = ticks_diff(scene.countdown_at, now) // self.COUNTDOWN_BLINK_MS & 1 == 1
        seats = scene.seat
        for i in range(self.SEAT_LEDS):
            state = seats[i] if i < len(seats) else SEAT_OFF
            colour = _SEAT_COLOUR[state]
            if blink and state == SEAT_LOCKED:
                colour = C_WHITE
            self._put(self.SEAT_FIRST + i, colour)
