"""The box page's first-plug check: its words in the page's language (static/device/boxcheck.js).

The check itself runs in the bridge (bridge/check.py) and reports findings by code
(bridge/checkreport.py); these are their Czech and English wordings, and the page's own.
`{name}` slots are filled by the script (numbers in the page's number format).
"""

from flask import url_for
from flask_babel import gettext


def check_words() -> dict:
    """Every sentence of the box check in the page's language."""
    return {
        "items": {
            "box": gettext("Box"),
            "firmware": gettext("Firmware"),
            "layout": gettext("LED strip layout"),
            "port": gettext("USB port"),
            "leds": gettext("LEDs"),
            "button": gettext("Seat {seat} button"),
            "piezo": gettext("Beeper"),
        },
        "findings": _findings(),
        "colours": {
            "red": gettext("red"),
            "amber": gettext("amber"),
            "blue": gettext("blue"),
            "green": gettext("green"),
        },
        "led": {
            "police": gettext("police LED {number} (LED {position} on the strip)"),
            "round": gettext("round LED {number} (LED {position} on the strip)"),
            "seat": gettext("the LED of seat {number} (LED {position} on the strip)"),
        },
        "questions": {
            "led": gettext("Does {led} light {colour}?"),
            "press": gettext("Press the button of seat {seat} once."),
            "beep": gettext("Did the box beep when the buttons were pressed?"),
            "raid": gettext(
                "Police LED 7 ends a round: the LEDs flash red and blue for 4 s first."
            ),
        },
        "waiting": gettext("Waiting for the box…"),
        "passed": gettext("The box passed the check."),
        "failed": gettext("The box failed {failed} of {total} checks."),
        "stopped": gettext("The check was stopped; the box shows the table again."),
        "report_title": gettext("Table box check, {started}"),
        "firmware_line": gettext("Firmware {fw} (protocol {proto}), chip {uid}"),
        "verdicts": {"pass": gettext("pass"), "fail": gettext("FAIL"), "warn": gettext("note")},
    }


def _findings() -> dict:
    """What the check found, by code, in the page's language."""
    return {
        "no_box": gettext(
            "The box did not answer ({problem}); copy the firmware onto it and check the USB cable."
        ),
        "line_garbled": gettext(
            "The box's line came garbled ({count} bytes, unreadable: {share} %): the port must run"
            " at {baud} baud (the companion does; a serial monitor must be set to it). If it"
            " still comes garbled, the board's crystal may not be the {crystal} MHz the firmware"
            " is built for (a {other_crystal} MHz board shows its boot text at {boot_baud} baud:"
            " open a monitor at {boot_baud} and press EN to see it). Then copy the firmware onto"
            " it again (companion firmware deploy)."
        ),
        "fw_ok": gettext("{fw}, protocol {proto}, as this companion ships it."),
        "fw_other": gettext(
            "The box runs {fw} (protocol {proto}), this companion ships {ours} (protocol"
            " {our_proto}): run companion firmware deploy."
        ),
        "layout_other": gettext(
            "The box drives {layout} LEDs (police, round, seats), the wiring says {expected}."
        ),
        "port_kept": gettext("Opening the port again did not restart the box (boot {boot} kept)."),
        "port_reset": gettext(
            "Opening the port again restarted the box (boot {before} became {after}): see"
            " \u201cOpening the port does not reset the board\u201d in hardware/README.md."
        ),
        "leds_ok": gettext("All {count} LEDs lit in the colour asked."),
        "strip_dark": gettext(
            "All {count} LEDs stayed dark, so nothing reaches the strip. Test in this order:"
            " 1. 5 V at the strip's 5V wire (from the board's 5V, header pin {v5_header},"
            " through the soft start); 2. GND from the strip to the board's GND (header pin"
            " {gnd_header}); 3. the 74AHCT125 level shifter: 5 V on its VCC (pin {vcc_pin}),"
            " GND on its GND (pin {gnd_pin}), its OE (pin {oe_pin}) tied low; 4. the data pin:"
            " GPIO {gpio} (header pin {data_header}) to the 74AHCT125's pin {input_pin}."
        ),
        "led_break": gettext(
            "{led} and every LED after it stayed dark: the data line breaks at LED {number}."
        ),
        "led_after_break": gettext("{led} stayed dark (after the break)."),
        "led_dark": gettext("{led} did not light {colour}: check its solder joints or replace it."),
        "led_not_green": gettext("{led} did not turn green when seat {seat} was pressed."),
        "press_silent": gettext(
            "Nothing came within {timeout} s: check the wires from the button of seat {seat} to"
            " GPIO {gpio} and to GND."
        ),
        "press_swapped": gettext(
            "The box reported seat {got}: the wires of seats {seat} and {got} are swapped (GPIO"
            " {gpio} and GPIO {gpio_got})."
        ),
        "press_twice": gettext(
            "Counted more than once (then seat {extra}): the button bounces or another is"
            " wired to it."
        ),
        "press_once_ms": gettext("Counted once, {ms} ms after it went down."),
        "press_once_s": gettext("Counted once, {s} s after asking."),
        "beep_ok": gettext("It beeped on the presses."),
        "beep_none": gettext(
            "No beep: fine if none is fitted; otherwise check it sits between GPIO 4 and GND."
        ),
        "beep_unknown": gettext("Not checked."),
    }


def check_urls(table_id: str) -> dict:
    """The check's endpoints, for the page's script."""
    return {
        "state": url_for("api_check.get_check", table=table_id),
        "ask": url_for("api_check.request_check", table_id=table_id),
        "answer": url_for("api_check.answer_check", table_id=table_id),
        "cancel": url_for("api_check.cancel_check", table_id=table_id),
    }
