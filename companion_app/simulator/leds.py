"""Reading an LED frame back: which segment shows what, by the firmware's own palette."""

#: Palette index names (firmware/frame.py C_*) for reading pixels; raid red = police red.
_NAMES = (
    ("C_OFF", "off"),
    ("C_POLICE", "red"),
    ("C_SLOT", "slot"),
    ("C_BLUE", "blue"),
    ("C_WHITE", "white"),
    ("C_ROUND_DONE", "done"),
    ("C_ROUND_NOW", "now"),
    ("C_ROUND_TODO", "todo"),
    ("C_IDLE", "idle"),
    ("C_ARMED", "armed"),
    ("C_LOCKED", "locked"),
    ("C_SCAN", "scan"),
)
_SYMBOL = {
    "off": ".",
    "red": "R",
    "slot": "o",
    "blue": "B",
    "white": "W",
    "done": "d",
    "now": "N",
    "todo": "t",
    "idle": "i",
    "armed": "A",
    "locked": "L",
    "scan": "*",
}


class LedView:
    """One frame (GRB bytes) as colour names per segment: police, round and seat pixels."""

    def __init__(self, frame_bytes, frame_module):
        fm = frame_module
        ref = fm.Frame()
        by_rgb = {}
        for const, name in _NAMES:
            by_rgb.setdefault(ref.colour(getattr(fm, const)), name)
        names = []
        for i in range(len(frame_bytes) // 3):
            g, r, b = frame_bytes[3 * i : 3 * i + 3]
            names.append(by_rgb.get((r, g, b), "?"))
        f = fm.Frame
        self.names = names
        self.police_px = names[f.POLICE_FIRST : f.POLICE_FIRST + f.POLICE_LEDS]
        self.round_px = names[f.ROUND_FIRST : f.ROUND_FIRST + f.ROUND_LEDS]
        self.seat_px = names[f.SEAT_FIRST : f.SEAT_FIRST + f.SEAT_LEDS]

    @property
    def police(self):
        """Police pixels lit red."""
        return self.police_px.count("red")

    @property
    def limit(self):
        """Police pixels in use (red or faint slot)."""
        return self.police_px.count("red") + self.police_px.count("slot")

    @property
    def round(self):
        """The current round (1-based) shown bright, or 0."""
        return self.round_px.index("now") + 1 if "now" in self.round_px else 0

    @property
    def raid(self):
        """True while the raid animation shows (blue, or the white strobe)."""
        top = self.police_px + self.round_px
        return "blue" in top or top.count("white") == len(top)

    @property
    def disconnected(self):
        """True while the violet 'disconnected' dot runs."""
        return "scan" in self.police_px + self.round_px

    def shows(self, police, limit, rnd):
        """True if the police and round segments show exactly this display state."""
        return (
            self.police == police
            and self.limit == limit
            and self.round == rnd
            and not self.disconnected
            and not self.raid
        )

    def text(self):
        """A one-line picture of the strip: police | rounds | seats."""

        def row(px):
            """One segment as symbols."""
            return "".join(_SYMBOL.get(n, "?") for n in px)

        return f"{row(self.police_px)} | {row(self.round_px)} | {row(self.seat_px)}"

    def __repr__(self):
        return f"LedView({self.text()})"
