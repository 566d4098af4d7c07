"""Razzia!'s card tiles break long names only where the language may (issue 14 item 3:
"Razzia's long card names (nightclub, restaurace) spill out of their tiles").

The `tile` filter puts soft hyphens at the break points of the page's language; the
stylesheet breaks there (`hyphens: manual`), so "restaurace" wraps as "restau-race", never as
"restaur|ace", even where the browser has no hyphenation dictionary (Chromium on Linux).
"""

import pytest

from companion_app.i18n.hyphens import SOFT_HYPHEN, soft_hyphens
from companion_app.store import get_store
from scoring.razzia import cards
from tests.live import screenshot
from tests.web import game_script

SIZES = ({"width": 1024, "height": 768}, {"width": 800, "height": 1280})
#: Every word piece between spaces and soft hyphens in the tiles must sit on one line, and no
#: tile may spill. A character's last client rect is its own: the first one of a character
#: after a soft-hyphen break is the hyphen drawn at the end of the line before.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const tile of document.querySelectorAll('.row-slots li.card, .card-button')) {
    if (tile.scrollWidth > tile.clientWidth + 1) broken.push(`spills: ${tile.textContent.trim()}`);
    const texts = document.createTreeWalker(tile, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      for (const piece of node.data.matchAll(/[^\\s\\u00ad]+/g)) {
        const lines = new Set();
        for (let at = piece.index; at < piece.index + piece[0].length; at++) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          const rects = [...range.getClientRects()];
          if (rects.length) lines.add(Math.round(rects[rects.length - 1].top));
        }
        if (lines.size > 1) broken.push(`${node.data.trim()} (at "${piece[0]}")`);
      }
    }
  }
  return broken;
}"""


def test_soft_hyphens_follow_each_language():
    """Czech and English break points from their dictionaries; other text is left alone."""
    assert soft_hyphens("restaurace", "cs") == f"re{SOFT_HYPHEN}stau{SOFT_HYPHEN}race"
    assert soft_hyphens("nightclub", "en") == f"night{SOFT_HYPHEN}club"
    assert soft_hyphens("noční klub", "cs").replace(SOFT_HYPHEN, "") == "noční klub"
    assert soft_hyphens("restaurace", "de") == "restaurace"
    # At least three letters after a break: "restauran-t" would read as a typo.
    for word, lang in (("restaurant", "en"), ("bodyguard", "en"), ("doprava", "cs")):
        assert len(soft_hyphens(word, lang).rsplit(SOFT_HYPHEN, 1)[-1]) >= 3, word


def dealt_table(app, row: tuple[str, ...]) -> str:
    """A 4-player table dealt by hand with `row` drawn into the loot row; its id."""
    with app.app_context():
        store = get_store()
        table = store.create_table("razzia", {"players": game_script.PLAYERS})
        table = store.apply_move(
            table.id, {"type": "deal", "sets": game_script.SETS}, table.version
        )
        for number, card in enumerate(row):
            move = {"type": "draw", "seat": number % 4, "card": card}
            table = store.apply_move(table.id, move, table.version)
        return table.id


@pytest.mark.browser
def test_card_tiles_break_names_only_at_hyphenation_points(live_server, browser):
    """Every loot kind in the row and every card of the draw grid, at both tablet sizes in
    both languages: no word broken mid-syllable, no tile spilling its name."""
    base, app = live_server
    kinds = cards.LOOT
    rows = [kinds[start : start + cards.ROW_LIMIT] for start in range(0, len(kinds), 6)]
    tables = [dealt_table(app, row) for row in rows]
    problems = []
    for lang in ("cs", "en"):
        page = browser.new_page(viewport=SIZES[0])
        page.goto(base + "/")
        with page.expect_navigation():
            page.click(f"[data-testid=lang-{lang}]")
        for size in SIZES:
            page.set_viewport_size(size)
            for table_id in tables:
                page.goto(f"{base}/tables/{table_id}")
                where = f"{lang} {size['width']}x{size['height']} {table_id}"
                problems += [f"{where}: {found}" for found in page.evaluate(BROKEN_WORDS)]
            screenshot(page, f"razzia-tiles-{lang}-{size['width']}x{size['height']}")
        page.close()
    assert not problems, "\n".join(problems)
