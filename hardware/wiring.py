"""Draws hardware/wiring.svg from hardware/pinout.json: every pin, part and value from there.

`python3 hardware/wiring.py` writes the drawing; `--check` only says whether the committed
one is current (exit 1 if not: run it without `--check`). tests/firmware/test_hardware.py
runs the check, so a pinout change without a new drawing fails.

Every ground symbol is the DevKitC's GND; "LED 5V" is the soft start's drain (one net).
"""

import json
import sys
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
PINOUT = HERE / "pinout.json"
SVG = HERE / "wiring.svg"
W, H = 1000, 660
BOARD_X, BOARD_W = 40, 210
PIN_X = BOARD_X + BOARD_W  # the board's header pins sit on its right edge
POWER, DATA, WIRE, BUTTON, PIEZO = "#c00", "#1e8c3a", "#000", "#1f5fbf", "#e67e22"
PIXEL = {"police": "#d62728", "round": "#ff9f1a", "seat": "#1f77b4"}


def ohms(value):
    """A resistance as the docs write it: "330 ohm", "10 kohm", "1 Mohm"."""
    for unit, scale in (("Mohm", 1_000_000), ("kohm", 1000)):
        if value >= scale and value % scale == 0:
            return f"{value // scale} {unit}"
    return f"{value} ohm"


def header_of(pinout, name):
    """The header pin ("J1-14") that Espressif's table gives `name` ("GND", "GPIO 13")."""
    for header in ("J1", "J3"):
        names = pinout["headers"][header]
        if name in names:
            return f"{header}-{names.index(name) + 1}"
    raise KeyError(name)


class Drawing:
    """SVG elements in the order drawn."""

    def __init__(self):
        self.parts = []

    def line(self, x1, y1, x2, y2, colour=WIRE, width=2):
        self.parts.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}"'
            f' stroke-width="{width}"/>'
        )

    def path(self, points, colour=WIRE, width=2):
        """A wire through `points`."""
        d = " ".join(f"{'M' if i == 0 else 'L'}{x} {y}" for i, (x, y) in enumerate(points))
        self.parts.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}"/>')

    def text(self, x, y, words, size=11, anchor="start", colour="#000", bold=False):
        weight = ' font-weight="bold"' if bold else ""
        self.parts.append(
            f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{colour}"'
            f"{weight}>{escape(words)}</text>"
        )

    def rect(self, x, y, w, h, fill="#fff", stroke=WIRE, rx=0):
        self.parts.append(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}"'
            f' stroke="{stroke}"/>'
        )

    def dot(self, x, y, colour=WIRE, r=3):
        self.parts.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}"/>')

    def ground(self, x, y):
        """A ground symbol hanging from (x, y)."""
        self.line(x, y, x, y + 8)
        for i, half in enumerate((9, 6, 3)):
            self.line(x - half, y + 8 + 3 * i, x + half, y + 8 + 3 * i)

    def resistor(self, x, y, length, value, vertical=False, label_side=1):
        """A resistor from (x, y), `length` long, with its value beside it."""
        if vertical:
            self.line(x, y, x, y + 10)
            self.rect(x - 6, y + 10, 12, length - 20)
            self.line(x, y + length - 10, x, y + length)
            self.text(
                x + 10 * label_side,
                y + length / 2 + 4,
                value,
                10,
                "start" if label_side > 0 else "end",
            )
        else:
            self.line(x, y, x + 10, y)
            self.rect(x + 10, y - 6, length - 20, 12)
            self.line(x + length - 10, y, x + length, y)
            self.text(x + length / 2, y - 10, value, 10, "middle")

    def capacitor(self, x, y, length, value, label_side=1, polar=False):
        """A capacitor from (x, y) down `length`, its value beside it."""
        mid = y + length / 2
        self.line(x, y, x, mid - 3)
        self.line(x - 10, mid - 3, x + 10, mid - 3)
        self.line(x - 10, mid + 3, x + 10, mid + 3)
        self.line(x, mid + 3, x, y + length)
        if polar:
            self.text(x - 14, mid - 4, "+", 10, "middle")
        self.text(x + 16 * label_side, mid + 4, value, 10, "start" if label_side > 0 else "end")

    def svg(self, title):
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}"'
            f' viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif"'
            ' font-size="13">'
        )
        body = "\n".join(self.parts)
        return f"{head}\n<title>{escape(title)}</title>\n{body}\n</svg>\n"


def board_pin(d, y, gpio_name, header):
    """One of the board's header pins: its header number and its name, a gold pad."""
    d.text(BOARD_X + 12, y + 4, header, 11, colour="#9ecbff")
    d.text(PIN_X - 10, y + 4, gpio_name, 12, "end", "#fff")
    d.dot(PIN_X, y, "#d4a017", 4)


def draw(pinout):
    """The whole drawing as SVG text."""
    d = Drawing()
    circuit = pinout["circuit"]
    shifter, soft = circuit["level_shifter"], circuit["soft_start"]
    used = shifter["used_gate"]
    d.rect(0, 0, W, H, "#ffffff", "none")
    d.rect(BOARD_X, 60, BOARD_W, 540, "#2b2b2b", "#2b2b2b", 8)
    d.text(BOARD_X + BOARD_W / 2, 88, "ESP32-DevKitC V4", 13, "middle", "#fff", True)
    d.text(BOARD_X + BOARD_W / 2, 106, "ESP32-WROOM-32E", 11, "middle", "#ccc")
    d.text(BOARD_X + 12, 124, "header pin", 10, colour="#9ecbff")
    d.text(BOARD_X + BOARD_W / 2, 588, "USB to host (5 V, serial)", 11, "middle", "#ccc")

    # The data line: GPIO -> 74AHCT125 gate 1 (with its pull-down) -> 330 ohm -> DIN.
    led = pinout["led"]
    y_data = 150
    board_pin(d, y_data, f"GPIO {led['gpio']}", led["header"])
    sx, sy, sw, sh = 450, 100, 120, 100  # the level shifter's body
    d.line(PIN_X + 4, y_data, sx - 20, y_data, DATA)
    d.dot(390, y_data, DATA)
    d.resistor(390, y_data, 60, ohms(shifter["input_pulldown_ohm"]), vertical=True, label_side=-1)
    d.text(380, y_data + 72, "pull-down", 10, "end")
    d.ground(390, y_data + 60)
    d.rect(sx, sy, sw, sh, "#f4f4f4")
    d.text(sx + sw / 2, sy + 18, shifter["chip"], 12, "middle", bold=True)
    d.text(sx + sw / 2, sy + 32, "3.3 V to 5 V, gate 1", 10, "middle")
    # left: 1A (pin 2) and 1OE (pin 1, to GND); right: 1Y (pin 3); top VCC, bottom GND.
    d.line(sx - 20, y_data, sx, y_data, DATA)
    d.text(sx + 4, y_data + 4, f"1A {used['input_pin']}", 10)
    y_oe = sy + sh - 12
    d.line(sx - 20, y_oe, sx, y_oe)
    d.text(sx + 4, y_oe + 4, f"1OE {used['enable_pin']}, tied low", 10)
    d.ground(sx - 20, y_oe)
    d.line(sx + sw, y_data, sx + sw + 20, y_data, DATA)
    d.text(sx + sw - 4, y_data + 4, f"{used['output_pin']} 1Y", 10, "end")
    vx, gx = sx + 30, sx + 90
    d.line(vx, sy, vx, sy - 40, POWER)
    d.text(vx + 4, sy - 6, f"VCC {shifter['vcc_pin']}", 10)
    d.line(gx, sy + sh, gx, sy + sh + 12)
    d.text(gx + 4, sy + sh + 12, f"GND {shifter['gnd_pin']}", 10)
    d.ground(gx, sy + sh + 12)
    # VCC from LED 5V, its 100 nF bypass to GND beside the chip.
    d.line(vx, sy - 40, sx + sw + 60, sy - 40, POWER)
    d.text(vx - 4, sy - 44, "LED 5V", 11, "end", POWER)
    bx = sx + sw + 60
    d.capacitor(bx, sy - 40, 50, f"{shifter['bypass_nf']} nF bypass")
    d.ground(bx, sy + 10)
    d.text(
        sx, sy + sh + 46, f"unused inputs {pins(shifter['unused_input_pins_to_gnd'])} to GND,", 10
    )
    d.text(
        sx, sy + sh + 58, f"unused enables {pins(shifter['unused_enable_pins_to_5v'])} to 5V,", 10
    )
    d.text(sx, sy + sh + 70, f"outputs {pins(shifter['unused_output_pins_open'])} open", 10)
    rx = sx + sw + 20
    d.resistor(rx, y_data, 70, ohms(circuit["data_resistor_ohm"]))
    strip_x = 730
    d.line(rx + 70, y_data, strip_x, y_data, DATA)
    d.text(strip_x - 4, y_data - 6, "DIN", 11, "end", DATA)
    draw_strip(d, pinout, strip_x, y_data)

    # Seat buttons: GPIO -> switch -> GND; the piezo likewise.
    y = 250
    for button in sorted(pinout["buttons"], key=lambda b: b["seat"]):
        board_pin(d, y, f"GPIO {button['gpio']}", button["header"])
        d.line(PIN_X + 4, y, 330, y, BUTTON)
        d.dot(330, y)
        d.line(330, y, 352, y - 10)
        d.dot(360, y)
        d.line(360, y, 372, y)
        d.ground(372, y)
        d.text(300, y - 6, f"seat {button['seat']}", 10, "middle")
        y += 30
    piezo = pinout["piezo"]
    y_piezo = y + 10
    board_pin(d, y_piezo, f"GPIO {piezo['gpio']}", piezo["header"])
    d.line(PIN_X + 4, y_piezo, 330, y_piezo, PIEZO)
    d.parts.append(f'<circle cx="346" cy="{y_piezo}" r="16" fill="#eee" stroke="#000"/>')
    d.text(346, y_piezo + 4, "piezo", 9, "middle")
    d.line(362, y_piezo, 372, y_piezo)
    d.ground(372, y_piezo)
    d.text(300, y_piezo - 20, "optional", 10, "middle")

    # Power: 5V pin -> AO3401A source; drain -> LED 5V; gate RC; GND pin.
    supply = pinout["supply"]
    y_5v, y_gnd = y_piezo + 60, y_piezo + 110
    board_pin(d, y_5v, "5V", supply["5v_header"])
    board_pin(d, y_gnd, "GND", supply["gnd_header"])
    d.line(PIN_X + 4, y_gnd, 290, y_gnd)
    d.ground(290, y_gnd)
    d.text(300, y_gnd + 24, "every ground symbol is this GND", 10)
    mx, mw = 560, 90  # the MOSFET's body
    d.line(PIN_X + 4, y_5v, mx, y_5v, POWER, 3)
    d.text(300, y_5v - 8, f"USB 5V ({supply['5v_header']})", 11, colour=POWER)
    d.rect(mx, y_5v - 22, mw, 44, "#f4f4f4")
    d.text(mx + mw / 2, y_5v - 4, soft["part"], 11, "middle", bold=True)
    d.text(mx + mw / 2, y_5v + 10, "P-MOSFET", 9, "middle")
    d.text(mx - 4, y_5v - 6, "S 2", 10, "end")
    d.text(mx + mw + 4, y_5v - 6, "D 3", 10)
    gate_x = mx + mw / 2
    d.line(gate_x, y_5v + 22, gate_x, y_5v + 60)
    d.text(gate_x + 4, y_5v + 34, "G 1", 10)
    # Gate capacitor from the source to the gate; gate resistor from the gate to GND.
    cx = 500
    d.dot(cx, y_5v, POWER)
    d.capacitor(cx, y_5v, 60, f"{soft['gate_to_source_uf']} uF", label_side=-1)
    d.path([(cx, y_5v + 60), (gate_x, y_5v + 60)])
    d.dot(gate_x, y_5v + 60)
    d.resistor(gate_x, y_5v + 60, 80, ohms(soft["gate_to_gnd_ohm"]))
    d.ground(gate_x + 80, y_5v + 60)
    d.text(cx - 30, y_5v + 90, "gate RC: the soft start (inrush: BOM.md)", 10)
    # LED 5V: the drain to the strip and the bulk capacitor, and to the level shifter's VCC.
    rail_x = 900
    d.path([(mx + mw, y_5v), (rail_x, y_5v), (rail_x, 80)], POWER, 3)
    d.text(mx + mw + 40, y_5v - 8, "LED 5V", 11, colour=POWER)
    d.path([(bx, sy - 40), (bx, 60), (rail_x, 60), (rail_x, 80)], POWER, 2)
    d.dot(rail_x, y_5v - 120, POWER)
    d.path([(rail_x, y_5v - 120), (950, y_5v - 120)], POWER)
    d.capacitor(
        950, y_5v - 120, 50, f"{circuit['bulk_capacitor_uf']} uF", label_side=-1, polar=True
    )
    d.ground(950, y_5v - 70)
    d.text(rail_x - 10, y_5v - 150, "bulk, at the strip", 10, "end")
    d.path([(rail_x, y_data + 50), (strip_x + 18, y_data + 50), (strip_x + 18, y_data + 8)], POWER)
    d.text(strip_x + 24, y_data + 46, "strip 5V", 10, colour=POWER)
    d.line(strip_x + 6, y_data + 8, strip_x + 6, y_data + 70)
    d.ground(strip_x + 6, y_data + 70)
    d.text(strip_x + 12, y_data + 82, "strip GND", 10)
    d.text(
        40,
        H - 16,
        "Buttons: momentary to GND, internal pull-ups. Header pins: Espressif's J1/J3. Power"
        " budget, brightness cap, inrush: hardware/BOM.md. Drawn by hardware/wiring.py.",
        10,
        colour="#555",
    )
    return d.svg("Table box wiring (drawn by hardware/wiring.py from hardware/pinout.json)")


def pins(numbers):
    """Pin numbers as a list in words: "5, 9, 12"."""
    return ", ".join(str(n) for n in numbers)


def draw_strip(d, pinout, x, y):
    """The strip: one square per pixel, coloured by segment, from DIN on."""
    d.text(x, y - 40, f"{pinout['led']['chip']} strip, {pinout['led']['count']} pixels", 11)
    for segment in pinout["led"]["segments"]:
        first = x + 13 * segment["first"]
        for i in range(segment["count"]):
            d.rect(first + 13 * i, y - 8, 11, 16, PIXEL[segment["name"]], "#333")
        middle = first + 13 * segment["count"] / 2
        d.text(middle, y - 14, f"{segment['name']} {segment['count']}", 10, "middle")


def main(argv):
    """Write the drawing, or with --check say whether it is current (exit 1 if not)."""
    svg = draw(json.loads(PINOUT.read_text()))
    if "--check" in argv:
        if SVG.read_text() == svg:
            print(f"{SVG.name} is current.")
            return 0
        print(f"{SVG.name} is not drawn from pinout.json: run python3 hardware/wiring.py")
        return 1
    SVG.write_text(svg)
    print(f"Wrote {SVG}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
