"""`companion device check`: the builder's first-plug check (issue 25, item 6).

Against the simulated box (its eyes on the strip, its hands on the buttons, its ears on the
piezo: simulator/builder.py) it passes, and a broken LED or button fails with a sentence that
says what to fix; the checks the simulator cannot break (a port that resets the board, crossed
wires, a bouncing button, old firmware) run on a scripted box.
"""

import pytest

from companion_app import cli
from companion_app.bridge import check as C
from companion_app.bridge.firmware import load_firmware
from companion_app.bridge.probe import NoBox
from companion_app.simulator.builder import SimulatedBuilder
from tests.device.test_simulator import simulator

FW = load_firmware().box.FW_VERSION
HELLO = {"fw": FW, "proto": "1", "board": "esp32-devkitc", "uid": "246f28a1b2c3"}


def lines(report):
    """The report's result lines, without the header."""
    return report.text().splitlines()[2:]


def test_the_check_passes_on_a_good_simulated_box_and_keeps_its_report(tmp_path, capsys):
    kept = tmp_path / "box.txt"
    status = cli.main(
        ["device", "check", "--simulate", "--engine", "micropython", "--report", str(kept)]
    )
    printed = capsys.readouterr().out
    assert status == 0, printed
    text = kept.read_text()
    assert text.splitlines()[0].endswith(": PASS") and text in printed
    assert f"firmware {FW} (protocol 1)" in text.splitlines()[1]
    results = text.splitlines()[2:]
    assert results[:3] == [
        f"  pass  Firmware: {FW}, protocol 1, as shipped",
        results[1],
        "  pass  LEDs: all 18 lit in the colour asked",
    ]
    assert results[1].startswith("  pass  Port: opening it again did not reset the board (boot ")
    for seat in range(1, 7):  # each seat once, with the time from press to the host
        line = results[2 + seat]
        assert line.startswith(f"  pass  Seat {seat}'s button: counted once, ") and line.endswith(
            " ms after it went down"
        )
        # A time on the host's clock: how long it is depends on how busy the host is.
        assert int(line.split("counted once, ")[1].split(" ms")[0]) >= 0
    assert results[-1] == "  pass  Piezo: beeped on the presses"
    assert f"Report kept in {kept}." in printed


def test_a_dead_led_and_a_dead_button_fail_with_what_to_fix(tmp_path, capsys):
    kept = tmp_path / "box.txt"
    status = cli.main(
        [
            "device",
            "check",
            "--simulate",
            "--engine",
            "micropython",
            "--broken-led",
            "9",
            "--broken-button",
            "4",
            "--report",
            str(kept),
        ]
    )
    assert status == 1
    text = kept.read_text()
    assert text.splitlines()[0].endswith(": FAIL (2 of 10 failed)")
    assert (
        "  fail  LEDs: round LED 2 (LED 9 on the strip) did not show amber: check its solder"
        " joints, or replace it"
    ) in text
    assert (
        "  fail  Seat 4's button: nothing came within 3 s: check the wires from seat 4's button"
        " to GPIO 26 and to GND (hardware/README.md, Pinout)"
    ) in text
    assert "  pass  Seat 5's button: counted once" in text  # the others still count


@pytest.mark.slow
def test_a_broken_data_line_is_named_where_it_breaks():
    sim = simulator("cpython").start()
    try:
        sim.break_led(12, chain=True)  # seat 1's LED and everything after it
        report = C.BoxCheck(sim.path, SimulatedBuilder(sim)).run()
    finally:
        sim.stop()
    failed = [r.english()[1] for r in report.results if r.verdict == C.FAIL]
    assert failed[0] == (
        "seat 1's LED (LED 13 on the strip) and every LED after it stayed dark: the data line"
        " breaks at LED 13 (its DIN, or DOUT of the LED before it)"
    )
    assert failed[1:6] == [
        f"seat {n}'s LED (LED {12 + n} on the strip) stayed dark (after the break)"
        for n in range(2, 7)
    ]
    assert "seat 1's LED (LED 13 on the strip) did not turn green when seat 1 pressed" in failed
    assert not report.passed
    assert report.results[-1].verdict == C.WARN  # the CPython box has no piezo


@pytest.mark.parametrize(
    "answer, seen", [("", True), ("y", True), ("yes", True), ("n", False), (" No ", False)]
)
def test_the_console_builder_asks_plainly_and_enter_means_yes(answer, seen):
    asked = []
    builder = C.ConsoleBuilder(ask=lambda q: asked.append(q) or answer, tell=asked.append)
    assert builder.sees(C.Led(8, "round", 2), "amber") is seen
    assert asked == ["Is round LED 2 (LED 9 on the strip) amber? [Y/n] "]


# ----- a scripted box: what the simulator cannot break ----------------------------------------


class ScriptedProbe:
    """A Probe whose box answers from a script: its HELLOs and what each press reports."""

    def __init__(self, hellos, reports, clock):
        self.hellos = hellos
        self.reports = reports  # seat -> the seats the box reports when it is pressed
        self.clock = clock
        self.presses = []
        self.pressed = None

    def open(self):
        if not self.hellos:
            raise NoBox("no box answered on /dev/ttyUSB9")
        return dict(self.hellos.pop(0))

    def show(self, **state):
        return True

    def arm(self, seats="1,2,3,4,5,6"):
        return True

    def disarm(self):
        return True

    def pump(self, seconds):
        self.pump_until(lambda: False, seconds)

    def pump_until(self, done, timeout):
        if self.pressed is not None:
            for seat in self.reports.get(self.pressed, [self.pressed]):
                self.presses.append((self.clock(), 1, seat))
            self.pressed = None
        return done()

    def close(self):
        pass


class ScriptedBuilder(C.Builder):
    """Sees every LED, presses as told, heard a beep."""

    press_timeout_s = 0.1

    def __init__(self):
        self.probe = None

    def sees(self, led, colour):
        return True

    def press(self, seat):
        self.probe.pressed = seat
        return None

    def heard_beep(self, since):
        return False


def scripted_check(hellos, reports=None):
    """BoxCheck on a scripted box; its report."""
    builder = ScriptedBuilder()
    made = []
    clock = iter(range(0, 10**6)).__next__

    def open_probe(path):
        probe = ScriptedProbe(hellos, reports or {}, clock)
        builder.probe = probe
        made.append(probe)
        return probe

    layout = {"layout": "7,5,6"}
    for hello in hellos:
        hello.update(layout)
    return C.BoxCheck("/dev/ttyUSB9", builder, open_probe=open_probe, clock=clock).run()


def test_a_board_reset_by_opening_the_port_fails_the_port_check():
    report = scripted_check([{**HELLO, "boot": "11111111"}, {**HELLO, "boot": "22222222"}])
    assert lines(report)[1] == (
        "  fail  Port: opening it again reset the board (boot 11111111 became 22222222): the"
        ' auto-reset circuit saw RTS without DTR (hardware/README.md, "Opening the port does not'
        ' reset the board")'
    )


def test_old_firmware_is_told_to_deploy():
    old = {**HELLO, "fw": "0.1.0", "boot": "1"}
    report = scripted_check([old, dict(old)])
    assert lines(report)[0] == (
        f"  fail  Firmware: the box runs 0.1.0 (protocol 1), this companion ships {FW}"
        " (protocol 1): run companion firmware deploy"
    )


def test_crossed_wires_and_a_bouncing_button_are_told_apart():
    box = {**HELLO, "boot": "1"}
    report = scripted_check([box, dict(box)], reports={2: [3], 3: [2], 5: [5, 5]})
    text = report.text()
    assert (
        "  fail  Seat 2's button: the box reported seat 3: the wires of seats 2 and 3 are"
        " swapped (GPIO 33 and GPIO 25)"
    ) in text
    assert (
        "  fail  Seat 5's button: counted more than once (then seat 5): the button bounces or"
        " another is wired to it"
    ) in text
    assert "  pass  Seat 1's button: counted once, " in text and "s after asking" in text
    assert "  warn  Piezo: no beep: fine if none is fitted" in text
    assert text.splitlines()[0].endswith(": FAIL (3 of 10 failed)")


def test_no_box_on_the_port_ends_the_check_with_what_to_do():
    report = scripted_check([])
    assert lines(report) == [
        "  fail  Box: no box answered on /dev/ttyUSB9; deploy the firmware (companion firmware"
        " deploy) and check the USB cable"
    ]
    assert not report.passed


def test_broken_parts_are_refused_without_a_simulated_box(capsys):
    assert cli.main(["device", "check", "--broken-led", "3"]) == 2
    assert "add --simulate" in capsys.readouterr().err
    assert cli.main(["device", "check", "--simulate", "--broken-led", "19"]) == 2
    assert "--broken-led must be 1..18." in capsys.readouterr().err


def test_a_board_without_the_firmware_is_told_to_get_it():
    """A DevKitC with MicroPython only: its REPL answers, no box does."""
    sim = simulator("micropython", firmware=False).start()
    path = sim.path
    try:
        report = C.BoxCheck(path, SimulatedBuilder(sim)).run()
    finally:
        sim.stop()
    [line] = lines(report)
    assert line.startswith(f"  fail  Box: no box answered on {path} (it said ")
    assert line.endswith(
        "; deploy the firmware (companion firmware deploy) and check the USB cable"
    )


class _SlowBox:
    """A probe whose box acknowledges nothing at once (a loaded host): it notes what it did."""

    def __init__(self):
        self.done = []

    def show(self, **state):
        self.done.append(("show", state))
        return False

    def arm(self, seats):
        self.done.append(("arm", seats))
        return False

    def settle(self, timeout):
        self.done.append(("settle", timeout))
        return True


@pytest.mark.parametrize(
    ("segment", "steps"),
    [
        ("police", ["show", "settle"]),
        ("round", ["show", "settle"]),
        ("seat", ["show", "settle", "arm", "settle"]),
    ],
)
def test_an_led_is_asked_about_only_once_the_box_acknowledged_showing_it(segment, steps):
    """Issue 34 item 6, the stop 40 review: a SET or ARM the box did not acknowledge at once
    is resent until it is (up to ARM_WAIT_S) before the builder is asked what it sees."""
    check = C.BoxCheck("/dev/null", builder=None)
    check.probe = _SlowBox()
    check.light(C.Led(0, segment, 2))
    assert [step for step, _ in check.probe.done] == steps
    assert ("settle", C.ARM_WAIT_S) in check.probe.done
