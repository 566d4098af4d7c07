"""One way to write things (issue 32 item 5): one date format per language, the minus sign.

The club evening found four date formats ("03.12.26 11:25", "12/3/26, 11:25 AM", "2026-12-03
11:37", "3. 12. 2026"), hyphen minus in ratings and points ("-3.3", "-1,3") and For Sale
averages as "87 500,0". Every page a club evening shows is rendered here in both languages:
each date is written the one way of its language (companion_app/i18n/formats.py) and no
number shows a hyphen for its minus.
"""

import re
import time
from datetime import UTC, date, datetime
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask_babel import force_locale, ngettext

from companion_app.i18n import formats, translate_error
from companion_app.store import TooManyTables, db, get_store, roster
from companion_app.store import tables as store_tables
from scoring import games
from tests.club import ranked_game
from tests.club.conftest import Club
from tests.results.conftest import play_table
from tests.web.test_prodigals_pages import Club as KlubPages

#: The evening: a Thursday, 11:25 in the club's (here UTC) time zone.
MOMENT = datetime(2026, 12, 3, 11, 25, tzinfo=UTC)
LANGUAGES = {"en": "en", "cs": "cs-CZ,cs;q=0.9"}
#: Each language's one way, as the pages must write the evening's moment.
DATE_TIME = {"en": "Dec 3, 2026, 11:25\u202fAM", "cs": "3. 12. 2026 11:25"}
DAY = {"en": "Thursday, Dec 3, 2026", "cs": "čtvrtek 3. 12. 2026"}
DATE = {"en": "Dec 3, 2026", "cs": "3. 12. 2026"}
#: Date formats a page must not show: ISO, Babel's short ones, spelled-out months.
OTHER_DATES = (
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    re.compile(r"\b\d{2}\.\d{2}\.\d{2}\b"),
    re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b"),
    re.compile(r"\b(?:December|prosince|prosinec)\b"),
)
#: A hyphen standing for a minus: before a digit and not inside a word or code ("K3-9").
HYPHEN_MINUS = re.compile(r"(?<![\w\-\u2013/])-\d")


class Visible(HTMLParser):
    """The text a reader sees: every text node outside scripts and styles."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        """Scripts and styles are not read."""
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag) -> None:
        """Leave a script or a style."""
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data) -> None:
        """Keep what a reader sees."""
        if not self.hidden:
            self.parts.append(data)


def visible(html: str) -> str:
    """The page's visible text, its nodes one per line."""
    parser = Visible()
    parser.feed(html)
    return re.sub(r"[ \t\r\n]+", " ", " ".join(parser.parts))  # keeps no-break spaces


@pytest.fixture
def utc_clock(monkeypatch):
    """The server's clock in UTC, every move stored at MOMENT."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.setattr(store_tables, "_now", lambda: MOMENT.isoformat(timespec="microseconds"))
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def evening(app, client, utc_clock, monkeypatch):
    """An evening of ranked games (scores are minus the ranks), a Razzia! game, one running."""
    monkeypatch.setitem(games._GAMES, ranked_game.NAME, lambda: ranked_game.MODULE)
    club = Club(app)
    for ranks in ([1, 2, 3], [1, 2, 3], [2, 1, 3], [1, 3, 2]):
        club.play(["Ann", "Bob", "Cid"], ranks)
    finished = play_table(app)
    play_table(app, rounds=1)
    klub = KlubPages(client, app).ordered()  # a society score below zero, a vote lost
    klub.post({"type": "society", "seat": "0", "sum": "-5"})
    klub.post({"type": "votes", "seat": "1", "delta": "-3"})
    form = {"name": "Zima", "kind": "placing", "place_1": "3", "place_2": "1", "evening": ["1"]}
    response = client.post("/club/seasons/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    with app.app_context():
        cid = roster.find(db.get_db(), "cid")
        assert get_store().get(finished).finished
    return {
        "finished": finished,
        "cid": cid,
        "season": response.headers["Location"],
        "klub": klub.url,
    }


def pages(evening: dict) -> list[str]:
    """Every page of the evening that writes a date or a number."""
    return [
        "/",
        "/history",
        f"/tables/{evening['finished']}/results",
        f"/tables/{evening['finished']}/print/a4",
        "/people",
        f"/people/{evening['cid']}",
        "/club",
        "/club/evenings/1",
        evening["season"],
        f"{evening['season']}/print/a4",
        evening["klub"],
        f"{evening['klub']}/history",
        "/room",
    ]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_page_writes_dates_one_way_and_numbers_with_the_minus_sign(client, evening, lang):
    """Issue 32 item 5: no other date format, no hyphen minus, and the one way shows."""
    seen, pages_html = {}, {}
    for url in pages(evening):
        response = client.get(url, headers={"Accept-Language": LANGUAGES[lang]})
        assert response.status_code == 200, url
        pages_html[url] = response.get_data(as_text=True)
        text = visible(pages_html[url])
        seen[url] = text
        for pattern in OTHER_DATES:
            assert not pattern.search(text), (url, pattern.search(text).group(0))
        minus = HYPHEN_MINUS.search(text)
        assert not minus, (url, text[max(0, minus.start() - 40) : minus.end() + 10])
    assert DATE_TIME[lang] in seen["/"]  # a running table's start
    assert DATE_TIME[lang] in seen["/history"]  # a game's end
    assert DATE_TIME[lang] in seen[f"/tables/{evening['finished']}/results"]
    assert DAY[lang] in seen["/club"] and DAY[lang] in seen["/club/evenings/1"]
    assert DATE[lang] in seen[f"/people/{evening['cid']}"]
    # ranked scores are minus the ranks: the history writes them with the minus sign
    assert "\u22123" in seen["/history"]
    # Klub: Ann's society at −5 on her row, Bob's −3 votes in the history
    assert re.search(r'data-testid="score-0-society">\s*\u22125', pages_html[evening["klub"]])
    assert "\u22123" in seen[f"{evening['klub']}/history"]
    # Cid, last three times of four, has a rating below zero
    assert re.search(r"\u2212\d+[.,]\d\b", seen[f"/people/{evening['cid']}"])


@pytest.mark.parametrize(
    ("lang", "value", "expected"),
    [
        ("cs", 87500.0, "87\xa0500"),  # For Sale's average money, whole: no ",0"
        ("en", 87500.0, "87,500"),
        ("cs", 16.46, "16,5"),
        ("cs", -1.25, "\u22121,2"),
        ("en", -0.04, "0"),  # never "−0"
    ],
)
def test_averages_are_whole_where_whole(app, lang, value, expected):
    """Issue 32 item 5: "87 500", not "87 500,0"; one decimal otherwise; the minus sign."""
    with app.test_request_context(), force_locale(lang):
        assert formats.average(value) == expected


def test_ratings_points_and_changes_use_the_minus_sign(app):
    """Issue 32 item 5: ratings "−3,3" (never "-3,3" or "−0,0"), signed changes "+2" and "−2"."""
    with app.test_request_context(), force_locale("cs"):
        assert formats.rating(-3.33) == "\u22123,3"
        assert formats.rating(-0.04) == "0,0"
        assert formats.signed(-2) == "\u22122" and formats.signed(2) == "+2"
        assert formats.signed(0) == "0"
        assert formats.number(-1.25) == "\u22121,25"
        assert formats.day(date(2026, 12, 3)) == DAY["cs"]
    with app.test_request_context(), force_locale("en"):
        assert formats.rating_change(1.25) == "+1.2"
        assert formats.date_time(MOMENT) == formats.date_time(MOMENT.astimezone())


def test_the_tie_note_reads_right_in_czech(app):
    """Issue 32 item 5: a shared place's note says "… jako Karel", not "Shoda s: Karel"."""
    message = "Level with %(names)s on points, wins and points per game: the place is shared."
    with app.test_request_context(), force_locale("cs"):
        note = ngettext(message, message, 1, names="Karel")
    assert note == "Stejně bodů, výher i bodů na hru jako Karel: místo je dělené."


def test_a_refusal_names_its_time_as_the_page_writes_times(app):
    """Issue 32 item 5: "it can start another at 13:05" was "%H:%M" in English pages too."""
    refused = TooManyTables(5, "13:05", 60)
    with app.test_request_context(), force_locale("en"):
        assert "at 1:05\u202fPM," in translate_error(refused)
    with app.test_request_context(), force_locale("cs"):
        assert "13:05" in translate_error(refused)


#: Where pages, printouts and messages are written: they format through i18n/formats.py only.
WRITERS = ("web", "games", "club", "results", "i18n", "templates", "static")
#: A date or number formatted on its own: strftime, Babel's formatters, "%.1f", the browser's.
OWN_FORMAT = re.compile(
    r"strftime\(|format_(?:decimal|date|datetime|time|percent|timedelta)\(|%\.\df|toLocale"
)
#: Files that may, and why.
OWN_FORMAT_ALLOWED = {
    "i18n/formats.py": "the one way itself",
    "results/bgstats.py": "BG Stats' playDate is a machine format, not a page's",
    "static/device/boxcheck.js": "the box check's numbers in the browser, with the minus sign",
}


def test_no_page_formats_a_date_or_a_number_its_own_way():
    """Issue 32 item 5: one way to write things; a new strftime on a page fails here."""
    root = Path(__file__).resolve().parents[2] / "companion_app"
    found = []
    for room in WRITERS:
        for path in sorted((root / room).rglob("*")):
            name = path.relative_to(root).as_posix()
            if path.suffix not in (".py", ".html", ".js") or name in OWN_FORMAT_ALLOWED:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if OWN_FORMAT.search(line):
                    found.append(f"{name}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
