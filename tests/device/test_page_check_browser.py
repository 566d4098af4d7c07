"""The box page's check in Chromium, in Czech on a portrait tablet: a builder answering it.

The builder's eyes are the simulated strip (what a dead LED shows), its hands the simulated
buttons; every answer is a tap on the page. The question is on screen without scrolling, and
the report is worded in the page's language.
"""

from pathlib import Path

import pytest

from companion_app.simulator.builder import SimulatedBuilder
from tests.device.liveapp import Razzia, wait_until
from tests.device.test_check_words import DARK_CZECH
from tests.device.test_simulator import simulator
from tests.live import chromium, screenshot

pytestmark = pytest.mark.browser

PORTRAIT = {"width": 800, "height": 1280}
STEP_MS = 20000  # one question to the next (a press, the raid's 4 s)


def next_step(live, answered):
    """The check's state once it shows a new question or is over, else None."""
    state = live.ok("GET", "/api/device/check")
    if state["state"] not in ("asked", "running"):
        return state
    question = state["question"]
    return state if question and question["id"] != answered else None


IN_VIEW = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def bridged_box(live, make_bridge, fault):
    """A simulated box with `fault(sim)` done, bridged to the live app, and a table."""
    sim = simulator("micropython").start()
    fault(sim)
    make_bridge(sim)
    game = Razzia(live)
    assert wait_until(lambda: live.status.snapshot()["connected"], 10.0)
    return sim, game


@pytest.fixture
def box(live, make_bridge):
    """A simulated box with police LED 5 dead, bridged to the live app, and a table."""
    sim, game = bridged_box(live, make_bridge, lambda sim: sim.break_led(4))
    yield sim, game
    sim.stop()


@pytest.fixture
def dark_box(live, make_bridge):
    """A simulated box whose strip stays dark, bridged to the live app, and a table."""
    sim, game = bridged_box(live, make_bridge, lambda sim: sim.dark_strip())
    yield sim, game
    sim.stop()


def answer_on_page(page, live, sim, first_question=None):
    """Start the check on the box page and answer every question there as the builder would
    (taps on the page, presses on the simulated box); `first_question(page)` is called at the
    first question the page answers with a tap."""
    eyes = SimulatedBuilder(sim)
    before = live.ok("GET", "/api/device/check")["number"]
    page.click("[data-testid=box-check-start]")
    # The click returns before the page's request reaches the app: until the check is asked
    # for, the app's idle state would read as a check already over (and the bridge then
    # waited 300 s for answers nobody gave; the run ended 20 s later without a report).
    assert wait_until(
        lambda: live.ok("GET", "/api/device/check")["number"] > before, STEP_MS / 1000
    )
    answered = None
    while True:
        state = wait_until(lambda seen=answered: next_step(live, seen), STEP_MS / 1000)
        assert state, live.ok("GET", "/api/device/check")
        if state["state"] != "running":
            break
        question = state["question"]
        answered = question["id"]
        page.wait_for_selector(f"[data-testid=box-check-step][data-question='{answered}']")
        if question["kind"] == "press":
            assert page.inner_text("[data-testid=box-check-question]") == (
                f"Stiskněte jednou tlačítko místa {question['seat']}."
            )
            eyes.press(question["seat"])
            continue
        assert page.evaluate(IN_VIEW, "[data-testid=box-check-yes]")  # no scrolling
        if question["kind"] == "led":
            yes = eyes.sees(type("Led", (), question["led"]), question["colour"])
        else:
            yes = bool(sim.beeps)
        if first_question is not None:
            first_question(page)
            first_question = None
        page.click("[data-testid=box-check-yes]" if yes else "[data-testid=box-check-no]")
    page.wait_for_selector("[data-testid=box-check-report]:not([hidden])", timeout=STEP_MS)


def test_a_builder_checks_the_box_on_the_box_page_in_czech(live, box):
    sim, game = box
    with chromium() as browser:
        page = browser.new_page(viewport=PORTRAIT, locale="cs-CZ")
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live.url}/tables/{game.id}/box")
        answer_on_page(
            page, live, sim, lambda page: screenshot(page, "box_check_question_cs_portrait")
        )
        assert (
            page.inner_text("[data-testid=box-check-verdict]")
            == "Krabička neprošla 1 z 10 kontrol."
        )
        results = page.inner_text("[data-testid=box-check-results]")
        assert (
            "LED: policejní LED 5 (LED 5 na pásku) nesvítí červeně: zkontrolujte její pájené spoje,"
            " nebo ji vyměňte." in results
        )
        assert "Tlačítko místa 6: započteno jednou, " in results
        assert page.get_attribute("[data-testid=box-check-keep]", "download") == (
            "box-check-246f28a1b2c3.txt"
        )
        assert page.is_hidden("[data-testid=box-check-stop]") and errors == []
        with page.expect_download() as download:
            page.click("[data-testid=box-check-keep]")
        kept = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
        assert kept[0].startswith("Kontrola krabičky u stolu, ")
        assert kept[1] == "Krabička neprošla 1 z 10 kontrol."
        assert "CHYBA  LED: policejní LED 5 (LED 5 na pásku) nesvítí červeně" in "\n".join(kept)
        screenshot(page, "box_check_report_cs_portrait")
        page.set_viewport_size({"width": 1024, "height": 768})
        screenshot(page, "box_check_report_cs_landscape")


def test_a_dark_strip_is_one_fix_on_the_box_page_in_czech(live, dark_box):
    """Issue 34, item 6: every LED dark reads as one failure, with the header pins and the
    74AHCT125's pins in the order to test them, in the page's language."""
    sim, game = dark_box
    with chromium() as browser:
        page = browser.new_page(viewport=PORTRAIT, locale="cs-CZ")
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live.url}/tables/{game.id}/box")
        answer_on_page(page, live, sim)
        assert (
            page.inner_text("[data-testid=box-check-verdict]")
            == "Krabička neprošla 1 z 10 kontrol."
        )
        results = page.inner_text("[data-testid=box-check-results]")
        assert DARK_CZECH in results
        assert "přerušen" not in results and errors == []
        screenshot(page, "box_check_dark_strip_cs_portrait")
