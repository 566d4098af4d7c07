"""Finding the box: USB serial ports by VID:PID, or an explicit port; opening it without a reset."""

import errno
import logging
import sys

import serial
from serial.tools import list_ports

#: USB-serial chips found on ESP32 boards: (vid, pid or None for any) -> name.
KNOWN_CHIPS = {
    (0x10C4, 0xEA60): "CP210x",
    (0x1A86, 0x7523): "CH340",
    (0x303A, None): "Espressif native USB",
}
#: Espressif's own USB id: the chip's built-in USB, found on ESP32-S2/S3/C3/C6 boards, never on
#: the classic ESP32 DevKitC the box is wired for (its GPIO 26-32 are flash pins on an S3).
NATIVE_USB = 0x303A
NOT_A_DEVKITC = (
    "an ESP32-S2/S3/C3 board, not the ESP32 DevKitC the box is wired for: the box's firmware"
    " will not start on it (hardware/README.md)"
)
log = logging.getLogger(__name__)
BAUD = 115200
#: A write that cannot finish this fast means the port is gone (USB unplugged mid-write).
WRITE_TIMEOUT_S = 1.0


def chip_name(vid, pid):
    """The chip's name if (vid, pid) is a known ESP32 USB-serial bridge, else None."""
    if vid is None:
        return None
    return KNOWN_CHIPS.get((vid, pid)) or KNOWN_CHIPS.get((vid, None))


def candidates(ports=None):
    """The serial ports that look like a box, as (device, description), best first: a
    DevKitC's USB-serial bridge before an Espressif native USB port (an S2/S3/C3 board)."""
    ports = list_ports.comports() if ports is None else ports
    found = [(p.vid == NATIVE_USB, p.device, chip_name(p.vid, p.pid)) for p in ports]
    return [(dev, name) for _, dev, name in sorted(f for f in found if f[2])]


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
        if p.vid == NATIVE_USB:
            mark += f": {NOT_A_DEVKITC}"
        lines.append(f"{p.device}  {ids}  {p.description}{mark}")
    return lines


class PortBusy(serial.SerialException):
    """Another program holds the port (a second `companion`, mpremote, a serial monitor)."""


class PortDenied(serial.SerialException):
    """This user may not open the port (Linux: not in the `dialout` group)."""


#: errno of a port held by another program: flock refused (posix), TIOCEXCL (Linux).
_BUSY_ERRNOS = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY}


def open_port(path, timeout, platform=sys.platform, make=serial.Serial, keep_out=False):
    """Open `path` at 115200 8N1, exclusively, without pulling the board into reset.

    The usual ESP32 auto-reset circuit holds EN low while RTS is asserted and DTR is not.
    Linux and macOS assert both lines when a tty opens, and pyserial then applies DTR before
    RTS, so asking for both deasserted passes through "RTS only" and resets the board. Both
    stay asserted there (what the OS set; mpremote does the same). Windows applies both lines
    in one call at open, so there both start deasserted, as mpremote and esptool do.
    hardware/README.md, "Opening the port", has the circuit and the sources.
    `keep_out` (the bridge): no other program may open the tty while we have it; close it
    with `close_port`.
    """
    port = make()
    port.port = path
    port.baudrate = BAUD
    port.timeout = timeout
    port.write_timeout = WRITE_TIMEOUT_S
    port.exclusive = True  # posix: flock, honoured by mpremote and esptool; Windows: always
    asserted = platform != "win32"
    port.dtr = asserted
    port.rts = asserted
    try:
        port.open()
    except serial.SerialException as exc:
        explained = _explained(path, exc, platform)
        if explained is None:
            raise
        raise explained from exc
    if keep_out and platform != "win32":
        keep_others_out(port)
    return port


def keep_others_out(port):
    """TIOCEXCL on the open tty: from now on the kernel refuses every other open of it (but
    root's) with EBUSY, so a plain `cat` or serial monitor cannot read the box's lines away.
    pyserial's `exclusive` is only flock, which such readers never ask for. A program that
    opened the port before us keeps it: the status names it (holders.py)."""
    import fcntl
    import termios

    try:
        fcntl.ioctl(port.fileno(), termios.TIOCEXCL)
    except (AttributeError, OSError, ValueError) as exc:  # not a tty (a test double)
        log.info("cannot make %s exclusive: %s", port.port, exc)


def close_port(port):
    """Close a port opened with `keep_out`: the flag goes first (it would outlive us on a
    tty another process still holds, and keep out our own next open and mpremote's)."""
    if sys.platform != "win32":
        import fcntl
        import termios

        try:
            fcntl.ioctl(port.fileno(), termios.TIOCNXCL)
        except (AttributeError, OSError, ValueError):  # closed under us, or not a tty
            pass
    port.close()


def _explained(path, exc, platform):
    """The open error in the user's words (busy, no permission), or None to keep pyserial's."""
    code = exc.errno if isinstance(exc.errno, int) else None
    text = str(exc)
    if code in _BUSY_ERRNOS or (platform == "win32" and "Access is denied" in text):
        return PortBusy(
            f"{path} is in use by another program (a running `companion serve` or"
            " `companion device run`, mpremote, a serial monitor): close it and try again."
        )
    if code == errno.EACCES:
        return PortDenied(
            f"No permission to open {path}: on Linux add yourself to the dialout group"
            " (sudo usermod -aG dialout $USER), then log out and in again."
        )
    return None
