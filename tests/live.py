"""What the browser and live-server tests share: Debian's Chromium and the real app server."""

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion_app.server.serve import Background

CHROMIUM = "/usr/bin/chromium"
#: Screenshots of the browser tests (gitignored), to look at after a run.
SHOTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "screenshots"
#: How long a browser test waits for what follows a tap or a push (a live update, a seat
#: locking, a countdown's end): a liveness bound, not a speed one, so long that a host whose
#: cores are all busy still makes it (an 8 s wait for a reveal's end once ran out there).
WAIT_MS = 30_000
#: Everything a finger presses must be at least this big (CSS pixels).
TOUCH = 48
#: The page's touch targets under `args.touch` px, outside `args.skip` (a selector or null).
SMALL_TARGETS = """(args) => [...document.querySelectorAll(args.targets)]
  .filter(el => !(args.skip && el.closest(args.skip)))
  .map(el => [el, el.getBoundingClientRect()])
  .filter(([el, box]) => box.width && box.height
    && (box.width < args.touch || box.height < args.touch))
  .map(([el, box]) => el.outerHTML.slice(0, 70) + " " + box.width + "x" + box.height)"""
#: Headless flags proven on our machines (the closed network refuses background traffic).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class Served(Background):
    """The app served as `companion serve` serves it, in a thread; `server_port` is its port."""

    @property
    def server_port(self) -> int:
        """The port the server listens on."""
        return self.port


@contextmanager
def served(app, port: int = 0) -> Iterator[Served]:
    """Serve `app` on loopback in a thread with the real server (uvicorn and the live front)."""
    with Served(app, port) as server:
        yield server


def screenshot(page, name: str) -> None:
    """A full-page screenshot into test-artifacts/screenshots/<name>.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def check_tablet_fit(page, name: str, width: int, targets: str = "", skip: str = "") -> None:
    """The page does not scroll sideways at `width`; `targets` are at least TOUCH px."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{name}: {wide}px wide, scrolls sideways"
    if targets:
        args = {"targets": targets, "touch": TOUCH, "skip": skip or None}
        small = page.evaluate(SMALL_TARGETS, args)
        assert not small, f"{name}: targets under {TOUCH}px: {small}"


#: The one Chromium of this test process (a pytest-xdist worker or a plain run), launched at its
#: first browser test: a launch with its Playwright driver cost about 1.1 s of CPU, once per
#: browser test before (issue 22: the suite under 10 minutes).
_SHARED: dict = {}


@contextmanager
def chromium():
    """Debian's headless Chromium through Playwright; fails (never skips) when it is missing.

    The browser is shared by the process's tests; each test's own contexts and pages (cookies,
    storage, viewport) are its alone and are closed when it ends.
    """
    browser = _shared_browser()
    before = set(browser.contexts)
    try:
        yield browser
    finally:
        for context in browser.contexts:
            if context not in before:
                context.close()


def _shared_browser():
    """The process's browser, launched (again, after a crash) when there is none."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium).")
    browser = _SHARED.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    stop_chromium()
    from playwright.sync_api import sync_playwright

    _SHARED["playwright"] = sync_playwright().start()
    _SHARED["browser"] = _SHARED["playwright"].chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS
    )
    return _SHARED["browser"]


def stop_chromium() -> None:
    """Close the process's browser and its Playwright driver, if they were started."""
    browser, playwright = _SHARED.pop("browser", None), _SHARED.pop("playwright", None)
    if browser is not None and browser.is_connected():
        browser.close()
    if playwright is not None:
        playwright.stop()


def json_request(
    base_url: str, method: str, path: str, body: object = None, timeout: float = 10.0
) -> tuple[int, dict]:
    """One JSON request to a live server: (status, JSON body); connection failures raise OSError."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base_url + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code, json.loads(refused.read())


def final_rows(page, score_attr: str) -> list[tuple[int, int, int]]:
    """The final screen's breakdown rows as (seat, score, rank), in the order shown."""
    rows = page.query_selector_all("[data-testid=final-breakdown] tbody tr")
    return [
        (
            int(row.get_attribute("data-seat")),
            int(row.get_attribute(score_attr)),
            int(row.get_attribute("data-rank")),
        )
        for row in rows
    ]


def ranked_rows(final: dict) -> list[tuple[int, int, int]]:
    """A game's `results` players as (seat, score, rank), best rank first, then by seat."""
    rows = ((player["seat"], player["score"], player["rank"]) for player in final["players"])
    return sorted(rows, key=lambda row: (row[2], row[0]))
