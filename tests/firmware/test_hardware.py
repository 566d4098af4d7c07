"""hardware/pinout.json is the single source of truth: firmware, docs and diagrams agree with it."""

import json
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
    assert peers(f"esp:{pinout['led']['gpio']}") == {"r1"}
    assert ("r1:2", "strip:DIN") in links
    assert parts["strip"] == "wokwi-neopixel-matrix"
    (strip,) = [p for p in diagram["parts"] if p["id"] == "strip"]
    assert strip["attrs"]["cols"] == str(pinout["led"]["count"])
    assert "bz1" in peers(f"esp:{pinout['piezo']['gpio']}")


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
        "1000 uF",
        "74AHCT125",
        "piezo",
    ):
        assert part in bom, part
    assert f"MAX_LEVEL = {Frame.MAX_LEVEL}" in bom
    assert "18 x 60 mA = **1080 mA**" in bom
