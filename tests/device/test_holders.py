"""The port is the companion's alone, or the user is told who else has it (issue 25, item 4).

Also the status's two directions: "box not answering" (we hear nothing) and "the box does not
hear us" (its heartbeat says quiet=1, or our commands go unanswered), never "connected".
"""

import os
import subprocess
import sys

from companion_app.bridge import holders
from companion_app.bridge.link import Link
from firmware import protocol as P
from tests.device.liveapp import wait_until
from tests.device.test_link import Wire, greet

WAIT_S = 10.0
#: How long the status may take to name a reader: the bridge's first look at /proc starts with
#: its session, in a thread, and on a loaded CI machine (8 workers, Chromium, MicroPython on 2
#: cores) the session's start and the walk over every process's open files took over 10 s.
NAMED_WAIT_S = 45.0


def fake_proc(tmp_path, table):
    """A /proc with processes {pid: (name, [fd targets])}."""
    for pid, (name, targets) in table.items():
        fd = tmp_path / str(pid) / "fd"
        fd.mkdir(parents=True)
        (tmp_path / str(pid) / "comm").write_text(name + "\n")
        for n, target in enumerate(targets):
            os.symlink(target, fd / str(n))
    (tmp_path / "self").mkdir()  # not a pid: skipped
    return tmp_path


def test_the_processes_holding_the_port_are_named_but_not_ourselves(tmp_path):
    proc = fake_proc(
        tmp_path / "proc",
        {
            100: ("cat", ["/dev/null", "/dev/ttyUSB0"]),
            200: ("bash", ["/dev/pts/3"]),
            300: ("companion", ["/dev/ttyUSB0"]),
            400: ("screen", ["/dev/ttyUSB0"]),
        },
    )
    found = holders.port_holders("/dev/ttyUSB0", proc=proc, me=300)
    assert found == [(100, "cat"), (400, "screen")]
    assert holders.describe(found) == "cat (pid 100), screen (pid 400)"


def test_a_real_reader_on_a_pseudo_terminal_is_found(tmp_path):
    master, slave = os.openpty()
    path = os.ttyname(slave)
    reader = subprocess.Popen(["cat", path], stdout=subprocess.DEVNULL)
    try:
        found = wait_until(lambda: holders.port_holders(path, me=-1), WAIT_S)
        assert (reader.pid, "cat") in found
    finally:
        reader.kill()
        reader.wait()
        os.close(master)
        os.close(slave)


def test_the_box_saying_it_hears_nothing_is_not_connected():
    w = Wire()
    greet(w)
    assert w.link.box_hears_us()
    w.device(P.HB, "quiet=1")
    assert w.link.alive() and not w.link.box_hears_us()
    w.device(P.HB)
    assert w.link.box_hears_us()


def test_a_command_unanswered_for_the_silence_window_means_the_box_does_not_hear_us():
    """Firmware without quiet= in its heartbeat: our unanswered command tells the same."""
    w = Wire()
    greet(w)
    w.link.command(P.SET, "police=1 limit=7 round=1 rounds=3 seats=4")
    for _ in range(11):
        w.clock.now += Link.RETRY_S
        w.link.poll()
        w.device(P.HB)  # we hear the box all along
    assert w.link.alive() and not w.link.box_hears_us()


#: A default pyserial reader, as in issue 25 (`cat` exits here at once: the bridge's termios
#: settings make its blocking read return 0 bytes, which cat takes for the end of the file).
#: A reader that ignores the lock; pyserial raises when the bridge took the byte select saw
#: ("readiness to read but returned no data"): a terminal program reads on, so does this one.
PLAIN_READER = (
    "import serial, sys, time\nport = serial.Serial(sys.argv[1])\nwhile True:\n"
    "    try:\n        port.read(1)\n    except serial.SerialException:\n        time.sleep(0.01)"
)


def test_a_plain_reader_on_the_port_is_named_in_the_status(live, sim, make_bridge):
    """Issue 25: a reader that ignores the lock read the box's lines away; 17-18 reconnects
    in 6 s and the strip never matched. The status names it."""
    reader = subprocess.Popen([sys.executable, "-c", PLAIN_READER, sim.path])
    assert wait_until(lambda: holders.port_holders(sim.path), WAIT_S)
    try:
        make_bridge(sim)

        def named():
            """The status once it names the reader."""
            status = live.status.snapshot()
            return status if status["problem"] == "port_shared" else None

        status = wait_until(named, NAMED_WAIT_S, step=0.1)
        assert status, live.status.snapshot()
        (holder,) = status["holders"]
        assert holder["pid"] == reader.pid and holder["name"].startswith("python")
    finally:
        reader.kill()
        reader.wait()


def test_a_box_that_does_not_hear_us_is_reported_as_such(live, make_sim, make_bridge):
    """The line from us to the box is cut, the box's to us works: not "connected"."""
    cut = {"on": False}
    sim = make_sim(rx_filter=lambda data: b"" if cut["on"] else data)
    bridge = make_bridge(sim)
    assert wait_until(lambda: bridge.connected, WAIT_S)
    cut["on"] = True
    status = wait_until(
        lambda: live.status.snapshot()["problem"] == "box_deaf" and live.status.snapshot(),
        WAIT_S,
        step=0.1,
    )
    assert status and status["connected"] is False
    cut["on"] = False
    assert wait_until(lambda: live.status.snapshot()["connected"], WAIT_S, step=0.1)


def test_a_reader_that_exits_leaves_the_status_without_waiting_for_a_new_look(
    live, sim, make_bridge, monkeypatch
):
    """Issue 34 item 8: the badge kept naming a reader that had exited until the next full
    look (every 10 s). From here every full look still "finds" it (as one begun before it
    exited would); the status must drop it all the same once it is gone."""
    reader = subprocess.Popen([sys.executable, "-c", PLAIN_READER, sim.path])
    try:
        assert wait_until(lambda: holders.port_holders(sim.path), WAIT_S)
        make_bridge(sim)
        assert wait_until(
            lambda: live.status.snapshot()["problem"] == "port_shared", NAMED_WAIT_S, step=0.1
        ), live.status.snapshot()
        stale = [(reader.pid, "python3")]
        monkeypatch.setattr(holders, "port_holders", lambda path, **how: list(stale))
    finally:
        reader.kill()
        reader.wait()

    def dropped():
        """The status once it names nobody."""
        status = live.status.snapshot()
        return status["holders"] == [] and status["problem"] != "port_shared"

    assert wait_until(dropped, WAIT_S, step=0.1), live.status.snapshot()
