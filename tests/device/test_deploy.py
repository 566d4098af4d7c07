"""`companion firmware deploy` stops a running or booting box, or says what to do (exit 2).

A fake board on a fake clock plays the ESP32's states: ROM boot and MicroPython start-up
(Ctrl-C works until main.py turns it off), the box loop (Ctrl-C is data, STOP leaves the
loop), the friendly and raw REPLs, a board that never answers, the ROM bootloader.
"""

import pytest

from companion_app.bridge import deploy as D
from companion_app.bridge import detect
from companion_app.bridge.watched import Watched
from firmware import protocol as P

BANNER = b"raw REPL; CTRL-B to exit\r\n>"


class FakeBoard:
    """An ESP32 with MicroPython and the box on a serial port; time passes as the host reads."""

    def __init__(self, state="box", boot_s=0.0, kbd_intr_off_s=None):
        self.now = 0.0
        self.state = state  # box, repl, raw, dead, bootloader
        self.boot_until = boot_s  # input before this is lost (ROM boot, MicroPython init)
        self.ctrl_c_until = kbd_intr_off_s  # Ctrl-C interrupts the boot until main.py runs
        self.out = bytearray(b"ets Jun  8 2016 00:22:57\r\n" if boot_s else b"")
        self.repl_input = bytearray()  # what the (friendly or raw) REPL was typed
        self.raw_line = bytearray()
        self.ran = []  # what the raw REPL ran
        self.raw_error = b""  # the error it answers with
        self.stops = 0
        self.closed = False
        self._lines = P.LineReader()
        if state == "bootloader":
            self.out += b"rst:0x1 (POWERON_RESET),boot:0x3 (DOWNLOAD_BOOT(UART0/UART1/SDIO...))\r\n"
            self.out += b"waiting for download\r\n"

    def clock(self):
        """The fake monotonic clock."""
        return self.now

    @property
    def in_waiting(self):
        return len(self.out)

    def read(self, size):
        """Up to `size` bytes; with none waiting, the read timeout passes."""
        if not self.out:
            self.now += D.READ_S
            return b""
        data, self.out = bytes(self.out[:size]), self.out[size:]
        return data

    def write(self, data):
        """The board receives `data` now."""
        if self.now < self.boot_until:
            if self.ctrl_c_until is not None and self.now < self.ctrl_c_until and b"\x03" in data:
                self.state = "repl"  # KeyboardInterrupt in boot.py/main.py: the REPL
                self.boot_until = 0.0
                self.out += b"KeyboardInterrupt\r\n>>> "
            return
        if self.state == "box":
            self._box(data)
        elif self.state in ("repl", "raw"):
            self._repl(data)

    def _box(self, data):
        """The box loop: one read takes the whole chunk; STOP answers ACK and ends the loop."""
        for line in self._lines.feed(bytearray(data), len(data)):
            try:
                msg = P.decode(line)
            except P.ProtocolError:
                continue  # the Ctrl-C/Ctrl-A bytes are noise to the box
            if msg.kind == D.STOP:
                self.stops += 1
                self.out += P.encode(1, P.ACK, f"of={msg.seq}")
                self.state = "repl"  # main.py ends; the rest of this chunk was consumed
                self.out += b"MicroPython v1.27.0\r\n>>> "
                return

    def _repl(self, data):
        """Ctrl-A enters (or restarts) the raw REPL, Ctrl-B leaves it, Ctrl-D runs the raw
        line (answering as `raw_error` says); the rest is typed."""
        for byte in data:
            if byte == 1:
                self.state = "raw"
                self.out += BANNER
            elif byte == 2:
                self.state = "repl"
                self.out += b"\r\n>>> "
            elif byte == 4 and self.state == "raw":
                self.ran.append(bytes(self.raw_line))
                self.raw_line.clear()
                self.out += b"OK\x04" + self.raw_error + b"\x04>"
            elif byte not in (3, 13):
                self.repl_input.append(byte)
                if self.state == "raw":
                    self.raw_line.append(byte)

    def close(self):
        self.closed = True


def run_deploy(board, ran=None, **timing):
    """deploy() on `board` with fake mpremote runs; (status, stdout lines, stderr lines)."""
    out, err = [], []
    ran = [] if ran is None else ran

    def fake_run(command, **how):
        ran.append(command)
        return Watched(0, "")

    status = D.deploy(
        "/dev/ttyUSB0",
        out=out.append,
        err=err.append,
        run=fake_run,
        open_port=lambda path, timeout: board,
        clock=board.clock,
        **timing,
    )
    return status, out, err


def test_a_running_box_stops_on_stop_and_the_firmware_is_copied():
    board = FakeBoard("box")
    ran = []
    status, out, err = run_deploy(board, ran)
    assert status == 0 and err == []
    assert out[0] == "The box on /dev/ttyUSB0 stopped for the update."
    assert [command[-3:] for command in ran] == [[":", "+", "reset"]] and board.closed
    assert ran[0][ran[0].index("cp") + 1 : -3] == [str(f) for f in D.firmware_files()]
    assert board.stops == 1 and board.state == "repl"  # left in the friendly REPL (Ctrl-B)
    assert b"STOP" not in board.repl_input  # no STOP is typed into the REPL once it answered
    assert board.ran == [D.HOLD_CODE]  # the watchdog got its ten minutes first
    assert "Could not give" not in " ".join(out)


def test_a_board_whose_watchdog_cannot_be_held_is_copied_anyway_with_a_warning():
    board = FakeBoard("repl")
    board.raw_error = b"Traceback (most recent call last):\r\nValueError: WDT timeout too long\r\n"
    ran = []
    status, out, _ = run_deploy(board, ran)
    assert status == 0 and len(ran) == 1
    assert out[1] == (
        "Could not give the watchdog more time (ValueError: WDT timeout too long). Copying anyway."
    )


def test_mpremote_that_hangs_is_ended_and_says_what_to_do():
    """Issue 34 item 8: mpremote ended for its silence, then what to do (exit 2)."""
    asked = []

    def hung(command, **how):
        asked.append(how)
        return Watched(None, "cp main.py :main.py\n", how["silent_s"])

    out, err = [], []
    status = D.deploy(
        "/dev/ttyUSB0",
        out=out.append,
        err=err.append,
        run=hung,
        open_port=lambda path, timeout: FakeBoard("repl"),
    )
    assert status == D.EXIT_CANNOT_STOP == 2
    assert asked[0]["silent_s"] == D.SILENT_S < 60 and asked[0]["total_s"] == D.RUN_S
    assert err[0].startswith("mpremote got no answer from the MicroPython REPL on /dev/ttyUSB0")
    assert "(it went 30 s without a word)" in err[0]
    assert "companion firmware stop --port /dev/ttyUSB0" in err[0]
    assert "press and release EN" in err[0] and "safe mode" in err[0] and "BOOT" in err[0]


def test_mpremote_that_cannot_enter_the_raw_repl_says_what_to_do():
    """Issue 34 item 8: mpremote's own 10 s give-up is told in our words too (exit 2)."""
    said = "cp main.py :main.py\nb''\nmpremote: could not enter raw repl\n"
    err = []
    status = D.deploy(
        "/dev/ttyUSB0",
        out=lambda line: None,
        err=err.append,
        run=lambda command, **how: Watched(1, said),
        open_port=lambda path, timeout: FakeBoard("repl"),
    )
    assert status == 2 and "(it failed)" in err[0] and "firmware stop" in err[0]


def test_a_box_still_booting_is_stopped_by_a_later_attempt():
    board = FakeBoard("box", boot_s=1.8)  # ROM and MicroPython start; then main.py runs the box
    status, out, _ = run_deploy(board)
    assert status == 0 and out[0].endswith("stopped for the update.")
    assert board.now >= 1.8 and board.stops == 1


def test_ctrl_c_catches_a_board_before_main_py_turns_it_off():
    board = FakeBoard("box", boot_s=1.0, kbd_intr_off_s=1.0)
    status, out, _ = run_deploy(board)
    assert status == 0 and out[0] == "The board on /dev/ttyUSB0 is at its MicroPython REPL."
    assert board.stops == 0


def test_a_board_at_its_repl_is_found_through_the_raw_repl():
    board = FakeBoard("repl")
    status, out, _ = run_deploy(board)
    assert status == 0 and out[0].endswith("is at its MicroPython REPL.")
    assert board.state == "repl"


def test_a_board_that_never_answers_gets_instructions_and_exit_2():
    board = FakeBoard("dead")
    ran = []
    status, out, err = run_deploy(board, ran)
    assert status == D.EXIT_CANNOT_STOP == 2 and ran == [] and out == []
    assert err[0].startswith("The box on /dev/ttyUSB0 did not stop: no answer")
    assert "then run `companion firmware deploy` again" in err[0]
    assert "Hold seat 1's button, press and release EN" in err[0]
    assert "unplug the USB cable" in err[0] and "hardware/README.md" in err[0]
    assert D.INTERRUPT_S <= board.now < D.INTERRUPT_S + 1  # retried for the whole window
    assert board.closed


def test_the_attempts_repeat_over_the_window():
    board = FakeBoard("dead")
    interrupter = D.Interrupter(board, clock=board.clock)
    assert interrupter.run() is None
    assert interrupter.attempts >= D.INTERRUPT_S / D.ATTEMPT_S - 1


def test_a_board_in_its_rom_bootloader_is_told_to_release_boot():
    status, _, err = run_deploy(FakeBoard("bootloader"), total_s=2.0)
    assert status == 2 and "ROM bootloader" in err[0] and "Release BOOT and press EN" in err[0]


@pytest.mark.parametrize("refusal", [detect.PortBusy("COM3 is in use"), detect.PortDenied("no")])
def test_a_port_that_cannot_be_opened_is_explained_with_exit_2(refusal):
    def refuse(path, timeout):
        raise refusal

    err = []
    status = D.deploy("COM3", out=print, err=err.append, open_port=refuse)
    assert status == 2 and err == [str(refusal)]
