"""Deploying the firmware with the real mpremote onto the simulated board (issue 25, item 2).

The simulated DevKitC runs MicroPython's REPL as the ESP32 port does (simulator/board/
simrepl.py: raw REPL, raw-paste, soft reset), its flash is a folder, a soft reset stops every
machine.Timer and keeps the watchdog. So these are the board's failures: a re-deploy after
STOP whose watchdog was fed by a timer was cut off 5 s after mpremote's soft reset.
"""

import time

import pytest

from companion_app.bridge import deploy as D
from companion_app.bridge.detect import open_port
from companion_app.bridge.firmware import FIRMWARE_DIR, firmware_files, load_firmware
from firmware import protocol as P
from tests.device.liveapp import wait_until
from tests.device.test_simulator import WAIT_S, Host, simulator

WDT_S = 5.0  # firmware/board.py WDT_MS: the box's watchdog while it runs
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"
#: A firmware that crashes into the REPL after arming the watchdog: a reset every 5 s.
BOOT_LOOP_MAIN = """import machine, micropython
micropython.kbd_intr(-1)
wdt = machine.WDT(timeout=5000)
raise RuntimeError("this build cannot start the box")
"""


class Repl:
    """A terminal on the board's port that speaks the raw REPL, as mpremote does."""

    def __init__(self, path):
        self.port = open_port(path, 0.05)
        self.seen = b""

    def read_until(self, marker, timeout=WAIT_S):
        """The bytes up to and including `marker` (fails after `timeout` without it)."""
        deadline = time.monotonic() + timeout
        while marker not in self.seen:
            assert time.monotonic() < deadline, (
                f"no {marker!r} from the board: {self.seen[-200:]!r}"
            )
            self.seen += self.port.read(self.port.in_waiting or 1)
        head, _, self.seen = self.seen.partition(marker)
        return head + marker

    def read_exactly(self, count, timeout=WAIT_S):
        """The next `count` bytes (fails after `timeout` without them)."""
        deadline = time.monotonic() + timeout
        while len(self.seen) < count:
            assert time.monotonic() < deadline, f"{count} bytes expected: {self.seen!r}"
            self.seen += self.port.read(count - len(self.seen))
        head, self.seen = self.seen[:count], self.seen[count:]
        return head

    def enter_raw(self):
        """Ctrl-C, then Ctrl-A: the raw REPL's banner and prompt."""
        self.port.write(b"\r\x03\x03")
        time.sleep(0.1)
        self.port.reset_input_buffer()
        self.seen = b""
        self.port.write(b"\r\x01")
        self.read_until(RAW_BANNER)

    def exec(self, code):
        """Run `code` at the raw REPL: (its output, its error)."""
        self.port.write(code.encode() + b"\x04")
        self.read_until(b"OK")
        out = self.read_until(b"\x04")[:-1]
        err = self.read_until(b"\x04")[:-1]
        self.read_until(b">")
        return out, err

    def soft_reset(self):
        """Ctrl-D on an empty raw line: `MPY: soft reboot`, then the raw REPL again."""
        self.port.write(b"\x04")
        self.read_until(b"MPY: soft reboot\r\n")
        self.read_until(RAW_BANNER)

    def close(self):
        self.port.close()


@pytest.fixture
def board():
    """A simulated DevKitC with the firmware on its flash, running the box."""
    box = simulator("micropython").start()
    yield box
    box.stop()


@pytest.fixture
def bare_board():
    """A simulated DevKitC with MicroPython only: nothing on its flash."""
    box = simulator("micropython", firmware=False).start()
    yield box
    box.stop()


def newer_build(tmp_path, version="0.9.9-test"):
    """firmware/*.py with every file changed (FW_VERSION and a comment), as a new release."""
    folder = tmp_path / "newer"
    folder.mkdir()
    for source in firmware_files():
        text = source.read_text()
        if source.name == "box.py":
            text = text.replace('FW_VERSION = "', f'FW_VERSION = "{version}"  # was "', 1)
        (folder / source.name).write_text(text + f"# build {version}\n")
    return sorted(folder.glob("*.py"))


def deploy(board, files=None):
    """`companion firmware deploy` (the real mpremote) onto `board`: (status, lines, seconds)."""
    said = []
    started = time.monotonic()
    status = D.deploy(board.path, out=said.append, err=said.append, files=files)
    return status, said, time.monotonic() - started


def hello(board):
    """The box's HELLO after a boot (it announces itself until a host sets its state)."""
    host = Host(board.path)
    try:
        return host.expect(P.HELLO).fields()
    finally:
        host.close()


def test_mpremote_copies_the_firmware_onto_a_fresh_board_which_then_runs_it(bare_board):
    assert wait_until(lambda: bare_board.stopped_why == "repl", WAIT_S)  # no main.py: the REPL
    status, said, _ = deploy(bare_board)
    assert status == 0, said
    assert said[0] == f"The board on {bare_board.path} is at its MicroPython REPL."
    assert said[-1] == "Firmware deployed; the box restarts."
    for source in firmware_files():
        assert (bare_board.flash / source.name).read_bytes() == source.read_bytes(), source.name
    assert wait_until(lambda: bare_board.resets == ["reset"], WAIT_S)  # mpremote's, nothing else
    assert hello(bare_board)["fw"] == load_firmware().box.FW_VERSION


@pytest.mark.slow
def test_a_redeploy_onto_a_running_box_is_not_cut_off_by_its_watchdog(board, tmp_path):
    """The issue's case: STOP, then mpremote soft-resets and copies for longer than 5 s."""
    assert hello(board)["fw"] != "0.9.9-test"
    files = newer_build(tmp_path)
    status, said, took = deploy(board, files)
    assert status == 0, said
    assert said[0] == f"The box on {board.path} stopped for the update."
    assert took > WDT_S  # the copy outlasted the box's watchdog...
    assert wait_until(lambda: board.resets == ["reset"], WAIT_S)  # ...which never bit
    for source in files:
        assert (board.flash / source.name).read_bytes() == source.read_bytes(), source.name
    assert hello(board)["fw"] == "0.9.9-test"


def test_a_box_in_a_boot_loop_is_caught_at_its_repl_and_deployed(board):
    (board.flash / "main.py").write_text(BOOT_LOOP_MAIN)
    board.reset()
    assert wait_until(lambda: "wdt" in board.resets, WDT_S + WAIT_S)  # it is looping
    status, said, _ = deploy(board)
    assert status == 0, said
    assert (board.flash / "main.py").read_bytes() == (FIRMWARE_DIR / "main.py").read_bytes()
    assert wait_until(lambda: board.resets[-1] == "reset", WAIT_S)
    assert hello(board)["board"] == "simulator"  # the box runs again


def test_a_soft_reset_stops_the_timers_but_not_the_watchdog(bare_board):
    """MicroPython 1.27 on the ESP32 (main.c soft_reset_exit): machine_timer_deinit_all(), and
    nothing unregisters the task watchdog. The simulator must fail the way the board does."""
    repl = Repl(bare_board.path)
    try:
        repl.enter_raw()
        out, err = repl.exec(
            "import machine\nw = machine.WDT(timeout=1500)\nt = machine.Timer(0)\n"
            "t.init(period=300, callback=lambda _t: w.feed())\nprint('fed')"
        )
        assert (out, err) == (b"fed\r\n", b"")
        time.sleep(2.5)
        assert bare_board.resets == []  # the timer feeds it
        repl.soft_reset()
        assert wait_until(lambda: bare_board.resets == ["wdt"], 3.0)  # nobody does now
    finally:
        repl.close()


def test_after_stop_the_watchdog_outlasts_mpremotes_soft_reset(board):
    """firmware/board.py hold_watchdog: STOP gives the watchdog 30 minutes, not a timer."""
    host = Host(board.path)
    host.expect(P.HELLO)
    seq = host.send(D.STOP)
    host.expect(P.ACK, of=seq)
    host.close()
    assert wait_until(lambda: board.stopped_why == "repl", WAIT_S)
    repl = Repl(board.path)
    try:
        repl.enter_raw()
        repl.soft_reset()
        time.sleep(WDT_S + 1.5)
        assert board.resets == []
        out, err = repl.exec("print(1 + 1)")
        assert (out, err) == (b"2\r\n", b"")
    finally:
        repl.close()


def test_the_raw_repl_reports_errors_and_raw_paste_keeps_to_its_window(bare_board):
    repl = Repl(bare_board.path)
    try:
        repl.enter_raw()
        out, err = repl.exec("print('a')\nraise ValueError('no')")
        assert out == b"a\r\n" and err.endswith(b"ValueError: no\r\n")
        repl.port.write(b"\x05A\x01")
        assert repl.read_until(b"R\x01") == b"R\x01"
        header = repl.read_exactly(3)
        assert header == bytes((128, 0, 1))  # a 128-byte window, and a second one free
        code = b"x = 1" + b" " * 250 + b"\nprint(x + 1)"
        repl.port.write(code[:256])  # the two windows the header allows
        assert repl.read_until(b"\x01\x01") == b"\x01\x01"  # both read: two more free
        repl.port.write(code[256:] + b"\x04")
        assert repl.read_until(b"\x04\x04") == b"\x042\r\n\x04\x04"  # end seen, then run
    finally:
        repl.close()


def test_the_friendly_repl_echoes_and_shows_values(bare_board):
    repl = Repl(bare_board.path)
    try:
        assert wait_until(lambda: bare_board.stopped_why == "repl", WAIT_S)
        time.sleep(0.2)
        repl.port.reset_input_buffer()  # the banner at boot
        repl.port.write(b"\x02")  # Ctrl-B on an empty line: the banner again
        repl.read_until(b'Type "help()" for more information.\r\n>>> ')
        repl.port.write(b"6 * 7\r")
        assert repl.read_until(b">>> ") == b"6 * 7\r\n42\r\n>>> "
    finally:
        repl.close()


def test_what_the_repl_writes_stays_on_the_flash_across_a_reset(bare_board):
    repl = Repl(bare_board.path)
    try:
        repl.enter_raw()
        assert repl.exec("f = open('note.txt', 'w')\nf.write('kept')\nf.close()") == (b"", b"")
    finally:
        repl.close()
    assert (bare_board.flash / "note.txt").read_text() == "kept"
    bare_board.reset()
    repl = Repl(bare_board.path)
    try:
        repl.enter_raw()
        assert repl.exec("print(open('note.txt').read())") == (b"kept\r\n", b"")
        out, err = repl.exec("import os\nos.stat('nothing')")
        assert out == b"" and err.endswith(b"OSError: [Errno 2] ENOENT\r\n")  # as littlefs says
    finally:
        repl.close()
