"""The on-screen box in headless Chromium: LEDs follow the table, seat buttons lock and reveal."""

from pathlib import Path

import pytest

from companion_app.device.frame import firmware_frame as F
from companion_app.device.status import get_status
from tests.device_app.conftest import make_app
from tests.device_app.helpers import DeviceApi
from tests.live import WAIT_MS, chromium, served

pytestmark = pytest.mark.browser

SCREENSHOT = Path(__file__).resolve().parents[2] / "test-artifacts/screenshots/device_panel.png"
VIEWPORT = {"width": 1024, "height": 768}
SCREEN_MAX = 255


@pytest.fixture
def live_app(tmp_path):
    """The app on a real port, threaded (long polls hold a thread each); yields (url, app)."""
    app = make_app(str(tmp_path), DEVICE_LONG_POLL_S=2.0, DEVICE_RECHECK_S=0.2)
    with served(app) as server:
        yield f"http://127.0.0.1:{server.server_port}", app


@pytest.fixture
def page():
    """A 1024x768 page in Debian's Chromium; fails (never skips) when Chromium is missing."""
    with chromium() as browser:
        tab = browser.new_page(viewport=VIEWPORT)
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        yield tab
    assert not errors, errors


def screen(palette_index: int) -> str:
    """The CSS colour the panel shows for a firmware palette entry (levels scaled to 255)."""
    levels = F.Frame().colour(palette_index)
    channels = [min(SCREEN_MAX, round(v * SCREEN_MAX / F.Frame.MAX_LEVEL)) for v in levels]
    return "rgb({}, {}, {})".format(*channels)


def wait_colour(page, pixel: int, colour: str) -> None:
    """Wait until LED `pixel` of the strip is painted `colour` (computed style)."""
    page.wait_for_function(
        "([pixel, colour]) => getComputedStyle("
        "document.querySelector(`[data-testid=led-${pixel}]`)).backgroundColor === colour",
        arg=[pixel, colour],
        timeout=WAIT_MS,
    )


def colour_of(page, pixel: int) -> str:
    """LED `pixel`'s colour as the browser computed it (found and read in one step: a live
    update may put a new panel in place of the old one at any moment)."""
    return page.evaluate(
        "selector => getComputedStyle(document.querySelector(selector)).backgroundColor",
        f"[data-testid=led-{pixel}]",
    )


def test_the_panel_follows_the_table_and_runs_a_reveal(live_app, page):
    """Police drawn through the API light the 4th LED; seats lock green, then reveal white."""
    base, app = live_app
    api = DeviceApi(app.test_client())
    table = api.police(api.dealt(), 3)
    page.goto(f"{base}/tables/{table['id']}/box")

    assert colour_of(page, 3) == screen(F.C_SLOT)
    assert colour_of(page, 2) == screen(F.C_POLICE)
    assert page.inner_text("[data-testid=device-badge]") == "Virtual box"
    api.police(table, 1)
    wait_colour(page, 3, screen(F.C_POLICE))
    assert page.get_attribute("[data-testid=led-3]", "data-level") == "{},{},{}".format(
        *F.Frame().colour(F.C_POLICE)
    )

    page.click("[data-testid=reveal-arm]")
    for seat in range(4):
        wait_colour(page, F.Frame.SEAT_FIRST + seat, screen(F.C_ARMED))
    assert page.get_attribute("[data-testid=seat-0]", "data-state") == "armed"

    page.click("[data-testid=seat-0]")
    page.click("[data-testid=seat-2]")
    wait_colour(page, F.Frame.SEAT_FIRST + 0, screen(F.C_LOCKED))
    wait_colour(page, F.Frame.SEAT_FIRST + 2, screen(F.C_LOCKED))
    assert colour_of(page, F.Frame.SEAT_FIRST + 1) == screen(F.C_ARMED)
    assert page.is_disabled("[data-testid=seat-0]")
    assert page.inner_text("[data-testid=reveal-status]") == "Reveal 1: 2 of 4 locked in"
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))

    page.click("[data-testid=seat-1]")
    page.click("[data-testid=seat-3]")
    for seat in range(4):
        wait_colour(page, F.Frame.SEAT_FIRST + seat, screen(F.C_REVEALED))
    assert page.inner_text("[data-testid=reveal-status]") == "Reveal 1: revealed"
    assert api.view(table["id"])[1]["reveal"]["revealed"] is True

    get_status(app).update(mode="serial", connected=False, port="/dev/ttyUSB0")
    page.wait_for_selector("[data-testid=device-badge][data-state=disconnected]", timeout=WAIT_MS)
    assert page.inner_text("[data-testid=device-badge]") == "Box disconnected"


def test_a_press_from_the_box_shows_on_the_panel(live_app, page):
    """A press through the API (as the bridge sends it) turns the seat green on screen."""
    base, app = live_app
    api = DeviceApi(app.test_client())
    table = api.dealt(["Ann", "Bob"])
    api.arm(table["id"], [0, 1])
    page.goto(f"{base}/tables/{table['id']}/box")
    wait_colour(page, F.Frame.SEAT_FIRST + 1, screen(F.C_ARMED))
    api.press(table["id"], 1, 1)
    wait_colour(page, F.Frame.SEAT_FIRST + 1, screen(F.C_LOCKED))
    assert page.inner_text("[data-testid=seat-state-1]") == "locked in"
    page.click("[data-testid=reveal-disarm]")
    wait_colour(page, F.Frame.SEAT_FIRST + 1, screen(F.C_IDLE))
    assert api.view(table["id"])[1]["reveal"] is None
