"""What the browser and live-server tests share: Debian's Chromium and a threaded app server."""

import json
import os
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from companion_app.store.changes import get_feed

CHROMIUM = "/usr/bin/chromium"
#: Screenshots of the browser tests (gitignored), to look at after a run.
SHOTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "screenshots"
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


class QuietHandler(WSGIRequestHandler):
    """The live server's request handler, without a log line per request."""

    def log_request(self, *args) -> None:
        """Stay quiet; failures show up in the test's own assertions."""


@contextmanager
def served(app, port: int = 0, quiet: bool = True) -> Iterator[BaseWSGIServer]:
    """Serve `app` on loopback in a thread, threaded (each box panel holds a long poll)."""
    handler = QuietHandler if quiet else WSGIRequestHandler
    server = make_server("127.0.0.1", port, app, threaded=True, request_handler=handler)
    server.daemon_threads = False  # server_close() joins every request thread
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        get_feed(app).close()  # release long polls so their threads end promptly
        server.shutdown()
        thread.join()
        server.server_close()


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


@contextmanager
def chromium():
    """Debian's headless Chromium through Playwright; fails (never skips) when it is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


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
