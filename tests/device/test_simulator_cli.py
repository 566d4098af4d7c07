"""`companion device simulate --engine` and `companion serve --simulate[=ENGINE]`."""

import pytest

from companion_app import cli
from companion_app.cli import embed
from companion_app.simulator import micropython as mpsim
from firmware import protocol as P
from tests.device.liveapp import SHOWN_S, Razzia, wait_until
from tests.device.procs import Companion
from tests.device.test_simulator import Host

START_S = 20.0  # a child Python importing Flask on a loaded 2-core machine


def test_simulate_on_cpython_says_so():
    child = Companion("device", "simulate", "--engine", "cpython")
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
    note = "Simulated box: the firmware's Box on CPython."
    assert note in child.errors, child.errors


def test_asking_for_micropython_without_node_exits_2(monkeypatch, capsys):
    monkeypatch.setattr(mpsim.shutil, "which", lambda name: None)
    assert cli.main(["device", "simulate", "--engine", "micropython"]) == 2
    assert capsys.readouterr().err == (
        "Cannot simulate the box on MicroPython: Node.js is not installed.\n"
    )
    assert cli.main(["serve", "--port", "0", "--simulate=micropython"]) == 2
    assert "Node.js is not installed" in capsys.readouterr().err


def test_serve_simulate_takes_an_engine():
    assert embed.plan(simulate="auto").engine == "auto"
    assert embed.plan(simulate=True).engine == "auto"
    assert embed.plan(simulate="cpython").engine == "cpython"
    args = cli.build_parser().parse_args(["serve", "--simulate"])
    assert args.simulate == "auto"
    args = cli.build_parser().parse_args(["serve", "--simulate", "--port", "0"])
    assert (args.simulate, args.port) == ("auto", 0)
    assert cli.build_parser().parse_args(["serve"]).simulate is False
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["serve", "--simulate=pypy"])


def box_page(live, table_id):
    """The table's box page as the app renders it now."""
    return live.app.test_client().get(f"/tables/{table_id}/box").get_data(as_text=True)


@pytest.mark.parametrize(
    ("engine", "label"),
    [("cpython", "Simulated box: CPython"), ("micropython", "Simulated box: MicroPython")],
)
def test_serve_simulate_says_which_engine_runs_in_the_status_and_the_panel(live, engine, label):
    table = Razzia(live)
    running = embed.Embedded(live.app, live.url, embed.plan(simulate=engine))
    try:
        assert running.sim.ENGINE == engine
        assert wait_until(lambda: live.ok("GET", "/api/device/status")["connected"], SHOWN_S)
        status = live.ok("GET", "/api/device/status")
        assert status["mode"] == "simulator" and status["simulator"] == engine
        page = box_page(live, table.id)
        assert f'data-engine="{engine}">{label}</span>' in page
    finally:
        running.stop()
    assert "simulator" not in live.ok("GET", "/api/device/status")
    assert 'data-testid="device-engine"' not in box_page(live, table.id)
