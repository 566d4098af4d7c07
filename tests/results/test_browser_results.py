"""In Chromium: finish a game, open its results, print them to PDF (A4 and receipts), screenshots.

The PDFs are read back: the names (Czech diacritics, markup as text), the scores, and the
QR images, which must decode to the results link and the BG Stats play.
"""

import json
import re
import unicodedata
from urllib.parse import parse_qs, urlsplit

import pytest
import zxingcpp

from companion_app import create_app
from companion_app.store import get_store
from tests.live import check_tablet_fit, chromium, screenshot, served
from tests.results import pdf
from tests.results.conftest import NAMES, rules_move
from tests.web import game_script as g
from tests.web.test_browser_game import TARGETS

TABLET_SIZES = {
    "landscape": {"width": 1280, "height": 800},
    "small": {"width": 1024, "height": 768},
}
#: CSS pixels per millimetre (96 dpi) and PDF points per millimetre.
PX_PER_MM, PT_PER_MM = 96 / 25.4, 72 / 25.4
RECEIPTS = {"80mm": 80, "58mm": 58}
#: A stub for window.print that counts the calls instead of opening a dialog.
COUNT_PRINTS = "window.__prints = 0; window.print = () => { window.__prints += 1; };"


@pytest.fixture
def live(tmp_path):
    """A live app with a 4-player game one move before its end; yields (base URL, table id)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(tmp_path / "i"))
    steps = [step for steps, _s, _t in g.ROUNDS for step in steps]
    with app.app_context():
        store = get_store()
        table = store.create_table("razzia", {"players": NAMES})
        table = store.apply_move(table.id, {"type": "deal", "sets": g.SETS}, table.version)
        for index, step in enumerate(steps[:-1]):
            table = store.apply_move(table.id, rules_move(step), table.version)
            if index + 1 in (len(g.ROUND_1), len(g.ROUND_1) + len(g.ROUND_2)):
                table = store.apply_move(table.id, {"type": "next_round"}, table.version)
    with served(app) as server:
        yield f"http://127.0.0.1:{server.server_port}", table.id


def plain(text: str) -> str:
    """PDF text folded for comparison (ligatures such as ﬁ back to f + i)."""
    return unicodedata.normalize("NFKC", text)


def check_pdf(data: bytes, base: str, table_id: str) -> None:
    """The PDF holds every name, every final score and two QR images that decode right."""
    text = plain(pdf.text(data))
    for name, total in zip(NAMES, g.FINAL_TOTALS, strict=True):
        assert name in text, name
        shown = str(total).replace("-", "\u2212")  # the minus sign (issue 32 item 5)
        assert re.search(rf"(?m)^{shown}$", text), total
    decoded = sorted(
        found.text for image in pdf.images(data) for found in zxingcpp.read_barcodes(image)
    )
    assert len(decoded) == 2, decoded
    link, bgstats = sorted(decoded, key=lambda text: "bgstatsapp" in text)
    assert link == f"{base}/tables/{table_id}/results"
    play = json.loads(parse_qs(urlsplit(bgstats).query)["data"][0])
    assert [player["name"] for player in play["players"]] == NAMES
    assert [player["score"] for player in play["players"]] == g.FINAL_TOTALS


@pytest.mark.browser
def test_finish_open_print_results(live):
    """The last draw ends the game; the results page fits the tablet and prints to A4 PDF."""
    base, table_id = live
    with chromium() as browser:
        page = browser.new_page(viewport=TABLET_SIZES["landscape"])
        page.add_init_script(COUNT_PRINTS)
        page.goto(f"{base}/tables/{table_id}")
        page.click("[data-testid=lang-en]")
        with page.expect_navigation():
            page.click("#draw button[data-card=police]")  # Ann's 7th police: the game ends
        assert "Čeněk Šťastný" in page.inner_text("[data-testid=winners]")
        with page.expect_navigation():
            page.click("[data-testid=qr] a.button")  # the final screen's link to the results
        assert page.url == f"{base}/tables/{table_id}/results"
        for label, size in TABLET_SIZES.items():
            page.set_viewport_size(size)
            screenshot(page, f"results-{label}")
            check_tablet_fit(page, label, size["width"], TARGETS)
        ranking = page.locator("[data-testid=ranking] li .name").all_inner_texts()
        assert ranking == NAMES  # the markup name shows as text, in rank order
        page.click("[data-testid=print]")
        assert page.evaluate("window.__prints") == 1  # one tap opens the print dialog
        check_pdf(page.pdf(format="A4"), base, table_id)
        page.emulate_media(media="print")
        page.set_viewport_size({"width": round(210 * PX_PER_MM), "height": 1123})
        screenshot(page, "results-print-a4")
        page.emulate_media(media="screen")
        page.set_viewport_size(TABLET_SIZES["small"])
        with page.expect_navigation():  # count() does not wait for the page to load
            page.click("[data-testid=games-history]")
        assert page.locator(f"[data-table='{table_id}']").count() == 1
        screenshot(page, "results-history")
        page.close()


@pytest.mark.browser
@pytest.mark.parametrize("paper", RECEIPTS)
def test_receipt_printouts(live, paper):
    """The 80/58 mm receipt pages print one narrow column on paper of that width."""
    base, table_id = live
    with chromium() as browser:
        page = browser.new_page(viewport=TABLET_SIZES["landscape"])
        page.goto(f"{base}/tables/{table_id}")
        page.click("[data-testid=lang-en]")
        with page.expect_navigation():
            page.click("#draw button[data-card=police]")
        page.goto(f"{base}/tables/{table_id}/results")
        with page.expect_navigation():
            page.click(f"[data-testid=receipt-{paper[:2]}]")
        data = page.pdf(prefer_css_page_size=True)
        widths = {float(w) for w in re.findall(rb"/MediaBox \[0 0 ([\d.]+) [\d.]+\]", data)}
        assert widths and all(abs(w - RECEIPTS[paper] * PT_PER_MM) < 1 for w in widths), widths
        check_pdf(data, base, table_id)
        page.emulate_media(media="print")
        page.set_viewport_size({"width": round(RECEIPTS[paper] * PX_PER_MM), "height": 800})
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= round(RECEIPTS[paper] * PX_PER_MM), f"{paper}: {wide}px wide"
        screenshot(page, f"results-receipt-{paper}")
        page.close()
