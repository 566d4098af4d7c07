"""The Content-Security-Policy in headless Chromium: every main page loads with no violation.

The policy refuses inline scripts and <style> elements (docs/security.md); a page that
relied on one would break silently in the browser, so each page is opened in Chromium and
any `securitypolicyviolation` event or CSP console message fails the test.
"""

import pytest

from companion_app import create_app
from tests.live import chromium, served
from tests.results.conftest import play_table
from tests.web.test_prodigals_pages import setup_form

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1024, "height": 768}
#: Records every CSP violation of the page; Playwright runs it before the page's own scripts.
LISTEN = """window.__csp = [];
document.addEventListener("securitypolicyviolation", (event) => window.__csp.push(
  `${event.violatedDirective} ${event.blockedURI || "inline"} `
  + `${event.sourceFile}:${event.lineNumber}`
));"""
#: Lets the page's scripts run (fetches of the box panel, live updates) before reading.
SETTLE_MS = 500


@pytest.fixture
def site(tmp_path):
    """A live app with a table of each game, a dealt one and a finished one: (base, ids)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "csp"}, instance_path=str(tmp_path))
    client = app.test_client()
    ids = {"finished": play_table(app), "playing": play_table(app, rounds=1)}
    response = client.post("/api/tables", json={"game": "for_sale", "players": ["A", "B", "C"]})
    ids["for_sale"] = response.get_json()["id"]
    response = client.post("/tables/new/prodigals_club", data=setup_form())
    ids["prodigals_club"] = response.headers["Location"].rsplit("/", 1)[-1]
    season = {"name": "S", "kind": "placing", "place_1": "3", "place_2": "1", "evening": "1"}
    assert client.post("/club/seasons/new", data=season).status_code == 303
    with served(app) as server:
        yield f"http://127.0.0.1:{server.server_port}", ids


def main_pages(ids: dict) -> list[str]:
    """The paths of every kind of page the app shows."""
    finished, playing = ids["finished"], ids["playing"]
    pages = ["/", "/tables/new", "/score", "/history"]
    for game in ("razzia", "for_sale", "prodigals_club"):
        pages += [f"/tables/new/{game}", f"/score/{game}"]
    for table_id in (playing, ids["for_sale"], ids["prodigals_club"], finished):
        pages += [f"/tables/{table_id}", f"/tables/{table_id}/history"]
    pages += [f"/tables/{playing}/box", f"/tables/{playing}/results"]
    pages += [f"/tables/{finished}/results", f"/tables/{finished}/print/a4"]
    pages += ["/club", "/people", "/people/1", "/club/evenings/1", "/club/seasons/new"]
    pages += ["/club/seasons/1", "/club/seasons/1/print/a4", "/club/seasons/1/print/80mm"]
    return pages + [f"/tables/{finished}/print/80mm"]


def violations(page, console: list[str]) -> list[str]:
    """What the page's CSP refused so far (events and console messages), then forget them."""
    found = page.evaluate("window.__csp.splice(0)") + console[:]
    console.clear()
    return found


def keep_csp_message(console: list[str], text: str) -> None:
    """Keep a console message if it reports a CSP refusal."""
    if "Content Security Policy" in text:
        console.append(text)


def test_the_main_pages_load_without_csp_violations(site):
    """Every main page; then a language switch, a move (form posts, redirects) and a fetch."""
    base, ids = site
    with chromium() as browser:
        page = browser.new_page(viewport=VIEWPORT)
        page.add_init_script(LISTEN)
        console: list[str] = []
        page.on("console", lambda message: keep_csp_message(console, message.text))
        for path in main_pages(ids):
            response = page.goto(base + path)
            assert "script-src 'self'" in response.headers["content-security-policy"], path
            page.wait_for_timeout(SETTLE_MS if path.endswith("/box") else 0)
            assert not violations(page, console), path
        page.goto(f"{base}/tables/{ids['playing']}")
        with page.expect_navigation():
            page.click("[data-testid=lang-cs]")
        with page.expect_navigation():
            page.click("[data-testid=next-round]")
        page.click("[data-testid=device-fold] > summary")  # folded: no box, no reveal
        page.click("[data-testid=reveal-arm]")  # the box panel's fetch (connect-src)
        page.wait_for_selector("[data-testid=reveal-disarm]:not([disabled])")
        assert page.is_hidden("[data-testid=device-error]")
        assert not violations(page, console)


def test_the_policy_is_enforced_and_seen(site):
    """Control: an inline script added to a page is refused, and the refusal is recorded."""
    base, _ids = site
    with chromium() as browser:
        page = browser.new_page(viewport=VIEWPORT)
        page.add_init_script(LISTEN)
        page.goto(base + "/")
        page.evaluate(
            """() => { const script = document.createElement("script");
            script.textContent = "window.__ran = true"; document.body.append(script); }"""
        )
        page.wait_for_function("() => window.__csp.length > 0")
        assert page.evaluate("window.__ran") is None
        assert page.evaluate("window.__csp")[0].startswith("script-src")
