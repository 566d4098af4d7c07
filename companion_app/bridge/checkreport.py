"""The first-plug check's findings (bridge/check.py) and their English wording.

A finding is a verdict, what was checked and a code with its numbers, so a page can word it
in its own language (web/boxcheck.py words it in Czech and English); `english()` is the
wording `companion device check` prints and keeps.
"""

import time
from dataclasses import dataclass, field

PASS, FAIL, WARN = "pass", "fail", "warn"

#: What was checked (`{seat}` for a seat's button).
ITEMS = {
    "box": "Box",
    "firmware": "Firmware",
    "layout": "Strip layout",
    "port": "Port",
    "leds": "LEDs",
    "button": "Seat {seat}'s button",
    "piezo": "Piezo",
}
#: What was found. An LED is `{led}`: "police LED 3 (LED 3 on the strip)".
FINDINGS = {
    "no_box": "{problem}; deploy the firmware (companion firmware deploy) and check the USB cable",
    "line_garbled": "the box's line came garbled ({count} bytes, unreadable: {share} %): the port"
    " must run at {baud} baud (companion does; a serial monitor must be set to it); if it"
    " still comes garbled, the board's crystal may not be the {crystal} MHz the firmware is"
    " built for (a {other_crystal} MHz board shows its boot text at {boot_baud} baud: open a"
    " monitor at {boot_baud} and press EN to see it); then deploy the firmware (companion"
    " firmware deploy)",
    "fw_ok": "{fw}, protocol {proto}, as shipped",
    "fw_other": "the box runs {fw} (protocol {proto}), this companion ships {ours} (protocol"
    " {our_proto}): run companion firmware deploy",
    "layout_other": "the box drives {layout} LEDs (police, round, seats), the pinout says"
    " {expected}: its pins.py is not this companion's",
    "port_kept": "opening it again did not reset the board (boot {boot} kept)",
    "port_reset": "opening it again reset the board (boot {before} became {after}): the"
    ' auto-reset circuit saw RTS without DTR (hardware/README.md, "Opening the port does not'
    ' reset the board")',
    "leds_ok": "all {count} lit in the colour asked",
    "strip_dark": "all {count} stayed dark, so nothing reaches the strip; test in this order:"
    " 1. 5 V at the strip's 5V wire (from the DevKitC's 5V, header pin {v5_header}, through"
    " the soft start); 2. GND from the strip to the DevKitC's GND (header pin {gnd_header});"
    " 3. the 74AHCT125 level shifter: 5 V on its VCC (pin {vcc_pin}), GND on its GND (pin"
    " {gnd_pin}), its OE (pin {oe_pin}) tied low; 4. the data pin: GPIO {gpio} (header pin"
    " {data_header}) to the 74AHCT125's pin {input_pin}",
    "led_break": "{led} and every LED after it stayed dark: the data line breaks at LED {number}"
    " (its DIN, or DOUT of the LED before it)",
    "led_after_break": "{led} stayed dark (after the break)",
    "led_dark": "{led} did not show {colour}: check its solder joints, or replace it",
    "led_not_green": "{led} did not turn green when seat {seat} pressed",
    "press_silent": "nothing came within {timeout} s: check the wires from seat {seat}'s button"
    " to GPIO {gpio} and to GND (hardware/README.md, Pinout)",
    "press_swapped": "the box reported seat {got}: the wires of seats {seat} and {got} are"
    " swapped (GPIO {gpio} and GPIO {gpio_got})",
    "press_twice": "counted more than once (then seat {extra}): the button bounces or another"
    " is wired to it",
    "press_once_ms": "counted once, {ms} ms after it went down",
    "press_once_s": "counted once, {s} s after asking",
    "beep_ok": "beeped on the presses",
    "beep_none": "no beep: fine if none is fitted; otherwise check it sits between GPIO 4 and GND",
    "beep_unknown": "not checked",
}
COLOURS = {"red": "red", "amber": "amber", "blue": "blue", "green": "green"}


def led_words(led):
    """An LED ({"index", "segment", "number"}) in English."""
    if led["segment"] == "seat":
        return f"seat {led['number']}'s LED (LED {led['index'] + 1} on the strip)"
    return f"{led['segment']} LED {led['number']} (LED {led['index'] + 1} on the strip)"


@dataclass
class Result:
    """One finding: verdict, what was checked, and what was found (a FINDINGS code)."""

    verdict: str
    item: str
    code: str
    params: dict = field(default_factory=dict)

    def english(self):
        """`<what>: <found>` in English."""
        params = dict(self.params)
        if "led" in params:
            params["led"] = led_words(params["led"])
        if "colour" in params:
            params["colour"] = COLOURS[params["colour"]]
        return ITEMS[self.item].format(**params), FINDINGS[self.code].format(**params)

    def as_json(self):
        return {
            "verdict": self.verdict,
            "item": self.item,
            "code": self.code,
            "params": self.params,
        }


@dataclass
class Report:
    """What the check found, and what the builder can keep."""

    port: str
    started: str = field(default_factory=lambda: time.strftime("%Y-%m-%d %H:%M"))
    hello: dict = field(default_factory=dict)
    results: list = field(default_factory=list)
    stopped: str | None = None  # why the builder stopped the check before the end

    def add(self, verdict, item, code, **params):
        self.results.append(Result(verdict, item, code, params))

    @property
    def passed(self):
        """True if nothing failed (a warning is not a failure)."""
        return bool(self.results) and all(r.verdict != FAIL for r in self.results)

    @property
    def failed(self):
        """How many findings failed."""
        return sum(r.verdict == FAIL for r in self.results)

    def text(self):
        """The report as plain English text lines, to print and keep."""
        verdict = "PASS" if self.passed else f"FAIL ({self.failed} of {len(self.results)} failed)"
        hello = self.hello
        lines = [
            f"Table box check, {self.started}: {verdict}",
            f"Port {self.port}; board {hello.get('board', '?')}, chip id {hello.get('uid', '?')},"
            f" firmware {hello.get('fw', '?')} (protocol {hello.get('proto', '?')})",
        ]
        for result in self.results:
            item, found = result.english()
            lines.append(f"  {result.verdict:4}  {item}: {found}")
        return "\n".join(lines) + "\n"

    def as_json(self):
        """The report for the box page: findings by code (it words them), and the text."""
        return {
            "passed": self.passed,
            "started": self.started,
            "port": self.port,
            "hello": self.hello,
            "results": [result.as_json() for result in self.results],
            "text": self.text(),
        }
