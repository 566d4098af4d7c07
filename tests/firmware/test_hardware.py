"""hardware/pinout.json is the single source of truth: firmware, docs and diagrams agree with it."""

import json
import math
import re

import pins
import pytest
from frame import Frame

from .conftest import ROOT

HW = ROOT / "hardware"


@pytest.fixture(scope="module")
def pinout():
    return json.loads((HW / "pinout.json").read_text())


def test_firmware_pins_mirror_the_pinout(pinout):
    assert pins.LED_DATA == pinout["led"]["gpio"]
    assert pins.BUTTONS == tuple(
        b["gpio"] for b in sorted(pinout["buttons"], key=lambda b: b["seat"])
    )
    assert [b["seat"] for b in pinout["buttons"]] == list(range(1, 7))
    assert pins.PIEZO == pinout["piezo"]["gpio"]
    assert pins.BOARD == pinout["board_id"]
    assert pins.LED_COUNT == pinout["led"]["count"]


def test_strip_layout_matches_in_pins_and_frame(pinout):
    segments = {s["name"]: (s["first"], s["count"]) for s in pinout["led"]["segments"]}
    assert segments == {
        "police": (pins.POLICE_FIRST, pins.POLICE_LEDS),
        "round": (pins.ROUND_FIRST, pins.ROUND_LEDS),
        "seat": (pins.SEAT_FIRST, pins.SEAT_LEDS),
    }
    assert segments == {
        "police": (Frame.POLICE_FIRST, Frame.POLICE_LEDS),
        "round": (Frame.ROUND_FIRST, Frame.ROUND_LEDS),
        "seat": (Frame.SEAT_FIRST, Frame.SEAT_LEDS),
    }
    assert Frame.LED_COUNT == pinout["led"]["count"] == sum(c for _, c in segments.values())
    assert pinout["power"]["max_level"] == Frame.MAX_LEVEL


def test_no_pin_is_used_twice_or_forbidden(pinout):
    used = [pins.LED_DATA, *pins.BUTTONS, pins.PIEZO]
    assert len(set(used)) == len(used)
    forbidden = {g for group in pinout["avoid"].values() for g in group}
    assert {0, 2, 5, 12, 15, 34, 35, 36, 37, 38, 39} <= forbidden
    assert not forbidden & set(used)


def test_readme_pinout_table_mirrors_the_pinout(pinout):
    rows = re.findall(
        r"^\| (.+?) \| GPIO (\d+) \| (J\d-\d+) \|$", (HW / "README.md").read_text(), re.M
    )
    table = {name: (int(gpio), header) for name, gpio, header in rows}
    expected = {f"seat {b['seat']} button": (b["gpio"], b["header"]) for b in pinout["buttons"]}
    expected["LED strip data (via 74AHCT125 and 330 ohm)"] = (
        pinout["led"]["gpio"],
        pinout["led"]["header"],
    )
    expected["piezo (optional)"] = (pinout["piezo"]["gpio"], pinout["piezo"]["header"])
    assert table == expected


def test_wokwi_diagram_wires_the_pinout(pinout):
    diagram = json.loads((HW / "diagram.json").read_text())
    parts = {p["id"]: p["type"] for p in diagram["parts"]}
    assert parts["esp"] == "board-esp32-devkit-c-v4"
    links = set()
    for a, b, *_ in diagram["connections"]:
        links |= {(a, b), (b, a)}

    def peers(pin):
        return {b.split(":")[0] for a, b in links if a == pin}

    for button in pinout["buttons"]:
        part = f"btn{button['seat']}"
        assert parts[part] == "wokwi-pushbutton"
        assert part in peers(f"esp:{button['gpio']}")
        assert any(a.startswith(part + ":") and b.startswith("esp:GND") for a, b in links)
    assert peers(f"esp:{pinout['led']['gpio']}") == {"r1", "r2"}
    assert ("r1:2", "strip:DIN") in links
    (pull_down,) = [p for p in diagram["parts"] if p["id"] == "r2"]
    ohms = pinout["circuit"]["level_shifter"]["input_pulldown_ohm"]
    assert pull_down["attrs"]["value"] == str(ohms)
    assert any(b.startswith("esp:GND") for b in peers_of("r2:2", links))
    assert parts["strip"] == "wokwi-neopixel-matrix"
    (strip,) = [p for p in diagram["parts"] if p["id"] == "strip"]
    assert strip["attrs"]["cols"] == str(pinout["led"]["count"])
    assert "bz1" in peers(f"esp:{pinout['piezo']['gpio']}")


def peers_of(pin, links):
    """Every pin wired to `pin` in the Wokwi diagram."""
    return {b for a, b in links if a == pin}


def test_wiring_svg_labels_every_pin(pinout):
    svg = (HW / "wiring.svg").read_text()
    for gpio in [pinout["led"]["gpio"], pinout["piezo"]["gpio"]] + [
        b["gpio"] for b in pinout["buttons"]
    ]:
        assert f">GPIO {gpio}<" in svg


def test_bom_lists_the_parts_and_the_cap_arithmetic(pinout):
    bom = (HW / "BOM.md").read_text()
    for part in (
        "ESP32-WROOM-32E",
        "WS2812B",
        "18 pixels",
        "330 ohm",
        "220 uF",
        "1000 uF",  # with the strip's own supply
        "74AHCT125",
        "AO3401A",
        "piezo",
    ):
        assert part in bom, part
    assert f"MAX_LEVEL = {Frame.MAX_LEVEL}" in bom
    assert "18 x 60 mA = **1080 mA**" in bom


def circuit_words(pinout):
    """The circuit's values as the docs and the drawing write them."""
    circuit = pinout["circuit"]
    shifter, soft = circuit["level_shifter"], circuit["soft_start"]
    return [
        f"{shifter['input_pulldown_ohm'] // 1000} kohm",
        f"{soft['gate_to_gnd_ohm'] // 1000} kohm",
        f"{soft['gate_to_source_uf']} uF",
        f"{circuit['bulk_capacitor_uf']} uF",
        f"{circuit['data_resistor_ohm']} ohm",
        soft["part"],
        ", ".join(str(pin) for pin in shifter["unused_input_pins_to_gnd"]),
        ", ".join(str(pin) for pin in shifter["unused_enable_pins_to_5v"]),
    ]


@pytest.mark.parametrize("doc", ["README.md", "BOM.md", "wiring.svg"])
def test_the_docs_and_the_drawing_carry_the_circuit_values(pinout, doc):
    """Pull-down, tied gate inputs, soft start and bulk capacitor (issue 13, hardware)."""
    text = (HW / doc).read_text()
    for words in circuit_words(pinout):
        assert words in text, (doc, words)


def test_every_pin_of_the_level_shifter_is_connected(pinout):
    """74AHCT125: gate 1 used, unused inputs tied low, unused enables high; VCC 14, GND 7."""
    shifter = pinout["circuit"]["level_shifter"]
    used = shifter["used_gate"]
    pins_seen = [
        *used.values(),
        *shifter["unused_input_pins_to_gnd"],
        *shifter["unused_enable_pins_to_5v"],
        *shifter["unused_output_pins_open"],
        7,  # GND
        14,  # VCC
    ]
    assert sorted(pins_seen) == list(range(1, 15))
    assert shifter["input_pulldown_ohm"] >= 4700  # ESP32 drives it easily, still a firm low
    assert shifter["supply"] == pinout["circuit"]["bulk_on"] == "led_5v"


def test_plug_in_inrush_stays_inside_what_usb_allows(pinout):
    """At most 10 uF straight on VBUS; the bulk capacitor charges behind the soft start within
    the 100 mA of an unconfigured USB device; the ramp follows from the gate's R and C."""
    power, circuit = pinout["power"], pinout["circuit"]
    soft = circuit["soft_start"]
    assert circuit["direct_on_usb_5v_uf"] <= power["usb_plug_in_max_uf"] == 10
    volts, ramp_ms = power["supply_v"], soft["ramp_ms"]
    tau_ms = soft["gate_to_gnd_ohm"] * soft["gate_to_source_uf"] / 1000
    turn_on_ms = tau_ms * math.log(volts / (volts - soft["gate_threshold_v"]))
    assert abs(turn_on_ms - ramp_ms) < 1
    inrush_ma = circuit["bulk_capacitor_uf"] * volts / ramp_ms
    assert inrush_ma <= power["usb_unconfigured_ma"] == 100
    line = f"{circuit['bulk_capacitor_uf']} uF x {volts} V / {ramp_ms} ms = {inrush_ma:.0f} mA"
    assert line in (HW / "BOM.md").read_text()
    assert line in (HW / "README.md").read_text()


def test_the_usb_current_note_and_the_cap_budget(pinout):
    """500 mA once configured (the cap's budget), 100 mA before: both said where builders read."""
    power = pinout["power"]
    worst = (
        power["esp32_reserve_ma"]
        + pinout["led"]["count"] * power["led_idle_ma"]
        + pinout["led"]["count"] * 3 * power["led_ma_per_channel"] * Frame.MAX_LEVEL / 255
    )
    assert worst <= power["usb_budget_ma"]
    for doc in ("README.md", "BOM.md"):
        text = (HW / doc).read_text()
        assert f"{power['usb_unconfigured_ma']} mA" in text and "500 mA" in text, doc
        assert "own supply" in text.lower() or "own 5 V supply" in text, doc
