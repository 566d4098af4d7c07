"""The room display in Chromium at 1920x1080 (issue 26's Done means): three tables of
different games move, and every move shows on the open /room page without a reload.

Also: every tile fits its share of a 1920x1080 and a 1280x720 screen with nothing cut off,
its type is big enough to read from across a room, and pages turn when the tables need more
than one screen. Screenshots land in test-artifacts/screenshots/room-*.png.
"""

import random

import pytest

from companion_app import create_app
from companion_app.web import room
from scoring.games import get_game
from tests.live import WAIT_MS, chromium, json_request, screenshot, served
from tests.web.room_tables import MOVES, NAMES

pytestmark = pytest.mark.browser

FULL_HD = {"width": 1920, "height": 1080}
HD = {"width": 1280, "height": 720}
#: Smallest type of a player's name or the status line, in CSS px at 1920x1080: about 11 mm
#: capitals on a 55-inch screen, what the eye reads at 4 m with room to spare.
READABLE_PX = 28
MARKER = "window.__notReloaded = 'still here'"
#: Every tile's content fits inside it; the names, numbers and status lines' type sizes.
LAYOUT = """() => [...document.querySelectorAll(
    '[data-room-page]:not([hidden]) [data-testid=room-tile]')]
  .map(tile => ({
    table: tile.dataset.table,
    cut: tile.scrollHeight > tile.clientHeight + 1 || tile.scrollWidth > tile.clientWidth + 1,
    smallest: Math.min(...[...tile.querySelectorAll(
      'tbody th, tbody td, [data-testid=room-status]')]
      .map(el => parseFloat(getComputedStyle(el).fontSize))),
  }))"""
#: True once the tile of table `id` shows `version`.
TILE_VERSION = """([id, version]) =>
  document.querySelector(`[data-table='${id}']`)?.dataset.version === String(version)"""
#: True once page `number` of the room is the one on screen, and the only one.
PAGE_SHOWN = """(number) => {
  const shown = document.querySelectorAll('[data-room-page]:not([hidden])');
  const label = document.querySelector('[data-testid=room-pages]').textContent.trim();
  return shown.length === 1 && shown[0].dataset.roomPage === number
    && label.startsWith(number + ' / ');
}"""


class ApiTable:
    """A table made and played through the JSON API from this computer (which may edit)."""

    def __init__(self, base: str, game: str, setup: dict, seed: int) -> None:
        """Create the table; its moves are random and legal, drawn from `seed`."""
        self.base = base
        self.rules = get_game(game)
        self.rng = random.Random(seed)
        status, self.table = json_request(base, "POST", "/api/tables", {"game": game, **setup})
        assert status == 201, self.table

    @property
    def id(self) -> str:
        """The table's id."""
        return self.table["id"]

    def move(self) -> int:
        """One random legal move; the table's version after it."""
        state = self.table["state"]
        move = self.rules.complete_move(state, MOVES[self.table["game"]](state, self.rng), self.rng)
        body = {"version": self.table["version"], "move": move}
        status, self.table = json_request(self.base, "POST", f"/api/tables/{self.id}/moves", body)
        assert status == 200, self.table
        return self.table["version"]


def serve_app(tmp_path):
    """The app on its own instance folder, for `served`."""
    settings = {"TESTING": True, "SECRET_KEY": "room-browser"}
    return create_app(settings, instance_path=str(tmp_path / "instance"))


def three_tables(base: str) -> list[ApiTable]:
    """Razzia! with 4, For Sale with 5 and Cech zlodějů with 9 players (its biggest table)."""
    return [
        ApiTable(base, "razzia", {"players": NAMES[:4]}, 1),
        ApiTable(base, "for_sale", {"players": NAMES[:5]}, 2),
        ApiTable(base, "thieves_guild", {"players": NAMES[:9], "card_costs": [1, 2, 4]}, 3),
    ]


def open_room(browser, base: str, viewport: dict, locale: str = "en-US"):
    """/room in a fresh context at `viewport`; (page, its script errors)."""
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/room")
    page.wait_for_selector("main[data-live-version]")
    return page, errors


def check_layout(page, name: str, readable_px: float) -> None:
    """Nothing cut off in any tile on screen, no sideways scroll, and type big enough."""
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    for tile in page.evaluate(LAYOUT):
        assert not tile["cut"], f"{name}: tile {tile['table']} is cut off"
        assert tile["smallest"] >= readable_px, f"{name}: {tile}"


def test_every_move_of_three_games_shows_on_the_room_display(tmp_path):
    app = serve_app(tmp_path)
    with served(app) as server, chromium() as browser:
        base = f"http://127.0.0.1:{server.server_port}"
        tables = three_tables(base)
        page, errors = open_room(browser, base, FULL_HD)
        page.evaluate(MARKER)
        assert page.locator("[data-testid=room-tile]").count() == 3
        for _round in range(6):
            for table in tables:
                version = table.move()
                page.wait_for_function(TILE_VERSION, arg=[table.id, version], timeout=WAIT_MS)
                tile = page.locator(f"[data-table='{table.id}']")
                view = table.table["state"]
                last = tile.locator("[data-testid=room-last-move]").inner_text()
                assert last.strip(), "the last move is shown"
                names = [player["name"] for player in view["players"]]
                shown = tile.locator("[data-testid=room-line] th").all_inner_texts()
                assert [name.split(". ")[-1] for name in shown] == names
        assert page.evaluate("window.__notReloaded") == "still here"
        check_layout(page, "1920x1080 en", READABLE_PX)
        screenshot(page, "room-1920x1080-en")
        assert not errors, errors


@pytest.mark.parametrize(
    ("viewport", "locale", "readable_px"),
    [
        (FULL_HD, "cs-CZ", READABLE_PX),
        (HD, "en-US", READABLE_PX * 2 / 3),
        (HD, "cs-CZ", READABLE_PX * 2 / 3),
    ],
    ids=["1920x1080-cs", "1280x720-en", "1280x720-cs"],
)
def test_six_tables_of_every_game_fit_one_screen(tmp_path, viewport, locale, readable_px):
    """Six tables (the most one page holds) at 1920x1080 and 1280x720 (the same TV at a
    lower resolution: the same layout, two thirds of the pixels)."""
    app = serve_app(tmp_path)
    with served(app) as server, chromium() as browser:
        base = f"http://127.0.0.1:{server.server_port}"
        tables = [
            *three_tables(base),
            ApiTable(base, "razzia", {"players": NAMES[:5]}, 4),
            ApiTable(base, "for_sale", {"players": NAMES[:6]}, 5),
            ApiTable(base, "thieves_guild", {"players": NAMES[:3], "card_costs": [1, 2]}, 6),
        ]
        for table in tables:
            for _ in range(8):
                table.move()
        page, errors = open_room(browser, base, viewport, locale)
        assert page.locator("[data-testid=room-tile]").count() == 6
        check_layout(page, f"{viewport} {locale}", readable_px)
        name = f"room-{viewport['width']}x{viewport['height']}-{locale[:2]}"
        screenshot(page, name)
        assert not errors, errors


def test_pages_turn_by_themselves(tmp_path, monkeypatch):
    monkeypatch.setattr(room, "ROTATE_S", 1)
    app = serve_app(tmp_path)
    with served(app) as server, chromium() as browser:
        base = f"http://127.0.0.1:{server.server_port}"
        for seed in range(8):
            ApiTable(base, "razzia", {"players": NAMES[:3]}, seed)
        page, errors = open_room(browser, base, FULL_HD)
        assert page.locator("[data-room-page]").count() == 2  # 8 tables: two pages of 4
        page.wait_for_function(PAGE_SHOWN, arg="2", timeout=WAIT_MS)
        page.wait_for_function(PAGE_SHOWN, arg="1", timeout=WAIT_MS)
        assert not errors, errors


def test_a_live_update_keeps_the_page_on_screen_and_keys_turn_pages(tmp_path):
    app = serve_app(tmp_path)
    with served(app) as server, chromium() as browser:
        base = f"http://127.0.0.1:{server.server_port}"
        tables = [ApiTable(base, "razzia", {"players": NAMES[:3]}, seed) for seed in range(8)]
        page, errors = open_room(browser, base, FULL_HD)
        page.keyboard.press("ArrowRight")
        assert page.evaluate(PAGE_SHOWN, "2")
        second = tables[-1]  # its tile is on the second page
        version = second.move()
        page.wait_for_function(TILE_VERSION, arg=[second.id, version], timeout=WAIT_MS)
        assert page.evaluate(PAGE_SHOWN, "2")
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(PAGE_SHOWN, "1")
        page.keyboard.press("ArrowLeft")  # back from the first page: the last one
        assert page.evaluate(PAGE_SHOWN, "2")
        assert not errors, errors


#: Marks each tile element on the page, to tell a tile patched in place from a page redrawn.
MARK_TILES = """() => document.querySelectorAll('[data-testid=room-tile]')
  .forEach(tile => { tile.__marked = tile.dataset.table; })"""
#: The tables whose tile element is still the one marked.
MARKED = """() => [...document.querySelectorAll('[data-testid=room-tile]')]
  .filter(tile => tile.__marked === tile.dataset.table).map(tile => tile.dataset.table)"""
#: The tables shown, in page order.
SHOWN = """() => [...document.querySelectorAll('[data-testid=room-tile]')]
  .map(tile => tile.dataset.table)"""


def test_a_move_patches_its_tile_and_a_new_table_is_added_in_place(tmp_path):
    """Issue 33 item 6: the room gets a move's tile alone and swaps it in; the other tiles
    stay the same elements. A new table arrives as its tile and a layout: the page places it
    and keeps the others; the count in the header follows."""
    app = serve_app(tmp_path)
    with served(app) as server, chromium() as browser:
        base = f"http://127.0.0.1:{server.server_port}"
        tables = [ApiTable(base, "razzia", {"players": NAMES[:3]}, seed) for seed in range(3)]
        page, errors = open_room(browser, base, FULL_HD)
        page.evaluate(MARKER)
        page.evaluate(MARK_TILES)
        version = tables[1].move()
        page.wait_for_function(TILE_VERSION, arg=[tables[1].id, version], timeout=WAIT_MS)
        assert sorted(page.evaluate(MARKED)) == sorted([tables[0].id, tables[2].id])
        added = ApiTable(base, "for_sale", {"players": NAMES[:4]}, 9)
        page.wait_for_function(TILE_VERSION, arg=[added.id, 0], timeout=WAIT_MS)
        assert page.evaluate(SHOWN) == [table.id for table in [*tables, added]]
        assert sorted(page.evaluate(MARKED)) == sorted([tables[0].id, tables[2].id])
        assert page.get_by_test_id("room-count").inner_text().startswith("4 tables in play")
        assert page.evaluate("window.__notReloaded") == "still here"
        screenshot(page, "room-patched-1920x1080-en")
        assert not errors, errors


@pytest.mark.parametrize(("viewport", "locale"), [(HD, "cs-CZ"), (FULL_HD, "en-US")])
def test_the_room_in_pages_links_them_and_fits_the_screen(tmp_path, viewport, locale):
    """Issue 33 item 5: 26 tables make two /room pages of 24 and 2; the header names the
    tables shown and links the next page, and still fits one line of the screen."""
    app = serve_app(tmp_path)
    with served(app) as server, chromium() as browser:
        base = f"http://127.0.0.1:{server.server_port}"
        tables = [ApiTable(base, "razzia", {"players": NAMES[:3]}, seed) for seed in range(26)]
        page, errors = open_room(browser, base, viewport, locale)
        assert page.locator("[data-testid=room-tile]").count() == 24
        check_layout(page, f"paged {locale}", READABLE_PX * viewport["height"] / 1080)
        head = page.locator(".room-head").bounding_box()
        assert head["height"] <= viewport["height"] * 0.08, head  # one line, as without pages
        page.get_by_test_id("room-next").click()
        page.wait_for_selector("main[data-live-url$='page=2']")
        shown = page.evaluate(SHOWN)
        assert shown == [table.id for table in tables[24:]]
        screenshot(page, f"room-page-2-{viewport['width']}x{viewport['height']}-{locale[:2]}")
        assert not errors, errors
