"""Two devices on one table in Chromium: a move on the tablet shows on the phone, no reload.

The phone's page is never reloaded: a marker set on its window survives every update. A
viewer takes the HTML the stream pushes; an editor fetches its own page, but not while it
is filling in a form (docs/live.md).
"""

import pytest

from companion_app import create_app
from tests.live import WAIT_MS, chromium, screenshot, served
from tests.web import game_script as g

pytestmark = pytest.mark.browser

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 800, "height": 1280}
MARKER = "window.__notReloaded = 'still here'"
STILL_HERE = "window.__notReloaded"


def serve_app(tmp_path, **config):
    """The app with its own instance folder (config overrides), for `served`."""
    settings = {"TESTING": True, "SECRET_KEY": "live-browser", **config}
    return create_app(settings, instance_path=str(tmp_path / "instance"))


def new_page(browser, viewport):
    """A page in a fresh browser context (its own cookies: another device)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


def create_and_open(tablet, base: str) -> str:
    """On the tablet: new Razzia! table with four players; its URL (the tablet hosts it)."""
    tablet.goto(base + "/tables/new/razzia")
    for seat, name in enumerate(g.PLAYERS):
        tablet.fill(f"[data-testid=player-{seat}]", name)
    with tablet.expect_navigation():
        tablet.click("[data-testid=create]")
    return tablet.url


def deal_on(tablet) -> None:
    """The tablet deals the sets A, B, C, D by hand."""
    for seat, label in enumerate(g.SETS):
        tablet.click(f"[data-testid=set-{seat}] .chip:has(input[data-set='{label}'])")
    with tablet.expect_navigation():
        tablet.click("[data-testid=deal-hand]")


#: Same-origin POSTs from the phone's page, as its browser would send them: their statuses.
PHONE_POSTS = """async (url) => {
  const form = (fields) => ({method: "POST", body: new URLSearchParams(fields)});
  const json = (body) => ({method: "POST", headers: {"Content-Type": "application/json"},
                           body: JSON.stringify(body)});
  const api = url.replace("/tables/", "/api/tables/");
  const answers = await Promise.all([
    fetch(url + "/undo", form({version: "1"})),
    fetch(url + "/moves", form({version: "1", type: "draw"})),
    fetch(api + "/undo", json({version: 1})),
  ]);
  return answers.map((answer) => answer.status);
}"""
#: The table's version as the API tells it.
TABLE_VERSION = """async (url) => {
  const answer = await fetch(url.replace("/tables/", "/api/tables/"));
  return (await answer.json()).version;
}"""


def phone_posts(phone, url: str) -> list[int]:
    """The statuses of the phone's undo and move posts (form and API)."""
    return phone.evaluate(PHONE_POSTS, url)


def test_a_move_on_the_tablet_appears_on_a_watching_phone(tmp_path):
    """The phone only watches (no rights): its table and history pages follow the tablet."""
    with served(serve_app(tmp_path, LOCAL_IS_HOST=False)) as server, chromium() as browser:
        base = f"http://127.0.0.1:{server.server_port}"
        tablet, tablet_errors = new_page(browser, TABLET)
        url = create_and_open(tablet, base)
        phone, phone_errors = new_page(browser, PHONE)
        phone.goto(url)
        history = phone.context.new_page()
        history.goto(url + "/history")
        for page in (phone, history):
            page.evaluate(MARKER)
        assert phone.get_attribute("main", "data-live-role") == "viewer"
        assert phone.query_selector("main form[action$='/moves']") is None
        assert history.query_selector("[data-testid=history]") is None

        deal_on(tablet)
        tablet.wait_for_selector("[data-testid=turn]")
        phone.wait_for_selector("[data-testid=turn]", timeout=WAIT_MS)
        history.wait_for_selector("[data-testid=history] li", timeout=WAIT_MS)
        for page in (phone, history):
            assert page.evaluate(STILL_HERE) == "still here"
            assert page.get_attribute("main", "data-live-version").startswith("1.")
        assert phone.inner_text("[data-testid=turn]") == tablet.inner_text("[data-testid=turn]")
        assert phone.query_selector("main form[action$='/moves']") is None
        screenshot(phone, "live-phone-after-move")
        assert phone_posts(phone, url) == [403, 403, 403]  # the phone's own writes, refused
        assert tablet.evaluate(TABLE_VERSION, url) == 1  # ...and nothing changed
        assert not tablet_errors and not phone_errors


def test_an_editor_swaps_in_its_own_page_but_not_over_a_form_being_filled_in(tmp_path):
    """Both devices may edit (this computer hosts); the second one is choosing sets."""
    with served(serve_app(tmp_path)) as server, chromium() as browser:
        base = f"http://127.0.0.1:{server.server_port}"
        tablet, tablet_errors = new_page(browser, TABLET)
        url = create_and_open(tablet, base)
        scorer, scorer_errors = new_page(browser, PHONE)
        scorer.goto(url)
        scorer.evaluate(MARKER)
        assert scorer.get_attribute("main", "data-live-role") == "editor"
        scorer.click("[data-testid=set-0] .chip:has(input[data-set=B])")  # a form half filled in...
        scorer.focus("[data-testid=set-0] input[data-set=B]")  # ...and still being filled in

        deal_on(tablet)
        scorer.wait_for_selector("main[data-live-pending]", timeout=WAIT_MS)
        assert scorer.get_attribute("main", "data-live-version").startswith("0.")
        assert scorer.is_checked("[data-testid=set-0] input[data-set=B]")  # left alone

        scorer.evaluate(
            "document.querySelector('[data-testid=set-0] input').form.reset()"
        )  # changed its mind
        assert scorer.get_attribute("main", "data-live-pending")  # ...but is still in the form
        scorer.evaluate("document.activeElement.blur()")
        scorer.wait_for_selector("[data-testid=turn]", timeout=WAIT_MS)
        assert scorer.evaluate(STILL_HERE) == "still here"
        assert scorer.get_attribute("main", "data-live-version").startswith("1.")
        assert scorer.get_attribute("main", "data-live-pending") is None
        # The editor's own page: its move forms, which a viewer's pushed page does not have.
        assert scorer.query_selector("main form[action$='/moves']") is not None
        assert not tablet_errors and not scorer_errors
