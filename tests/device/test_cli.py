"""`companion device run|simulate|ports`, `companion firmware deploy`, `serve --simulate`."""

import os
import re
import stat

import pytest
from serial.tools.list_ports_common import ListPortInfo

from companion_app import cli
from companion_app.bridge import detect
from companion_app.bridge.deploy import deploy_commands
from companion_app.bridge.firmware import firmware_files
from companion_app.cli import embed
from firmware import protocol as P
from tests.device.liveapp import SHOWN_S, LiveApp, Razzia, wait_until
from tests.device.procs import Companion
from tests.device.test_simulator import Host

START_S = 20.0  # a child Python importing Flask on a loaded 2-core machine


def test_ports_lists_and_marks_boxes(monkeypatch, capsys):
    usb = ListPortInfo("/dev/ttyUSB0", skip_link_detection=True)
    usb.vid, usb.pid, usb.description = 0x10C4, 0xEA60, "CP2102"
    monkeypatch.setattr(detect.list_ports, "comports", lambda: [usb])
    assert cli.main(["device", "ports"]) == 0
    assert capsys.readouterr().out == "/dev/ttyUSB0  10c4:ea60  CP2102  <- box? (CP210x)\n"
    monkeypatch.setattr(detect.list_ports, "comports", lambda: [])
    assert cli.main(["device", "ports"]) == 0
    assert capsys.readouterr().out == "No serial ports.\n"


def test_simulate_prints_a_port_that_answers_like_a_box():
    child = Companion("device", "simulate")
    try:
        path = child.line(lambda line: line.startswith("/dev/"), START_S)
        host = Host(path)
        try:
            host.send(P.HELLO, "proto=1")
            assert host.expect(P.HELLO).fields()["board"] == "simulator"
        finally:
            host.close()
        assert child.interrupt() == 0
    finally:
        child.close()


def test_run_bridges_a_port_to_an_app_in_another_process(live, sim):
    child = Companion("device", "run", "--port", sim.path, "--app", live.url)
    try:
        Razzia(live).draw_police()
        assert sim.wait_leds(lambda v: v.shows(1, 7, 1), START_S), sim.leds()
        status = wait_until(lambda: live.ok("GET", "/api/device/status")["connected"], SHOWN_S)
        assert status
        reported = live.ok("GET", "/api/device/status")
        assert reported["mode"] == "remote" and reported["port"] == sim.path
        assert child.interrupt() == 0
        assert not live.ok("GET", "/api/device/status")["connected"]
    finally:
        child.close()
    assert not live.log.server_errors()


@pytest.fixture
def fake_mpremote(tmp_path, monkeypatch):
    """An `mpremote` first on PATH that logs its arguments (exit status from a file)."""
    log = tmp_path / "mpremote.log"
    script = tmp_path / "bin" / "mpremote"
    script.parent.mkdir()
    script.write_text(
        '#!/bin/sh\nprintf "%s\\n" "$*" >> "$FAKE_MPREMOTE_LOG"\nexit "${FAKE_MPREMOTE_EXIT:-0}"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{script.parent}:{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_MPREMOTE_LOG", str(log))
    return log


def test_deploy_stops_the_box_copies_the_firmware_and_resets(sim, fake_mpremote, capsys):
    assert cli.main(["firmware", "deploy", "--port", sim.path]) == 0
    assert wait_until(lambda: sim.stopped, SHOWN_S)  # STOP was acknowledged before mpremote
    files = " ".join(str(f) for f in firmware_files())
    assert fake_mpremote.read_text().splitlines() == [f"connect {sim.path} fs cp {files} : + reset"]
    assert "stopped for the update" in capsys.readouterr().out
    assert {f.name for f in firmware_files()} >= {"main.py", "box.py", "protocol.py"}


def test_a_failing_mpremote_fails_the_deploy(sim, fake_mpremote, monkeypatch):
    monkeypatch.setenv("FAKE_MPREMOTE_EXIT", "3")
    assert cli.main(["firmware", "deploy", "--port", sim.path]) == 3
    assert len(fake_mpremote.read_text().splitlines()) == 1  # one run: mpremote stops at the copy


def test_deploy_without_a_box_says_so(monkeypatch, capsys):
    monkeypatch.setattr(detect, "find_board", lambda: None)
    assert cli.main(["firmware", "deploy"]) == 1
    assert "No box found" in capsys.readouterr().err


def test_the_deploy_command_list():
    assert deploy_commands("/dev/ttyUSB0", ["a.py", "b.py"], ["mpremote"]) == [
        ["mpremote", "connect", "/dev/ttyUSB0", "fs", "cp", "a.py", "b.py", ":", "+", "reset"],
    ]


def test_serve_picks_the_box_from_the_flags_and_the_usb_ids():
    assert embed.plan(simulate=True).mode == "simulator"
    explicit = embed.plan(device="/dev/ttyACM3", find_board=lambda: "/dev/ttyUSB0")
    assert (explicit.mode, explicit.find_port()) == ("serial", "/dev/ttyACM3")
    found = embed.plan(find_board=lambda: "/dev/ttyUSB0")
    assert found.mode == "serial" and "/dev/ttyUSB0" in found.message
    assert embed.plan(find_board=lambda: None).mode is None


def test_serve_simulate_runs_box_and_bridge_in_process(tmp_path):
    child = Companion("serve", "--port", "0", "--simulate", "--instance", str(tmp_path))
    try:
        banner = child.line(lambda line: line.startswith("Open http://"), START_S)
        url = re.search(r"http://[^/]+", banner).group(0)
        child.line(lambda line: line.startswith("Box: simulated"), START_S)
        status = wait_until(lambda: LiveApp.get(url, "/api/device/status")["connected"], SHOWN_S)
        assert status
        reported = LiveApp.get(url, "/api/device/status")
        assert reported["mode"] == "simulator" and reported["hello"]["board"] == "simulator"
        assert child.interrupt() == 0
    finally:
        child.close()


def test_serve_without_a_box_leaves_the_panel_as_the_device(tmp_path):
    child = Companion("serve", "--port", "0", "--instance", str(tmp_path))
    try:
        child.line(lambda line: line.startswith("Open http://"), START_S)
        line = child.line(lambda line: "box" in line.lower(), START_S)
        assert line.startswith(("No box found", "Box: found"))
        assert child.interrupt() == 0
    finally:
        child.close()


def test_serve_picks_up_a_box_plugged_in_after_the_start(live, sim, monkeypatch):
    """No box at the start: the panel is the device, then a box appears and is driven."""
    monkeypatch.setattr(embed.Embedded, "WATCH_S", 0.05)
    plugged = []
    chosen = embed.plan(find_board=lambda: sim.path if plugged else None)
    assert chosen.mode is None
    running = embed.Embedded(live.app, live.url, chosen)
    try:
        Razzia(live).draw_police()
        assert not live.ok("GET", "/api/device/status")["connected"]
        plugged.append(True)
        assert sim.wait_leds(lambda v: v.shows(1, 7, 1), SHOWN_S), sim.leds()
        assert wait_until(lambda: live.ok("GET", "/api/device/status")["connected"], SHOWN_S)
    finally:
        running.stop()
    assert not live.ok("GET", "/api/device/status")["connected"]
