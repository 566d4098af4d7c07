"""Printouts that scan (issue 14 item 6): BG Stats codes coarse enough for receipts, a short
link the companion forwards, a direct code for tables without the club network, and a
warning when the results code points at this computer only."""

import json
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest
import zxingcpp
from PIL import Image

from companion_app.results import bgstats, links, qr
from companion_app.server import serve
from companion_app.store import get_store
from scoring import razzia
from tests.live import chromium, screenshot, served
from tests.results.qr_decode import decode_png
from tests.scoring.razzia_random import random_move

#: Every image of the page loaded (a function: a bare expression is evaluated with eval, which
#: the page's CSP refuses whenever it is not already true at the first look).
IMAGES_LOADED = "() => [...document.images].every(i => i.complete && i.naturalWidth)"

LAN = "http://192.168.1.20:8000"
#: Five players, long Czech names: the largest BG Stats play a Razzia! table makes.
FIVE = ["Čeněk Šťastný", "Žofie Křížová", "Bohumil Hrabal", "Eliška Nováková", "Dee"]
#: The thinnest module a thermal receipt printer prints reliably (issue 14).
MIN_MODULE_MM = 0.5
#: Receipt printers print 203 dots per inch; CSS has 96 pixels per inch.
PRINTER_DPI, CSS_DPI, MM_PER_INCH = 203, 96, 25.4
RECEIPTS = {"58mm": 58, "80mm": 80}


def five_player_game(app, seed: int = 7) -> str:
    """A finished 5-player Razzia! table played with random legal moves; its id."""
    rng = random.Random(seed)
    with app.app_context():
        store = get_store()
        table = store.create_table("razzia", {"players": FIVE})
        while not razzia.summary(table.state)["finished"]:
            table = store.apply_move(table.id, random_move(table.state, rng), table.version)
        return table.id


def play_of(url: str) -> dict:
    """The play a createPlay link carries."""
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == bgstats.CREATE_PLAY_URL
    return json.loads(parse_qs(parts.query)["data"][0])


def modules(text: str) -> int:
    """Modules across the code of `text`, quiet zone included (what the printout scales)."""
    return len(qr.matrix(text))


def test_local_only_addresses_are_told_apart_from_lan_ones():
    """Loopback names and addresses only work on this computer; LAN addresses and names do."""
    for url in (
        "http://127.0.0.1:5000/",
        "http://localhost/x",
        "http://[::1]:8000/",
        "http://a.localhost",
    ):
        assert links.is_local_only(url), url
    for url in (LAN + "/", "http://companion.local/", "https://example.org/"):
        assert not links.is_local_only(url), url
    assert links.with_host("http://127.0.0.1:5000/r/x", "10.0.0.7") == "http://10.0.0.7:5000/r/x"


def test_compact_play_leaves_out_defaults_and_keeps_what_bg_stats_needs():
    """The direct code drops empty roles, no-start flags and our player ids, nothing else."""
    final = {
        "highest_wins": True,
        "players": [
            {
                "name": name,
                "score": 10 - seat,
                "rank": seat + 1,
                "winner": seat == 0,
                "start_player": seat == 2,
            }
            for seat, name in enumerate(FIVE)
        ],
    }
    from datetime import UTC, datetime

    full = bgstats.play_payload(
        "razzia",
        final,
        play_id="ab3k9xyz",
        started=datetime(2026, 1, 1, 18, tzinfo=UTC),
        ended=datetime(2026, 1, 1, 19, tzinfo=UTC),
        comments="Verification code ABCDE-FGHIJ",
    )
    short = bgstats.compact(full)
    assert short["game"] == {"name": "Razzia!", "highestWins": True, "sourceGameId": "razzia"}
    assert [p["name"] for p in short["players"]] == FIVE
    assert [p["winner"] for p in short["players"]] == [True, False, False, False, False]
    assert [p.get("startPlayer", False) for p in short["players"]] == [0, 0, 1, 0, 0]
    assert all("sourcePlayerId" not in p and "role" not in p for p in short["players"])
    assert short["comments"] == "Verification code ABCDE-FGHIJ" and "location" not in short
    assert play_of(bgstats.import_url(short)) == short
    # Fewer modules than the whole play: 80 mm receipts print it at 0.5 mm or more (60 mm code).
    assert modules(bgstats.import_url(short)) < modules(bgstats.import_url(full))
    assert 60 / modules(bgstats.import_url(short)) >= MIN_MODULE_MM


def test_short_link_code_forwards_to_the_whole_play(app, client):
    """On the LAN the BG Stats code is LAN/r/<id>, and that address forwards to the play."""
    table_id = five_player_game(app)
    app.config["BASE_URL"] = LAN + "/"
    html = client.get(f"/tables/{table_id}/print/58mm").get_data(as_text=True)
    assert f"/tables/{table_id}/qr/bgstats_short.png" in html
    text = decode_png(client.get(f"/tables/{table_id}/qr/bgstats_short.png").data)
    assert text == f"{LAN}/r/{table_id}"
    forwarded = client.get(f"/r/{table_id}")
    assert forwarded.status_code == 302
    play = play_of(forwarded.headers["Location"])
    assert [p["name"] for p in play["players"]] == FIVE
    assert all("sourcePlayerId" in p for p in play["players"])  # the whole payload
    # A direct code stays available for tables without the club network.
    direct = client.get(f"/tables/{table_id}/print/58mm?bgstats=direct").get_data(as_text=True)
    assert f"/tables/{table_id}/qr/bgstats.png" in direct
    results = client.get(f"/tables/{table_id}/results").get_data(as_text=True)
    assert 'data-testid="bgstats-direct"' in results and 'data-testid="local-only"' not in results


def test_short_link_of_an_unfinished_game_is_not_forwarded(app, client):
    """A table still in play has no play to log yet: the pending page (409), no redirect."""
    with app.app_context():
        table = get_store().create_table("razzia", {"players": FIVE})
    assert client.get(f"/r/{table.id}").status_code == 409
    assert client.get("/r/nope").status_code == 404


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_results_page_warns_when_its_code_points_at_this_computer(app, client, monkeypatch, lang):
    """Opened at 127.0.0.1 without a LAN base URL: a warning offers the LAN address."""
    table_id = five_player_game(app)
    monkeypatch.setattr(serve, "lan_address", lambda: "10.1.2.3")
    here = "http://127.0.0.1:5000"  # the address run.sh opens: the session cookie is per host
    client.post("/lang", data={"lang": lang, "next": "/"}, base_url=here)
    html = client.get(f"/tables/{table_id}/results", base_url=here).get_data(as_text=True)
    warning = re.search(r'data-testid="local-only">(.*?)</p>', html, re.S).group(1)
    assert f"http://10.1.2.3:5000/tables/{table_id}/results" in warning
    assert ("this computer only" if lang == "en" else "jen na tento počítač") in warning
    # Phones cannot reach a short link here either: the BG Stats code is the direct one.
    assert f"/tables/{table_id}/qr/bgstats.png" in html and "bgstats_short" not in html
    app.config["BASE_URL"] = LAN + "/"
    assert 'data-testid="local-only"' not in client.get(f"/tables/{table_id}/results").get_data(
        as_text=True
    )


@pytest.fixture
def live_five(tmp_path):
    """A live app on the (pretend) LAN with a finished 5-player game; yields (base, id)."""
    from companion_app import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "t"}, instance_path=str(tmp_path / "i"))
    table_id = five_player_game(app)
    app.config["BASE_URL"] = LAN + "/"
    with served(app) as server:
        yield f"http://127.0.0.1:{server.server_port}", table_id


@pytest.mark.browser
def test_receipt_bgstats_code_scans_at_203_dpi_with_half_millimetre_modules(live_five, tmp_path):
    """58 and 80 mm receipts of a 5-player game, drawn at 203 dpi: the BG Stats code decodes
    (zxing-cpp) and each of its modules is at least 0.5 mm wide."""
    base, table_id = live_five
    scale = PRINTER_DPI / CSS_DPI
    with chromium() as browser:
        for paper, width_mm in RECEIPTS.items():
            page = browser.new_page(
                viewport={"width": round(width_mm * CSS_DPI / MM_PER_INCH), "height": 1200},
                device_scale_factor=scale,
            )
            page.emulate_media(media="print")
            page.goto(f"{base}/tables/{table_id}/print/{paper}")
            figure = page.locator("[data-testid=qr-bgstats_short] img")
            figure.wait_for()
            page.wait_for_function(IMAGES_LOADED)
            shot = tmp_path / f"receipt-{paper}.png"
            figure.screenshot(path=str(shot))
            screenshot(page, f"receipt-{paper}-203dpi")
            found = [hit.text for hit in zxingcpp.read_barcodes(Image.open(shot))]
            assert found == [f"{LAN}/r/{table_id}"], (paper, found)
            shown_mm = figure.bounding_box()["width"] * MM_PER_INCH / CSS_DPI
            module_mm = shown_mm / modules(found[0])
            assert module_mm >= MIN_MODULE_MM, f"{paper}: {module_mm:.2f} mm modules"
            page.close()
