"""What the browser and live-server tests share: Debian's Chromium and a threaded app server."""

import json
import os
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from companion_app.device_changes import get_feed

CHROMIUM = "/usr/bin/chromium"
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
