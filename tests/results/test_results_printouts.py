"""Results printouts that read right (issue 32 item 3), rendered by Chromium in both languages.

Every results printout (A4, Letter, 80 mm, 58 mm) of a 5-player Razzia!, a 9-player Cech
zlodějů tie, a Klub ztroskotanců game of three competitions, a 6-player For Sale game and a
5-player Adel Verpflichtet game, all with long Czech names, is printed to PDF in English and
Czech; pdfplumber reads its words. No word of a player's name or of a column or row header is
in the PDF in two pieces ("Boře" + "k"), and each is there at least as often as the printout's
text has it (a table's header row repeats on the next page). Each player's place is printed
once, before the name, and shared places are tagged as on the results page. The first page
has a QR code (zxing-cpp) that opens the results, and says when it was printed. Each page is
saved as a PNG to look at.
Before: A4 broke "Boře|k", "Hank|a" and "Zlat|é", receipts tagged no shared place, the codes
came after everything (page 2 of a 58 mm receipt), and nothing said when it was printed.
"""

import random
import re
from datetime import datetime

import pytest
from babel.dates import format_date

from companion_app import create_app
from companion_app.store import get_store
from tests.live import chromium, served
from tests.printouts import count, first_page_codes, save_pages, words_of
from tests.results import cech_tie
from tests.results.test_other_games import play_to_the_end
from tests.scoring import (
    adel_random,
    for_sale_random,
    prodigals_play,
    prodigals_random,
    razzia_random,
)
from tests.web import test_adel_results as adel_results

PAPERS = ("a4", "letter", "80mm", "58mm")
LANGUAGES = ("en", "cs")
FIVE = ["František Novotný", "Bořek", "Žofie Křížová", "Zdeněk Hohenzollernovský", "Hanka"]
NINE = [
    "František Novotný",
    "Bořek",
    "Květoslava Nováková",
    "Zdeněk Hohenzollernovský",
    "Jaroslava",
    "Přemysl Otakar",
    "Bohumila Šťastná",
    "Radoslav",
    "Ludmila Dvořáková",
]
FOUR = ["František Novotný", "Bořek", "Žofie Křížová", "Hanka"]
#: For Sale's most players: six names as the columns of A4's tables.
SIX = [*FIVE, "Květoslava Dvořáková"]
PRINTED = {"en": "Printed", "cs": "Vytištěno"}
#: The tag of a place two or more players share, as the results page shows it.
SHARED = {"en": "shared", "cs": "dělené"}
#: A ranked player's line on the results page ("3. Bořek shared 14"): place, name and tags.
RANKED = "[data-testid=ranking] li"
#: A ranked player's line on a printout: the sheets' ranking, a receipt's player headings.


def razzia_table(app) -> str:
    """A finished 5-player Razzia! table, random legal moves."""
    rng = random.Random(7)
    from scoring import razzia

    with app.app_context():
        store = get_store()
        table = store.create_table("razzia", {"players": FIVE})
        while not razzia.summary(table.state)["finished"]:
            move = razzia_random.random_move(table.state, rng)
            table = store.apply_move(table.id, move, table.version)
        return table.id


def nine_thieves_table(app) -> str:
    """Nine Cech zlodějů players tied on gold (shared 3rd and 6th places), long names."""
    with app.app_context():
        store = get_store()
        table = store.create_table("thieves_guild", {**cech_tie.SETUP, "players": NINE})
        for move in cech_tie.MOVES:
            table = store.apply_move(table.id, move, table.version)
        return table.id


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """The five finished games served; yields (base URL, {game: table id})."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t"},
        instance_path=str(tmp_path_factory.mktemp("results-printouts") / "i"),
    )
    tables = {
        "razzia": razzia_table(app),
        "thieves_guild": nine_thieves_table(app),
        "prodigals_club": play_to_the_end(
            app, "prodigals_club", prodigals_play.setup(FOUR), prodigals_random.random_move, 3
        )[0],
        "for_sale": play_to_the_end(
            app, "for_sale", {"players": SIX}, for_sale_random.random_move, 1
        )[0],
    }
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(adel_random, "NAMES", FIVE)
        tables["adel_verpflichtet"] = adel_results.play_to_the_end(app, 5, 1)[0]
    with served(app) as server:
        yield f"http://127.0.0.1:{server.server_port}", tables


#: Each ranked player's line as it reads: [place, name, tags] (blank where a part is missing).
ROWS = """rows => rows.map(row => [
  row.querySelector('.place')?.innerText.trim() ?? '',
  row.querySelector('.name')?.innerText.trim() ?? row.innerText.trim(),
  [...row.querySelectorAll('.tag')].map(tag => tag.innerText.trim())])"""


def ranked_rows(page, selector: str, shared: str) -> list[tuple[str, str, bool]]:
    """Each ranked player's line: (place, name, whether the place is tagged shared)."""
    rows = page.eval_on_selector_all(selector, ROWS)
    return [(place, name, shared in tags) for place, name, tags in rows]


def places_of(words: list[str], names: list[str]) -> list[str]:
    """Each player's place as the PDF prints it before their name ("3."; "4. 3." when a place
    is numbered twice), in the order of `names`; every player exactly once."""
    text = " ".join(words)
    found = []
    for name in names:
        first = re.escape(name.split()[0])
        hits = re.findall(rf"(?<![\w.])((?:\d+\. )+){first}(?!\w)", text)
        assert len(hits) == 1, (name, hits)
        found.append(hits[0].strip())
    return found


def broken(tokens: set[str], words: list[str]) -> list[str]:
    """Tokens the PDF has in two pieces, each a word of its own ("Boře" and "k")."""
    have = set(words)
    return [
        token
        for token in sorted(tokens)
        if any(token[:cut] in have and token[cut:] in have for cut in range(1, len(token)))
    ]


@pytest.mark.browser
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "game", ["razzia", "thieves_guild", "prodigals_club", "for_sale", "adel_verpflichtet"]
)
def test_item_3_results_printouts_read_right(live, game, language):
    base, tables = live
    url = f"{base}/tables/{tables[game]}"
    with chromium() as browser:
        context = browser.new_context(extra_http_headers={"Accept-Language": language})
        page = context.new_page()
        page.goto(f"{url}/results")
        names = page.locator(f"{RANKED} .name").all_inner_texts()
        on_screen = ranked_rows(page, RANKED, SHARED[language])
        assert len(names) == {"thieves_guild": 9, "for_sale": 6, "prodigals_club": 4}.get(game, 5)
        for paper in PAPERS:
            page.goto(f"{url}/print/{paper}")
            printed = page.inner_text("[data-testid=printout]")
            headers = page.locator("th, dt").all_inner_texts()
            pdf = page.pdf(prefer_css_page_size=True)
            save_pages(pdf, f"results-{game}-{paper}-{language}")
            pages = words_of(pdf)
            words = [word for page_words in pages for word in page_words]
            text = " ".join(words)
            tokens = {token for name in names for token in name.split()}
            tokens |= {token for header in headers for token in header.split()}
            tokens = {token for token in tokens if any(letter.isalpha() for letter in token)}
            assert broken(tokens, words) == [], paper
            # Nothing lost (a table's header row may repeat on the next page).
            for token in sorted(tokens):
                assert count(token, text) >= count(token, printed), (paper, token)
            # Each player's place once, shared places marked as on screen.
            assert places_of(words, names) == [place for place, _name, _shared in on_screen]
            tagged = sum(shared for _place, _name, shared in on_screen)
            assert count(SHARED[language], text) == tagged, paper
            rows = ranked_rows(page, f"{RANKED}, .receipt-player h2", SHARED[language])
            assert rows == on_screen, paper
            first = " ".join(pages[0])
            today = format_date(datetime.now(), "medium", locale=language)
            assert f"{PRINTED[language]} {today}" in first, paper
            assert f"{url}/results" in first_page_codes(pdf), paper
