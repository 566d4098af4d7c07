"""Issue 32 item 6 in Chromium at 1024x768: table labels on the room display and the tablet,
the winner's row the largest text of a finished tile, and long names on a 9-player tile.

Six tables fill one screen of a 1024x768 projector: a finished 9-player Cech zlodějů table
with long Czech names among them. Every tile carries its label; the winner's row is its
tile's largest text; no name is cut to an ellipsis (names wrap at spaces, and a tile of many
players shows "František N."). Screenshot: test-artifacts/screenshots/room-1024x768-labels.png.
"""

import random

import pytest

from companion_app.store import get_store
from tests.live import chromium, screenshot, served
from tests.web.room_tables import play_on
from tests.web.test_room_browser import ApiTable, open_room, serve_app

pytestmark = pytest.mark.browser

XGA = {"width": 1024, "height": 768}
#: Long Czech names, two of them long enough to need the short form on a tile of nine.
LONG_NAMES = [
    "František Novotný",
    "Bořek Stavitel",
    "Hana Kovářová",
    "Vendula Štěpánková",
    "Cyril Dvořák",
    "Jaroslava Procházková",
    "Květoslav Hrubý",
    "Radomír Šťastný",
    "Ludmila Veselá",
]
#: Each tile's label, each name cell's text and whether it overflows (an ellipsis), and the
#: font size of each standings row, the winner's marked.
TILES = """() => [...document.querySelectorAll('[data-testid=room-tile]')].map(tile => ({
  table: tile.dataset.table,
  label: tile.querySelector('[data-testid=room-table-label]')?.textContent.trim(),
  cut: tile.scrollHeight > tile.clientHeight + 1 || tile.scrollWidth > tile.clientWidth + 1
    || tile.getBoundingClientRect().bottom > innerHeight + 1,
  names: [...tile.querySelectorAll('tbody th')].map(th => ({
    text: th.textContent.trim(), title: th.title,
    ellipsis: th.scrollWidth > th.clientWidth + 1,
  })),
  rows: [...tile.querySelectorAll('tbody tr')].map(tr => ({
    winner: tr.classList.contains('winner'),
    px: parseFloat(getComputedStyle(tr.querySelector('th')).fontSize),
  })),
  largest: Math.max(...[...tile.querySelectorAll('*')].filter(el => el.childElementCount === 0
    && el.textContent.trim()).map(el => parseFloat(getComputedStyle(el).fontSize))),
}))"""


def test_labels_winner_row_and_long_names_on_a_1024x768_room(tmp_path):
    app = serve_app(tmp_path)
    with served(app) as server, chromium() as browser:
        base = f"http://127.0.0.1:{server.server_port}"
        with app.app_context():
            cech = get_store().create_table(
                "thieves_guild", {"players": LONG_NAMES, "card_costs": [1, 2, 4]}
            )
            play_on(cech.id, 100_000, random.Random(7))  # to its end
        labelled = ApiTable(base, "razzia", {"players": LONG_NAMES[:4], "label": "U okna"}, 1)
        others = [
            ApiTable(base, "for_sale", {"players": LONG_NAMES[:5]}, 2),
            ApiTable(base, "thieves_guild", {"players": LONG_NAMES, "card_costs": [1, 2, 4]}, 3),
            ApiTable(base, "razzia", {"players": LONG_NAMES[:3]}, 4),
            ApiTable(base, "for_sale", {"players": LONG_NAMES[:6]}, 5),
        ]
        for table in [labelled, *others]:
            for _ in range(4):
                table.move()
        assert labelled.table["label"] == "U okna"
        # The finished table gave its number back; the labelled one took none.
        labels = [table.table["label"] for table in others]
        assert labels == ["Table 1", "Table 2", "Table 3", "Table 4"]  # the API's language
        page, errors = open_room(browser, base, XGA, "cs-CZ")
        tiles = {tile["table"]: tile for tile in page.evaluate(TILES)}
        screenshot(page, "room-1024x768-labels")
        assert len(tiles) == 6
        assert tiles[labelled.id]["label"] == "U okna"
        assert {tile["label"] for tile in tiles.values()} >= {"Stůl 1", "Stůl 4"}, tiles
        finished = tiles[cech.id]
        winners = [row["px"] for row in finished["rows"] if row["winner"]]
        assert winners and min(winners) >= finished["largest"] - 0.5, finished
        assert min(winners) > max(row["px"] for row in finished["rows"] if not row["winner"])
        for tile in tiles.values():
            assert not tile["cut"], tile
            for name in tile["names"]:
                assert not name["ellipsis"], (tile["table"], name)
        nine = [name["text"] for name in finished["names"]]
        assert any("František N." in text for text in nine), nine
        assert any(name["title"] == "František Novotný" for name in finished["names"])
        tablet = browser.new_context(viewport=XGA).new_page()
        tablet.goto(f"{base}/tables/{labelled.id}")
        assert tablet.get_by_test_id("table-label").inner_text() == "U okna"
        assert not errors, errors
