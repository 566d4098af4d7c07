"""The check's words for the commonest build faults (issue 34, item 6).

A fully dark strip is one failure with one fix that names, in the order to test them, 5 V at
the strip, GND, the 74AHCT125 (VCC pin 14, GND pin 7, OE pin 1 low) and the data pin GPIO 13,
with the DevKitC header pins (Espressif's J1); a garbled serial line names the baud and the
crystal, then the deploy. Both faults are the simulated box's (`--dark-strip`,
`--garbled-line`), and both findings are worded in English (the CLI's report) and Czech (the
box page's words).
"""

import argparse
import json
import re
from pathlib import Path

import pytest
from flask_babel import force_locale

from companion_app import cli
from companion_app.bridge import check as C
from companion_app.cli.device import _simulated_box
from companion_app.device.check import checked_report
from companion_app.simulator.builder import SimulatedBuilder
from companion_app.simulator.line import SLOW_BAUD, garbled_line, resample
from companion_app.web.boxcheck import check_words
from tests.device.test_simulator import simulator

DARK_ENGLISH = (
    "  fail  LEDs: all 18 stayed dark, so nothing reaches the strip; test in this order:"
    " 1. 5 V at the strip's 5V wire (from the DevKitC's 5V, header pin J1-19, through the soft"
    " start); 2. GND from the strip to the DevKitC's GND (header pin J1-14); 3. the 74AHCT125"
    " level shifter: 5 V on its VCC (pin 14), GND on its GND (pin 7), its OE (pin 1) tied low;"
    " 4. the data pin: GPIO 13 (header pin J1-15) to the 74AHCT125's pin 2"
)
DARK_CZECH = (
    "LED: všech 18 LED zůstalo tmavých, na pásek tedy nic nedojde. Zkoušejte v tomto pořadí:"
    " 1. 5 V na vodiči 5V pásku (z pinu 5V desky, pin lišty J1-19, přes pozvolný náběh); 2. GND"
    " od pásku ke GND desky (pin lišty J1-14); 3. převodník úrovní 74AHCT125: 5 V na jeho VCC"
    " (pin 14), GND na jeho GND (pin 7), jeho OE (pin 1) spojený se zemí; 4. datový pin: GPIO 13"
    " (pin lišty J1-15) k pinu 2 převodníku 74AHCT125."
)


def page_line(result):
    """One finding as the box page words it (static/device/boxcheck.js `finding`)."""
    words = check_words()

    def fill(template, values):
        return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), template)

    found = fill(words["findings"][result["code"]], result["params"])
    return (
        fill(words["items"][result["item"]], result["params"]) + ": " + found[0].lower() + found[1:]
    )


class CountingBuilder(SimulatedBuilder):
    """The simulator's eyes, noting every colour it was asked to look for."""

    def __init__(self, sim):
        super().__init__(sim)
        self.looked = []

    def sees(self, led, colour):
        self.looked.append(colour)
        return super().sees(led, colour)


@pytest.fixture(scope="module")
def dark_report():
    """The check of a simulated box (the whole firmware on MicroPython) whose strip is dark."""
    sim = simulator("micropython").start()
    try:
        sim.dark_strip()
        builder = CountingBuilder(sim)
        report = C.BoxCheck(sim.path, builder).run()
    finally:
        sim.stop()
    return report, builder


def test_a_dark_strip_is_one_failure_with_one_fix_in_the_order_to_test(dark_report):
    report, _ = dark_report
    failed = [line for line in report.text().splitlines()[2:] if line.startswith("  fail")]
    assert failed == [DARK_ENGLISH]
    assert report.text().splitlines()[0].endswith(": FAIL (1 of 10 failed)")
    order = [DARK_ENGLISH.index(word) for word in ("5 V", "GND", "74AHCT125", "GPIO 13")]
    assert order == sorted(order)
    assert "breaks at LED" not in report.text() and "green" not in report.text()
    assert sum(r.verdict == C.PASS and r.item == "button" for r in report.results) == 6


def test_a_dark_strip_is_not_asked_about_again_for_the_seats_green(dark_report):
    """Every LED is looked at once; no seat's green is asked of a strip known dark."""
    report, builder = dark_report
    assert [r.code for r in report.results if r.item == "leds"] == ["strip_dark"]
    assert len(builder.looked) == 18 and "green" not in builder.looked


def test_the_box_page_words_a_dark_strip_in_czech_and_english(app, dark_report):
    report, _ = dark_report
    kept = checked_report(report.as_json())  # what the page gets passes the app's check
    [dark] = [r for r in kept["results"] if r["verdict"] == C.FAIL]
    with app.test_request_context(), force_locale("cs"):
        assert page_line(dark) == DARK_CZECH
    with app.test_request_context(), force_locale("en"):
        english = page_line(dark)
    assert english.startswith("LEDs: all 18 LEDs stayed dark, so nothing reaches the strip.")
    for words in (
        "header pin J1-19",
        "header pin J1-14",
        "VCC (pin 14)",
        "GND (pin 7)",
        "OE (pin 1) tied low",
        "GPIO 13 (header pin J1-15)",
    ):
        assert words in english and english.index(words) > 0


GARBLED_ENGLISH = re.compile(
    r"  fail  Box: the box's line came garbled \(\d+ bytes, unreadable: \d+ %\): the port must"
    r" run at 115200 baud \(companion does; a serial monitor must be set to it\); if it still"
    r" comes garbled, the board's crystal may not be the 40 MHz the firmware is built for \(a"
    r" 26 MHz board shows its boot text at 74880 baud: open a monitor at 74880 and press EN to"
    r" see it\); then deploy the firmware \(companion firmware deploy\)"
)


def test_a_garbled_line_names_the_baud_and_the_crystal_then_the_deploy(tmp_path, capsys):
    kept = tmp_path / "box.txt"
    status = cli.main(
        [
            "device",
            "check",
            "--simulate",
            "--engine",
            "micropython",
            "--garbled-line",
            "--report",
            str(kept),
        ]
    )
    assert status == 1, capsys.readouterr().out
    [line] = kept.read_text().splitlines()[2:]
    assert GARBLED_ENGLISH.fullmatch(line), line
    assert "no box answered" not in line


def test_the_box_page_words_a_garbled_line_in_czech(app):
    sim = simulator("cpython", **dict(zip(("rx_filter", "tx_filter"), garbled_line(), strict=True)))
    sim.start()
    try:
        report = C.BoxCheck(sim.path, SimulatedBuilder(sim)).run()
    finally:
        sim.stop()
    [garbled] = checked_report(report.as_json())["results"]
    assert garbled["code"] == "line_garbled"
    with app.test_request_context(), force_locale("cs"):
        czech = page_line(garbled)
    assert czech.startswith("Krabička: linka z krabičky přichází zkomolená (")
    for words in (
        "rychlostí 115200 Bd",
        "krystal 40 MHz",
        "krystalem 26 MHz",
        "rychlostí 74880 Bd",
        "nahrajte firmware znovu (companion firmware deploy)",
    ):
        assert words in czech, words
    assert czech.index("115200") < czech.index("krystal") < czech.index("nahrajte")


BOOT_TEXT = b"ets Jun  8 2016 00:22:57\r\n\r\nrst:0x1 (POWERON_RESET),boot:0x13\r\n"


@pytest.mark.parametrize(
    "heard, is_garbled",
    [
        (b"", False),  # silence: no box
        (b"MicroPython v1.27.0 on 2025-12-09; Generic ESP32 module with ESP32\r\n>>> ", False),
        (BOOT_TEXT, False),  # the ROM's text at the host's baud: readable
        (resample(BOOT_TEXT, SLOW_BAUD, 115200), True),  # the same from a 26 MHz board
    ],
)
def test_what_the_port_said_is_garbled_only_when_mostly_unreadable(heard, is_garbled):
    share = C.garbled(heard)
    assert (share is not None) is is_garbled
    assert share is None or 25 < share <= 100


def test_a_uart_at_the_same_baud_reads_what_was_sent_and_another_does_not():
    line = b"HELLO seq=1 fw=0.2.0 proto=1\n"
    assert resample(line, 115200, 115200) == line
    assert resample(line, SLOW_BAUD, 115200) != line
    assert SLOW_BAUD == 74880  # 115200 x 26 MHz / 40 MHz


def test_the_dark_strip_flag_darkens_every_led_of_the_simulated_box():
    args = argparse.Namespace(
        engine="cpython", broken_led=None, broken_button=None, dark_strip=True, garbled_line=False
    )
    sim, _ = _simulated_box(args)
    try:
        assert sim.dead_leds == set(range(18))
    finally:
        sim.stop()


def test_the_faults_are_refused_without_a_simulated_box(capsys):
    for flag in ("--dark-strip", "--garbled-line"):
        assert cli.main(["device", "check", flag]) == 2
        assert "add --simulate" in capsys.readouterr().err


def test_the_dark_strip_fix_names_the_pinouts_pins():
    """STRIP_FEED mirrors hardware/pinout.json: the header pins and the 74AHCT125's pins."""
    pinout = json.loads(
        (Path(__file__).resolve().parents[2] / "hardware" / "pinout.json").read_text()
    )
    shifter = pinout["circuit"]["level_shifter"]
    assert C.STRIP_FEED == {
        "v5_header": pinout["supply"]["5v_header"],
        "gnd_header": pinout["supply"]["gnd_header"],
        "vcc_pin": shifter["vcc_pin"],
        "gnd_pin": shifter["gnd_pin"],
        "oe_pin": shifter["used_gate"]["enable_pin"],
        "input_pin": shifter["used_gate"]["input_pin"],
        "gpio": pinout["led"]["gpio"],
        "data_header": pinout["led"]["header"],
    }
