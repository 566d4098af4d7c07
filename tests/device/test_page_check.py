"""The first-plug check from the box page (issue 25, item 6: "and the same on the box page").

The page's side is played here through the API, as device/boxcheck.js does it: ask for a
check, answer each question from what the simulated strip shows, press the simulated
buttons when asked. The bridge runs the same BoxCheck as `companion device check` and then
gives the box back to the table.
"""

import time
from urllib.parse import quote

import pytest

from companion_app.simulator.builder import SimulatedBuilder
from tests.device.liveapp import Razzia, wait_until
from tests.device.play import shows_view
from tests.device.test_simulator import simulator

CHECK_S = 120.0  # the whole check: 18 LEDs, the raid, six presses


class Page:
    """The box page's part of a check, on the simulator's behalf."""

    def __init__(self, live, table_id, sim):
        self.live = live
        self.table_id = table_id
        self.eyes = SimulatedBuilder(sim)
        self.sim = sim
        self.asked = []

    def run(self):
        """Ask for a check and answer it to the end; the final state."""
        state = self.live.ok("POST", f"/api/tables/{self.table_id}/box-check")
        deadline = time.monotonic() + CHECK_S
        answered = None
        while state["state"] in ("asked", "running") and time.monotonic() < deadline:
            question = state["question"]
            if question and question["id"] != answered:
                answered = question["id"]
                self.asked.append(question["kind"])
                self.act(question)
            state = self.live.ok("GET", f"/api/device/check?wait={quote(state['etag'])}")
        return state

    def act(self, question):
        """Answer one question (a press is done on the box, not answered)."""
        if question["kind"] == "press":
            self.eyes.press(question["seat"])
            return
        if question["kind"] == "led":
            led = type("Led", (), question["led"])
            yes = self.eyes.sees(led, question["colour"])
        else:
            yes = bool(self.sim.beeps)
        self.live.ok(
            "POST",
            f"/api/tables/{self.table_id}/box-check/answer",
            {"question": question["id"], "yes": yes},
        )


@pytest.fixture
def box(live, make_bridge):
    """A simulated box on MicroPython, bridged to the live app, showing a Razzia table."""
    sim = simulator("micropython").start()
    make_bridge(sim)
    game = Razzia(live)
    assert wait_until(lambda: live.status.snapshot()["connected"], 10.0)
    yield sim, game
    sim.stop()


def test_the_box_page_checks_the_box_and_gives_it_back_to_the_table(live, box):
    sim, game = box
    state = Page(live, game.id, sim).run()
    assert state["state"] == "done", state
    report = state["report"]
    assert report["passed"] is True, report["text"]
    codes = [result["code"] for result in report["results"]]
    assert codes == ["fw_ok", "port_kept", "leds_ok"] + ["press_once_s"] * 6 + ["beep_ok"]
    assert report["text"].splitlines()[0].endswith(": PASS")
    assert wait_until(lambda: shows_view(sim.leds(), game.device()), 10.0)  # the table again


def test_a_dead_led_fails_the_page_check_by_its_code(live, box):
    sim, game = box
    sim.break_led(4)
    page = Page(live, game.id, sim)
    state = page.run()
    report = state["report"]
    assert report["passed"] is False
    failed = [r for r in report["results"] if r["verdict"] == "fail"]
    assert [(r["item"], r["code"]) for r in failed] == [("leds", "led_dark")]
    assert failed[0]["params"]["led"] == {"index": 4, "segment": "police", "number": 5}
    assert page.asked.count("led") == 18 + 6  # every LED, then each seat's green


def test_a_dark_strip_fails_the_page_check_once_and_asks_no_green(live, box):
    """Issue 34, item 6: every LED dark is one finding, `strip_dark`, with the pins the page
    words it with; the page is asked about each LED once and about no seat's green."""
    sim, game = box
    sim.dark_strip()
    page = Page(live, game.id, sim)
    report = page.run()["report"]
    failed = [r for r in report["results"] if r["verdict"] == "fail"]
    assert [(r["item"], r["code"]) for r in failed] == [("leds", "strip_dark")]
    assert failed[0]["params"]["gpio"] == 13 and failed[0]["params"]["v5_header"] == "J1-19"
    assert page.asked.count("led") == 18
    assert wait_until(lambda: sim.frames > 0 and live.status.snapshot()["connected"], 10.0)


def test_the_page_can_stop_a_check_and_the_box_goes_back_to_the_table(live, box):
    sim, game = box
    live.ok("POST", f"/api/tables/{game.id}/box-check")
    assert wait_until(lambda: live.ok("GET", "/api/device/check")["question"], 10.0)
    state = live.ok("POST", f"/api/tables/{game.id}/box-check/cancel")
    assert state["state"] == "cancelled" and state["question"] is None
    assert wait_until(lambda: shows_view(sim.leds(), game.device()), 10.0)


def test_a_check_needs_a_box_and_only_one_runs(live):
    game = Razzia(live)
    status, answer = live.call("POST", f"/api/tables/{game.id}/box-check")
    assert (status, answer) == (
        409,
        {"error": "No box is connected: plug it in (companion serve finds it), then check it."},
    )
    live.status.update(mode="simulator", connected=True)
    live.ok("POST", f"/api/tables/{game.id}/box-check")
    status, answer = live.call("POST", f"/api/tables/{game.id}/box-check")
    assert (status, answer) == (409, {"error": "A check of the box is already running."})
    status, answer = live.call(
        "POST", f"/api/tables/{game.id}/box-check/answer", {"question": 1, "yes": True}
    )
    assert status == 409 and answer == {
        "error": "No question of the box check is waiting for an answer."
    }


@pytest.mark.parametrize(
    "body, error",
    [
        (
            {"number": 1, "question": {"kind": "dance"}},
            "question.kind must be one of led, press, beep.",
        ),
        ({"number": 1, "question": {"kind": "press", "seat": 9}}, "question.seat must be 1 to 6."),
        (
            {"number": 1, "question": {"kind": "led", "led": {"index": 40}, "colour": "red"}},
            "question.led must be {index, segment, number} of a strip LED.",
        ),
        (
            {"number": 1, "report": {"passed": True, "results": [{"verdict": "ok"}], "text": ""}},
            "report.results must be findings with a known verdict, item and code.",
        ),
        (
            {"number": "1", "start": True},
            'Send {"number": <check>, and "start": true, a "question" or the "report"}.',
        ),
    ],
)
def test_what_the_bridge_puts_is_checked_before_it_is_kept(live, body, error):
    game = Razzia(live)
    live.status.update(mode="simulator", connected=True)
    live.ok("POST", f"/api/tables/{game.id}/box-check")
    live.ok("PUT", "/api/device/check", {"number": 1, "start": True})
    status, answer = live.call("PUT", "/api/device/check", body)
    assert (status, answer) == (400, {"error": error})
    assert live.ok("GET", "/api/device/check")["question"] is None
