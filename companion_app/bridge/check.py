"""`companion device check`: a builder's first-plug check of the table box, ending in a report.

It walks through what can be wrong with a new box, in the order a builder fixes things:
the firmware (version, protocol, strip layout), the port (opening it again must not reset
the board: the boot nonce survives a close and reopen), every LED (each lit on its own in a
colour, the builder says whether it shows), every seat button (pressed once when asked: the
box reports exactly that seat, exactly once, and its pixel turns green) and the piezo (a beep
on the press). The builder is whoever answers: a person at the console (ConsoleBuilder) or
the simulator's eyes and hands (simulator/builder.py).
"""

import time
from dataclasses import dataclass, field

from companion_app.bridge.firmware import load_firmware, load_pins
from companion_app.bridge.probe import ALL_SEATS, NoBox, Probe
from firmware import protocol as P

PASS, FAIL, WARN = "pass", "fail", "warn"
SETTLE_S = 1.0  # after a press, how long a second report of it is waited for
RAID_S = 4.2  # the raid animation (firmware/frame.py RAID_MS) and a little
SEGMENTS = ("police", "round", "seat")
#: What lights one LED, and in which colour: the segment's state that shows it.
COLOURS = {"police": "red", "round": "amber", "seat": "blue"}
PRESSED = "green"  # a seat's pixel once its press is locked in


@dataclass(frozen=True)
class Led:
    """One pixel of the strip: its index on the chain and its place in its segment."""

    index: int  # 0-based position on the data line
    segment: str  # police, round or seat
    number: int  # 1-based within the segment (seat LEDs: the seat)

    def __str__(self):
        if self.segment == "seat":
            return f"seat {self.number}'s LED (LED {self.index + 1} on the strip)"
        return f"{self.segment} LED {self.number} (LED {self.index + 1} on the strip)"


@dataclass
class Result:
    """One line of the report."""

    verdict: str  # pass, fail or warn
    item: str
    detail: str


@dataclass
class Report:
    """What the check found, and what the builder can keep."""

    port: str
    started: str = field(default_factory=lambda: time.strftime("%Y-%m-%d %H:%M"))
    hello: dict = field(default_factory=dict)
    results: list = field(default_factory=list)

    def add(self, verdict, item, detail):
        self.results.append(Result(verdict, item, detail))

    @property
    def passed(self):
        """True if nothing failed (a warning is not a failure)."""
        return bool(self.results) and all(r.verdict != FAIL for r in self.results)

    def text(self):
        """The report as plain text lines."""
        failed = sum(r.verdict == FAIL for r in self.results)
        verdict = "PASS" if self.passed else f"FAIL ({failed} of {len(self.results)} failed)"
        hello = self.hello
        lines = [
            f"Table box check, {self.started}: {verdict}",
            f"Port {self.port}; board {hello.get('board', '?')}, chip id {hello.get('uid', '?')},"
            f" firmware {hello.get('fw', '?')} (protocol {hello.get('proto', '?')})",
        ]
        lines += [f"  {r.verdict:4}  {r.item}: {r.detail}" for r in self.results]
        return "\n".join(lines) + "\n"


class Builder:
    """Whoever answers the check's questions; ConsoleBuilder asks a person."""

    press_timeout_s = 30.0  # how long a press is waited for after asking

    def say(self, text):
        """Tell the builder what happens next."""

    def sees(self, led, colour):
        """True if `led` shows `colour` now."""
        raise NotImplementedError

    def press(self, seat):
        """Ask for one press of `seat`'s button; when it went down (clock()), if known."""
        raise NotImplementedError

    def heard_beep(self, since):
        """True if the box beeped since `since`; None if the builder cannot tell."""
        raise NotImplementedError


def strip_leds(layout):
    """Every LED of the strip from the HELLO's layout ("7,5,6"), in chain order."""
    counts = [int(n) for n in layout.split(",")]
    leds, index = [], 0
    for segment, count in zip(SEGMENTS, counts, strict=True):
        for number in range(1, count + 1):
            leds.append(Led(index, segment, number))
            index += 1
    return leds


class BoxCheck:
    """Runs the check on the box at `path` with `builder`; `run()` returns the Report."""

    def __init__(self, path, builder, open_probe=Probe, clock=time.monotonic):
        self.path = path
        self.builder = builder
        self.open_probe = open_probe
        self.clock = clock
        self.report = Report(path)
        self.fw = load_firmware()
        self.probe = None
        self.police_leds = 7

    def run(self):
        """Every step in order; a box that does not answer ends the check there."""
        try:
            self.probe = self.open_probe(self.path)
            self.report.hello = self.probe.open()
            self.check_firmware()
            self.check_reopen()
            self.check_leds()
            self.check_buttons()
            self.probe.disarm()
            self.probe.show()
        except NoBox as exc:
            self.report.add(
                FAIL,
                "Box",
                f"{exc}; deploy the firmware (companion firmware deploy) and check the USB cable",
            )
        finally:
            if self.probe is not None:
                self.probe.close()
        return self.report

    # ----- steps --------------------------------------------------------------------------

    def check_firmware(self):
        """The box's firmware and protocol are this companion's, and the strip is the pinout's."""
        hello, ours = self.report.hello, self.fw.box.FW_VERSION
        if hello.get("fw") == ours and hello.get("proto") == str(P.PROTO_VERSION):
            self.report.add(PASS, "Firmware", f"{ours}, protocol {P.PROTO_VERSION}, as shipped")
        else:
            self.report.add(
                FAIL,
                "Firmware",
                f"the box runs {hello.get('fw')} (protocol {hello.get('proto')}), this companion"
                f" ships {ours} (protocol {P.PROTO_VERSION}): run companion firmware deploy",
            )
        frame = self.fw.frame.Frame
        expected = f"{frame.POLICE_LEDS},{frame.ROUND_LEDS},{frame.SEAT_LEDS}"
        if hello.get("layout") != expected:
            self.report.add(
                FAIL,
                "Strip layout",
                f"the box drives {hello.get('layout')} LEDs (police, round, seats), the pinout"
                f" says {expected}: its pins.py is not this companion's",
            )

    def check_reopen(self):
        """Close the port and open it again: the boot nonce must be the same (no reset)."""
        before = self.report.hello.get("boot")
        self.probe.close()
        self.probe = self.open_probe(self.path)
        after = self.probe.open().get("boot")
        if before and before == after:
            self.report.add(
                PASS, "Port", f"opening it again did not reset the board (boot {before} kept)"
            )
        else:
            self.report.add(
                FAIL,
                "Port",
                f"opening it again reset the board (boot {before} became {after}): the auto-reset"
                ' circuit saw RTS without DTR (hardware/README.md, "Opening the port does not'
                ' reset the board")',
            )

    def check_leds(self):
        """Light every LED on its own in its segment's colour and ask whether it shows."""
        self.builder.say("Each LED lights on its own; say whether it shows the colour asked.")
        leds = strip_leds(self.report.hello.get("layout", "7,5,6"))
        self.police_leds = sum(led.segment == "police" for led in leds)
        dark = []
        for led in leds:
            self.light(led)
            if not self.builder.sees(led, COLOURS[led.segment]):
                dark.append(led)
        self.probe.show()
        self.probe.disarm()
        if not dark:
            self.report.add(PASS, "LEDs", f"all {len(leds)} lit in the colour asked")
            return
        for led in dark:
            self.report.add(FAIL, "LEDs", led_fault(led, COLOURS[led.segment], dark, leds))

    def light(self, led):
        """Put the box in the state that shows `led` in its colour: police N of 7 (the last
        one is a raid: red and blue flashes for 4 s, then red), round N, seat N armed."""
        if led.segment == "police":
            self.probe.show(police=led.number, limit=self.police_leds)
            if led.number == self.police_leds:
                self.builder.say("The raid flashes red and blue for 4 seconds first.")
                self.probe.pump(RAID_S)
        elif led.segment == "round":
            self.probe.show(rnd=led.number)
        else:
            self.probe.show(seats=0)
            self.probe.arm(str(led.number))

    def check_buttons(self):
        """Each seat's button pressed once when asked: that seat, once, and its LED green."""
        leds = {
            led.number: led
            for led in strip_leds(self.report.hello["layout"])
            if led.segment == "seat"
        }
        beep_since = None
        for seat in sorted(leds):
            self.probe.arm(ALL_SEATS)
            asked = self.clock()
            if beep_since is None:
                beep_since = asked
            self.builder.say(f"Press seat {seat}'s button once.")
            down = self.builder.press(seat)
            self.check_press(seat, leds[seat], asked, down)
        self.check_piezo(beep_since)

    def check_press(self, seat, led, asked, down):
        """One seat's press: which seat came, how often, how fast, and the LED's green."""
        probe = self.probe
        start = len(probe.presses)
        timeout = self.builder.press_timeout_s
        if not probe.pump_until(lambda: len(probe.presses) > start, timeout):
            self.report.add(FAIL, f"Seat {seat}'s button", button_silent(seat, timeout))
            return
        when, _, got = probe.presses[start]
        green = self.builder.sees(led, PRESSED) if got == seat else False
        probe.arm(ALL_SEATS)  # a fresh reveal: a bounce or a second press would count now
        probe.pump(SETTLE_S)
        extra = [p[2] for p in probe.presses[start + 1 :]]
        if got != seat:
            self.report.add(FAIL, f"Seat {seat}'s button", swapped(seat, got))
        elif extra:
            self.report.add(FAIL, f"Seat {seat}'s button", counted_twice(seat, extra))
        else:
            took = when - (down if down is not None else asked)
            self.report.add(PASS, f"Seat {seat}'s button", pressed_once(took, down is not None))
        if got == seat and not green:
            self.report.add(FAIL, "LEDs", f"{led} did not turn green when seat {seat} pressed")

    def check_piezo(self, since):
        """A beep came with the presses (the piezo is optional: none is a warning)."""
        heard = self.builder.heard_beep(since)
        if heard:
            self.report.add(PASS, "Piezo", "beeped on the presses")
        elif heard is None:
            self.report.add(WARN, "Piezo", "not checked")
        else:
            self.report.add(
                WARN,
                "Piezo",
                "no beep: fine if none is fitted; otherwise check it sits between GPIO 4 and GND",
            )


# ----- sentences ---------------------------------------------------------------------------


def led_fault(led, colour, dark, leds):
    """Why `led` may not have shown `colour`, from which others failed too: every LED from the
    first dark one to the end of the chain dark means the data line breaks there."""
    chain = [x for x in leds if x.index >= dark[0].index]
    if len(dark) > 1 and dark == chain:
        if led == dark[0]:
            return (
                f"{led} and every LED after it stayed dark: the data line breaks at LED"
                f" {led.index + 1} (its DIN, or DOUT of the LED before it)"
            )
        return f"{led} stayed dark (after the break)"
    return f"{led} did not show {colour}: check its solder joints, or replace it"


def gpio(seat):
    """The GPIO of seat `seat`'s button (firmware/pins.py)."""
    return load_pins().BUTTONS[seat - 1]


def button_silent(seat, timeout):
    """No press came from `seat`."""
    return (
        f"nothing came within {timeout:.0f} s: check the wires from seat {seat}'s button to"
        f" GPIO {gpio(seat)} and to GND (hardware/README.md, Pinout)"
    )


def swapped(seat, got):
    """Another seat reported the press."""
    return (
        f"the box reported seat {got}: the wires of seats {seat} and {got} are swapped"
        f" (GPIO {gpio(seat)} and GPIO {gpio(got)})"
    )


def counted_twice(seat, extra):
    """More than one press came."""
    seats = ", ".join(str(s) for s in extra)
    return (
        f"counted more than once (then seat {seats}): the button bounces or another is wired to it"
    )


def pressed_once(took_s, from_press):
    """A good press, with its timing."""
    if from_press:
        return f"counted once, {took_s * 1000:.0f} ms after it went down"
    return f"counted once, {took_s:.1f} s after asking"


class ConsoleBuilder(Builder):
    """A person at the console: questions on stdout, answers on stdin (Enter means yes)."""

    def __init__(self, ask=input, tell=print):
        self.ask = ask
        self.tell = tell

    def say(self, text):
        self.tell(text)

    def sees(self, led, colour):
        return self._yes(f"Is {led} {colour}? [Y/n] ")

    def press(self, seat):
        return None  # the check waits for the box to report it

    def heard_beep(self, since):
        return self._yes("Did the box beep when you pressed the buttons? [Y/n] ")

    def _yes(self, question):
        """True unless the answer starts with n."""
        return not self.ask(question).strip().lower().startswith("n")
