"""Nine Cech zlodějů players on paper (issue 23 item 5): A4 and Letter fit all nine whole.

The 9-player tie on gold (tests/results/cech_tie.py) printed to PDF by Chromium: every name
and every player's cards in hand (the tie-break) are in the PDF's text, and laid out at the
paper's printable width (print media) nothing is wider than the paper and no name is broken
or clipped. Before: the A4 print clipped the 9th column.
"""

import re
import unicodedata

import pytest

from companion_app import create_app
from tests.live import chromium, screenshot, served
from tests.results import cech_tie, pdf

#: CSS pixels per millimetre (96 dpi).
PX_PER_MM = 96 / 25.4
#: Paper width and the side margins of its @page rule (static/print/<paper>.css), in mm.
PAPERS = {"a4": (210, 12), "letter": (215.9, 12)}
#: A name is whole when it takes one line in its cell and nothing of it is hidden.
NAME_CELLS = ".results-table.by-player tbody th, .ranking-final .name"
WHOLE = """els => els.map(el => [el.textContent.trim(),
  el.scrollWidth <= el.clientWidth,
  Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))])"""


@pytest.fixture
def live(tmp_path):
    """The finished nine-player tie served live; yields (base URL, table id)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(tmp_path / "i"))
    table_id = cech_tie.play(app)
    with served(app) as server:
        yield f"http://127.0.0.1:{server.server_port}", table_id


@pytest.mark.browser
@pytest.mark.parametrize("paper", PAPERS)
def test_nine_players_fit_the_sheet_whole(live, paper):
    base, table_id = live
    width_mm, margin_mm = PAPERS[paper]
    printable = round((width_mm - 2 * margin_mm) * PX_PER_MM)
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(f"{base}/tables/{table_id}/print/{paper}")
        text = unicodedata.normalize("NFKC", pdf.text(page.pdf(prefer_css_page_size=True)))
        for name, cards in zip(cech_tie.NAMES, cech_tie.CARDS, strict=True):
            assert name in text, name
            assert re.search(rf"Cards in hand {cards}\b", text), (name, cards)
        page.emulate_media(media="print")
        page.set_viewport_size({"width": printable, "height": 1000})
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= printable, f"{paper}: {wide}px wide on {printable}px of paper"
        right = page.evaluate(
            "Math.max(...[...document.querySelectorAll('table, th, td')]"
            ".map(el => el.getBoundingClientRect().right))"
        )
        assert right <= printable, f"{paper}: a table ends at {right}px of {printable}px"
        cells = page.eval_on_selector_all(NAME_CELLS, WHOLE)
        assert sorted(name for name, _fits, _lines in cells) == sorted(cech_tie.NAMES * 2)
        assert all(fits and lines == 1 for _name, fits, lines in cells), cells
        screenshot(page, f"results-nine-players-{paper}")
        page.close()


@pytest.mark.browser
def test_the_results_page_prints_nine_players_on_a4(live):
    """The results page's own print (static/results.css @media print) fits them too."""
    base, table_id = live
    printable = round((210 - 2 * 12) * PX_PER_MM)
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(f"{base}/tables/{table_id}/results")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1024
        page.emulate_media(media="print")
        page.set_viewport_size({"width": printable, "height": 1000})
        assert page.evaluate("document.documentElement.scrollWidth") <= printable
        cells = page.eval_on_selector_all(NAME_CELLS, WHOLE)
        assert all(fits and lines == 1 for _name, fits, lines in cells), cells
        page.close()
