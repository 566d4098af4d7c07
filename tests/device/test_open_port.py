"""Opening the box's port never pulls the ESP32 into reset, and only one program holds it.

The usual auto-reset circuit of ESP32 boards (two transistors between DTR/RTS and EN/IO0)
holds EN low, the reset, while RTS is asserted and DTR is not (hardware/README.md).
"""

import fcntl
import os
import struct
import tty

import pytest
import serial

from companion_app.bridge import detect


class AutoResetCircuit:
    """The modem lines as the board sees them, every state they pass through, in order."""

    def __init__(self):
        self.dtr = self.rts = False  # port closed: both lines deasserted (high)
        self.states = [(False, False)]

    def set(self, dtr=None, rts=None):
        """Change one or both lines in one step; record the state if it changed."""
        self.dtr = self.dtr if dtr is None else dtr
        self.rts = self.rts if rts is None else rts
        if self.states[-1] != (self.dtr, self.rts):
            self.states.append((self.dtr, self.rts))

    def resets(self):
        """The states that hold EN low (RTS asserted, DTR not): each one reboots the board."""
        return [(dtr, rts) for dtr, rts in self.states if rts and not dtr]


def posix_serial(circuit):
    """pyserial's own posix Serial on a pty, its line changes sent to `circuit`.

    pyserial's real open() runs (os.open, flock, termios, then DTR, then RTS); only the two
    ioctls a pty cannot do are redirected. Like Linux and macOS, opening asserts both lines.
    """

    class PosixOnCircuit(serial.Serial):
        """serial.Serial whose modem lines drive the circuit model."""

        def _reconfigure_port(self, force_update=False):
            """The kernel has just opened the tty: DTR and RTS go up together."""
            if force_update:
                circuit.set(dtr=True, rts=True)
            super()._reconfigure_port(force_update)

        def _update_dtr_state(self):
            circuit.set(dtr=self._dtr_state)

        def _update_rts_state(self):
            circuit.set(rts=self._rts_state)

    return PosixOnCircuit


class WindowsSerial:
    """What pyserial does on Windows: the configured lines are applied in one call at open."""

    def __init__(self, circuit):
        self.circuit = circuit
        self.port = self.baudrate = self.timeout = self.write_timeout = None
        self.exclusive = None
        self.dtr = self.rts = True  # pyserial's defaults

    def open(self):
        """SetCommState with fDtrControl and fRtsControl together."""
        self.circuit.set(dtr=self.dtr, rts=self.rts)


@pytest.fixture
def pty_path():
    """A pseudo-terminal's slave path, raw; both ends closed after the test."""
    master, slave = os.openpty()
    tty.setraw(slave)
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_opening_on_linux_and_macos_never_holds_en_low(pty_path):
    circuit = AutoResetCircuit()
    port = detect.open_port(pty_path, 0.05, platform="linux", make=posix_serial(circuit))
    try:
        assert circuit.states == [(False, False), (True, True)]
        assert circuit.resets() == []
    finally:
        port.close()


def test_the_circuit_model_catches_the_old_dtr_and_rts_low_before_open(pty_path):
    circuit = AutoResetCircuit()
    port = posix_serial(circuit)()
    port.port = pty_path
    port.dtr = port.rts = False  # what the bridge did before: reset on every open
    port.open()
    port.close()
    assert circuit.resets() == [(False, True)]


def test_opening_on_windows_starts_with_both_lines_deasserted():
    circuit = AutoResetCircuit()
    port = detect.open_port("COM3", 0.05, platform="win32", make=lambda: WindowsSerial(circuit))
    assert (port.dtr, port.rts) == (False, False) and circuit.resets() == []
    assert (port.port, port.baudrate, port.exclusive) == ("COM3", 115200, True)


def test_a_port_another_program_holds_is_refused_with_what_to_do(pty_path):
    first = detect.open_port(pty_path, 0.05)
    try:
        with pytest.raises(detect.PortBusy) as refused:
            detect.open_port(pty_path, 0.05)
        assert str(refused.value).startswith(f"{pty_path} is in use by another program")
        assert "close it and try again" in str(refused.value)
    finally:
        first.close()
    detect.open_port(pty_path, 0.05).close()  # free again once the first closes


def test_windows_access_denied_means_another_program_has_the_port():
    class Held(WindowsSerial):
        def open(self):
            raise serial.SerialException(
                "could not open port 'COM3': PermissionError(13, 'Access is denied.', None, 5)"
            )

    with pytest.raises(detect.PortBusy, match="COM3 is in use by another program"):
        detect.open_port("COM3", 0.05, platform="win32", make=lambda: Held(AutoResetCircuit()))


def test_no_permission_on_linux_says_how_to_get_it():
    class Denied(WindowsSerial):
        def open(self):
            raise serial.SerialException(13, "could not open port /dev/ttyUSB0: Permission denied")

    with pytest.raises(detect.PortDenied, match="dialout group"):
        detect.open_port("/dev/ttyUSB0", 0.05, platform="linux", make=lambda: Denied(None))


def test_other_open_errors_keep_pyserials_message(tmp_path):
    missing = str(tmp_path / "ttyUSB9")
    with pytest.raises(serial.SerialException, match="could not open port") as failed:
        detect.open_port(missing, 0.05)
    assert not isinstance(failed.value, (detect.PortBusy, detect.PortDenied))


TIOCGEXCL = 0x80045440  # Linux: read the tty's exclusive flag (termios lacks the name)


def test_the_open_port_is_exclusive_at_the_kernel_so_a_plain_reader_cannot_open_it(pty_path):
    """Issue 25: `cat` on the port ignored the flock and read the box's lines away. TIOCEXCL
    makes the kernel refuse it (root is exempt, so the flag itself is checked here)."""
    port = detect.open_port(pty_path, 0.05, platform="linux", keep_out=True)
    other = os.open(pty_path, os.O_RDWR | os.O_NOCTTY)  # root may; it reads the flag here
    try:
        assert struct.unpack("i", fcntl.ioctl(other, TIOCGEXCL, struct.pack("i", 0)))[0] == 1
        detect.close_port(port)  # the flag goes with us, though `other` keeps the tty open
        assert struct.unpack("i", fcntl.ioctl(other, TIOCGEXCL, struct.pack("i", 0)))[0] == 0
    finally:
        os.close(other)
