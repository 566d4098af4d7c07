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
