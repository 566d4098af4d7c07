"""Finding the box: USB serial ports by VID:PID, or an explicit port; opening it without a reset."""

import serial
from serial.tools import list_ports

#: USB-serial chips found on ESP32 boards: (vid, pid or None for any) -> name.
KNOWN_CHIPS = {
    (0x10C4, 0xEA60): "CP210x",
    (0x1A86, 0x7523): "CH340",
    (0x303A, None): "Espressif native USB",
}
BAUD = 115200
#: A write that cannot finish this fast means the port is gone (USB unplugged mid-write).
WRITE_TIMEOUT_S = 1.0


def chip_name(vid, pid):
    """The chip's name if (vid, pid) is a known ESP32 USB-serial bridge, else None."""
    if vid is None:
        return None
    return KNOWN_CHIPS.get((vid, pid)) or KNOWN_CHIPS.get((vid, None))


def candidates(ports=None):
    """The serial ports that look like a box, as (device, description), best first."""
    ports = list_ports.comports() if ports is None else ports
    found = [(p.device, chip_name(p.vid, p.pid)) for p in ports]
    return sorted((dev, name) for dev, name in found if name)


def find_board(ports=None):
    """The first port that looks like a box, or None."""
    found = candidates(ports)
    return found[0][0] if found else None


def port_finder(explicit=None):
    """A function returning the port to open: `explicit` always, else whatever is detected now."""
    if explicit:
        return lambda: explicit
    return find_board


def describe_ports(ports=None):
    """Every serial port, one line each, marking the ones that look like a box."""
    ports = list_ports.comports() if ports is None else ports
    lines = []
    for p in sorted(ports, key=lambda p: p.device):
        name = chip_name(p.vid, p.pid)
        ids = f"{p.vid:04x}:{p.pid:04x}" if p.vid is not None and p.pid is not None else "-"
        mark = f"  <- box? ({name})" if name else ""
        lines.append(f"{p.device}  {ids}  {p.description}{mark}")
    return lines


def open_port(path, timeout):
    """Open `path` at 115200 8N1 with DTR and RTS low BEFORE opening, so the board is not reset."""
    port = serial.Serial()
    port.port = path
    port.baudrate = BAUD
    port.timeout = timeout
    port.write_timeout = WRITE_TIMEOUT_S
    port.dtr = False
    port.rts = False
    port.open()
    return port
