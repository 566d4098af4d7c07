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
from dataclasses import dataclass

from companion_app.bridge.checkreport import FAIL, PASS, WARN, Report, led_words
from companion_app.bridge.detect import BAUD
from companion_app.bridge.firmware import load_firmware, load_pins
from companion_app.bridge.probe import ALL_SEATS, NoBox, Probe
from firmware import protocol as P

__all__ = [
    "FAIL",
    "PASS",
    "WARN",
    "BoxCheck",
    "Builder",
    "CheckStopped",
    "ConsoleBuilder",
    "Led",
    "Report",
]


class CheckStopped(Exception):
    """The builder stopped the check (the box page's Stop, or nobody answering)."""


SETTLE_S = 1.0  # after a press, how long a second report of it is waited for
#: How long a SET or ARM may take to be acknowledged before the builder is asked anyway: a
#: press asked for before the box is armed is not counted, and an LED asked about before the
#: box shows it looks dark (a loaded host took over 1 s).
ARM_WAIT_S = 10.0
RAID_S = 4.2  # the raid animation (firmware/frame.py RAID_MS) and a little
SEGMENTS = ("police", "round", "seat")
#: What lights one LED, and in which colour: the segment's state that shows it.
COLOURS = {"police": "red", "round": "amber", "seat": "blue"}
PRESSED = "green"  # a seat's pixel once its press is locked in
#: What feeds the strip, in the order a builder tests it when every LED stays dark: 5 V and
#: GND from the DevKitC's header (Espressif's pin names), the 74AHCT125's supply and enable,
#: then the data pin (hardware/pinout.json; tests/firmware/test_hardware.py holds them equal).
STRIP_FEED = {
    "v5_header": "J1-19",
    "gnd_header": "J1-14",
    "vcc_pin": 14,
    "gnd_pin": 7,
    "oe_pin": 1,
    "input_pin": 2,
    "gpio": 13,
    "data_header": "J1-15",
}
#: The ESP32_GENERIC build assumes a 40 MHz crystal; on a 26 MHz board every rate runs at
#: 26/40 of its setting, so the ROM's boot text shows at 74880 baud instead of 115200.
CRYSTAL_MHZ, OTHER_CRYSTAL_MHZ = 40, 26
READABLE = frozenset(range(0x20, 0x7F)) | {0x09, 0x0A, 0x0D}
GARBLED_SHARE = 0.25  # more unreadable bytes than this: the line is garbled, not a REPL
GARBLED_MIN = 8  # fewer bytes than this tell nothing


@dataclass(frozen=True)
class Led:
    """One pixel of the strip: its index on the chain and its place in its segment."""

    index: int  # 0-based position on the data line
    segment: str  # police, round or seat
    number: int  # 1-based within the segment (seat LEDs: the seat)

    def __str__(self):
        return led_words(self.as_json())

    def as_json(self):
        return {"index": self.index, "segment": self.segment, "number": self.number}


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
        self.strip_dark = False  # every LED stayed dark: one finding, no green asked for

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
            unreadable = garbled(exc.heard)
            if unreadable is None:
                self.report.add(FAIL, "box", "no_box", problem=str(exc))
            else:
                self.report.add(
                    FAIL,
                    "box",
                    "line_garbled",
                    count=len(exc.heard),
                    share=unreadable,
                    baud=BAUD,
                    boot_baud=BAUD * OTHER_CRYSTAL_MHZ // CRYSTAL_MHZ,
                    crystal=CRYSTAL_MHZ,
                    other_crystal=OTHER_CRYSTAL_MHZ,
                )
        except CheckStopped as exc:
            self.report.stopped = str(exc)
        finally:
            if self.probe is not None:
                self.probe.close()
        return self.report

    # ----- steps --------------------------------------------------------------------------

    def check_firmware(self):
        """The box's firmware and protocol are this companion's, and the strip is the pinout's."""
        hello, ours = self.report.hello, self.fw.box.FW_VERSION
        fw, proto = hello.get("fw"), hello.get("proto")
        if fw == ours and proto == str(P.PROTO_VERSION):
            self.report.add(PASS, "firmware", "fw_ok", fw=fw, proto=proto)
        else:
            self.report.add(
                FAIL,
                "firmware",
                "fw_other",
                fw=fw,
                proto=proto,
                ours=ours,
                our_proto=P.PROTO_VERSION,
            )
        frame = self.fw.frame.Frame
        expected = f"{frame.POLICE_LEDS},{frame.ROUND_LEDS},{frame.SEAT_LEDS}"
        if hello.get("layout") != expected:
            self.report.add(
                FAIL, "layout", "layout_other", layout=hello.get("layout"), expected=expected
            )

    def check_reopen(self):
        """Close the port and open it again: the boot nonce must be the same (no reset)."""
        before = self.report.hello.get("boot")
        self.probe.close()
        self.probe = self.open_probe(self.path)
        after = self.probe.open().get("boot")
        if before and before == after:
            self.report.add(PASS, "port", "port_kept", boot=before)
        else:
            self.report.add(FAIL, "port", "port_reset", before=before, after=after)

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
            self.report.add(PASS, "leds", "leds_ok", count=len(leds))
            return
        if dark == leds:  # nothing reaches the strip: one cause, found in the order below
            self.strip_dark = True
            self.report.add(FAIL, "leds", "strip_dark", count=len(leds), **STRIP_FEED)
            return
        for led in dark:
            self.report.add(FAIL, "leds", led_fault(led, dark, leds), **led_params(led))

    def light(self, led):
        """Put the box in the state that shows `led` in its colour: police N of 7 (the last
        one is a raid: red and blue flashes for 4 s, then red), round N, seat N armed."""
        if led.segment == "police":
            self.acknowledged(self.probe.show(police=led.number, limit=self.police_leds))
            if led.number == self.police_leds:
                self.builder.say("The raid flashes red and blue for 4 seconds first.")
                self.probe.pump(RAID_S)
        elif led.segment == "round":
            self.acknowledged(self.probe.show(rnd=led.number))
        else:
            self.acknowledged(self.probe.show(seats=0))
            self.acknowledged(self.probe.arm(str(led.number)))

    def acknowledged(self, at_once):
        """Go on resending until the box acknowledged (at most ARM_WAIT_S) if it did not at
        once: the builder is asked about what the box shows only once it shows it."""
        if not at_once:
            self.probe.settle(ARM_WAIT_S)

    def check_buttons(self):
        """Each seat's button pressed once when asked: that seat, once, and its LED green."""
        leds = {
            led.number: led
            for led in strip_leds(self.report.hello["layout"])
            if led.segment == "seat"
        }
        beep_since = None
        for seat in sorted(leds):
            self.acknowledged(self.probe.arm(ALL_SEATS))
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
            self.report.add(
                FAIL, "button", "press_silent", seat=seat, timeout=round(timeout), gpio=gpio(seat)
            )
            return
        when, _, got = probe.presses[start]
        green = self.strip_dark or (self.builder.sees(led, PRESSED) if got == seat else False)
        probe.arm(ALL_SEATS)  # a fresh reveal: a bounce or a second press would count now
        probe.pump(SETTLE_S)
        extra = [p[2] for p in probe.presses[start + 1 :]]
        if got != seat:
            self.report.add(
                FAIL,
                "button",
                "press_swapped",
                seat=seat,
                got=got,
                gpio=gpio(seat),
                gpio_got=gpio(got),
            )
        elif extra:
            again = ", ".join(str(s) for s in extra)
            self.report.add(FAIL, "button", "press_twice", seat=seat, extra=again)
        elif down is not None:
            ms = round((when - down) * 1000)
            self.report.add(PASS, "button", "press_once_ms", seat=seat, ms=ms)
        else:
            self.report.add(PASS, "button", "press_once_s", seat=seat, s=f"{when - asked:.1f}")
        if got == seat and not green:
            self.report.add(FAIL, "leds", "led_not_green", seat=seat, led=led.as_json())

    def check_piezo(self, since):
        """A beep came with the presses (the piezo is optional: none is a warning)."""
        heard = self.builder.heard_beep(since)
        if heard:
            self.report.add(PASS, "piezo", "beep_ok")
        elif heard is None:
            self.report.add(WARN, "piezo", "beep_unknown")
        else:
            self.report.add(WARN, "piezo", "beep_none")


# ----- findings -----------------------------------------------------------------------------


def led_fault(led, dark, leds):
    """The finding for a dark `led`, from which others failed too: every LED from the first
    dark one to the end of the chain dark means the data line breaks there."""
    chain = [x for x in leds if x.index >= dark[0].index]
    if len(dark) > 1 and dark == chain:
        return "led_break" if led == dark[0] else "led_after_break"
    return "led_dark"


def garbled(heard):
    """The share (%) of unreadable bytes in what the port said, if that many are garbled
    (a box at another baud, or a board on another crystal); None for silence or text."""
    if len(heard) < GARBLED_MIN:
        return None
    unreadable = sum(byte not in READABLE for byte in heard) / len(heard)
    return round(100 * unreadable) if unreadable > GARBLED_SHARE else None


def led_params(led):
    """The numbers an LED finding is worded with."""
    return {"led": led.as_json(), "number": led.index + 1, "colour": COLOURS[led.segment]}


def gpio(seat):
    """The GPIO of seat `seat`'s button (firmware/pins.py)."""
    return load_pins().BUTTONS[seat - 1]


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
