"""Port detection by VID:PID and the app view -> wire state mapping (opening: test_open_port)."""

from serial.tools.list_ports_common import ListPortInfo

from companion_app.bridge import detect, state
from firmware import protocol as P


def port(device, vid=None, pid=None, description="n/a"):
    """A ListPortInfo like list_ports.comports() returns."""
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.description = vid, pid, description
    return info


PORTS = [
    port("/dev/ttyS0"),
    port("/dev/ttyUSB1", 0x1A86, 0x7523, "USB Serial"),
    port("/dev/ttyUSB0", 0x10C4, 0xEA60, "CP2102N USB to UART Bridge Controller"),
    port("/dev/ttyACM0", 0x303A, 0x1001, "USB JTAG/serial debug unit"),
    port("/dev/ttyACM1", 0x2341, 0x0043, "Arduino Uno"),
]


def test_known_chips_are_candidates_and_others_are_not():
    assert detect.candidates(PORTS) == [
        ("/dev/ttyUSB0", "CP210x"),
        ("/dev/ttyUSB1", "CH340"),
        ("/dev/ttyACM0", "Espressif native USB"),  # an S2/S3/C3 board: last (issue 25)
    ]
    assert detect.find_board(PORTS) == "/dev/ttyUSB0"
    assert detect.find_board([PORTS[3]]) == "/dev/ttyACM0"  # still found, and warned about
    assert detect.find_board([PORTS[0], PORTS[4]]) is None


def test_an_explicit_port_wins_over_detection():
    assert detect.port_finder("/dev/ttyX")() == "/dev/ttyX"
    assert detect.port_finder(None) is detect.find_board


def test_the_port_list_marks_the_boxes():
    lines = detect.describe_ports(PORTS)
    assert lines[0].startswith("/dev/ttyACM0  303a:1001") and "box?" in lines[0]
    assert "not the ESP32 DevKitC the box is wired for" in lines[0]
    assert "DevKitC" not in lines[-1]
    assert "box?" not in lines[1] and lines[-1].startswith("/dev/ttyUSB1  1a86:7523")


def test_a_display_becomes_a_set_line_the_firmware_accepts():
    display = {"police": 3, "limit": 7, "round": 2, "rounds": 3, "seats": 4}
    assert state.set_payload(display) == "police=3 limit=7 round=2 rounds=3 seats=4"
    wild = {"police": 9, "limit": 5, "round": 8, "rounds": 9, "seats": 10}
    assert state.set_payload(wild) == "police=5 limit=5 round=5 rounds=5 seats=6"
    assert state.set_payload(None) == "police=0 limit=7 round=0 rounds=5 seats=0"


def test_reveals_become_arm_or_disarm_with_seats_numbered_from_1():
    reveal = {"id": 7, "seats": [0, 2, 3], "locked": [2], "revealed": False}
    assert state.reveal_command(reveal) == (P.ARM, "id=7 seats=1,3,4 locked=3")
    assert state.reveal_command({"id": 1, "seats": [1], "locked": []}) == (P.ARM, "id=1 seats=2")
    assert state.reveal_command(None) == (P.DISARM, "")
    over = {"id": 7, "seats": [0, 2], "locked": [0, 2], "revealed": True}
    assert state.reveal_command(over) == (P.ARM, "id=7 seats=1,3 locked=1,3 revealed=1")


def test_reveal_ids_wrap_on_the_wire_and_map_back():
    assert state.wire_id(65535) == 65535 and state.wire_id(65536) == 1
    view = {"reveal": {"id": 65536, "seats": [0], "locked": []}}
    assert state.app_reveal_id(view, 1) == 65536
    assert state.app_reveal_id(view, 2) == 2 and state.app_reveal_id(None, 3) == 3
