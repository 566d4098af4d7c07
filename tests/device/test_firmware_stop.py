"""`companion firmware stop`, and a deploy that says what to do instead of hanging (issue 34,
item 8): mpremote waited over 60 s without a word on a box that did not answer its REPL."""

import os
import stat
import sys

import pytest

from companion_app import cli
from companion_app.bridge import deploy as D
from companion_app.bridge.watched import run_watched
from tests.device.liveapp import SHOWN_S, wait_until
from tests.device.test_deploy import FakeBoard

QUIET_S = 0.5  # the silence that ends a watched program in these tests


def test_firmware_stop_leaves_the_box_at_its_repl(sim, capsys):
    """Issue 34 item 8: the box stops (STOP acknowledged); exit 0 and what to do next."""
    assert cli.main(["firmware", "stop", "--port", sim.path]) == 0
    assert wait_until(lambda: sim.stopped, SHOWN_S)
    out = capsys.readouterr().out
    assert out.startswith(f"The box on {sim.path} stopped.")
    assert "It resets itself unless something feeds its watchdog." in out  # no raw REPL here


def test_firmware_stop_holds_the_watchdog_at_the_raw_repl():
    """Issue 34 item 8: at the REPL the watchdog gets its ten minutes, and the user is told."""
    board = FakeBoard("box")
    said = []
    status = D.stop_box(
        "/dev/ttyUSB0", out=said.append, open_port=lambda path, timeout: board, clock=board.clock
    )
    assert status == 0 and board.ran == [D.HOLD_CODE] and board.state == "repl"
    assert said[0].startswith("The box on /dev/ttyUSB0 stopped: it is at the MicroPython REPL")
    assert "watchdog waits 10 minutes" in said[0] and "mpremote reset" in said[0]


def test_firmware_stop_on_a_port_nobody_answers_exits_2_with_what_to_do(capsys):
    """Issue 34 item 8: a pseudo-terminal with nobody at the other end (a box that answers
    nothing): bounded (INTERRUPT_S), exit 2 and the steps."""
    master, slave = os.openpty()
    path = os.ttyname(slave)
    try:
        assert cli.main(["firmware", "stop", "--port", path]) == 2
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert err.startswith(f"The box on {path} did not stop: no answer to STOP")
    assert "then run `companion firmware stop` again" in err
    assert "Hold seat 1's button, press and release EN" in err  # safe mode
    assert "hold BOOT while pressing EN" in err


@pytest.fixture
def hanging_mpremote(tmp_path, monkeypatch):
    """An `mpremote` first on PATH that names its first file, then waits forever (a child of
    its own, as a shell's `sleep` is, holds its output open)."""
    script = tmp_path / "bin" / "mpremote"
    script.parent.mkdir()
    script.write_text('#!/bin/sh\necho "cp main.py :main.py"\nsleep 600\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{script.parent}:{os.environ['PATH']}")
    monkeypatch.setattr(D, "SILENT_S", QUIET_S)


def test_a_deploy_whose_mpremote_hangs_exits_2_with_what_to_do(sim, hanging_mpremote, capsys):
    """Issue 34 item 8: the copy goes quiet; the deploy ends it, says what to do, exits 2."""
    assert cli.main(["firmware", "deploy", "--port", sim.path]) == 2
    said = capsys.readouterr()
    assert "cp main.py :main.py" in said.out  # mpremote's words came through as they came
    assert said.err.startswith(f"mpremote got no answer from the MicroPython REPL on {sim.path}")
    assert f"`companion firmware stop --port {sim.path}`" in said.err
    assert "safe mode" in said.err and "press and release EN" in said.err


def test_a_watched_program_passes_its_lines_on_and_gives_its_status():
    lines = []
    script = "import sys; print('one'); print('two', flush=True); sys.stdout.write('3'); exit(4)"
    ran = run_watched([sys.executable, "-c", script], out=lines.append, silent_s=SHOWN_S)
    assert ran.status == 4 and lines == ["one", "two", "3"] and ran.output == "one\ntwo\n3"


def test_a_watched_program_that_goes_quiet_is_ended_with_its_children():
    """Its child (holding the output open) ends too, or the reader would wait for it."""
    lines = []
    ran = run_watched(["sh", "-c", "echo started; sleep 600"], out=lines.append, silent_s=QUIET_S)
    assert ran.status is None and lines == ["started"] and ran.quiet_s >= QUIET_S
