"""Home and navigation: table rows with their times, the host's Abandon, page names, favicon."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from flask_babel import force_locale

from companion_app.i18n import formats
from companion_app.store import db
from tests.web import game_script

CZECH = {"Accept-Language": "cs"}
ENGLISH = {"Accept-Language": "en"}
LAN_PHONE = {"REMOTE_ADDR": "192.168.1.31"}
STARTED = datetime(2026, 3, 14, 9, 5, tzinfo=UTC)


def table_id(url: str) -> str:
    """The id at the end of a table page URL."""
    return url.rstrip("/").rsplit("/", 1)[-1]


def set_times(app, table: str, created: datetime, updated: datetime) -> None:
    """Move a table's start and last activity in the database (the clock cannot be waited on)."""
    with app.app_context():
        db.get_db().execute(
            "UPDATE tables SET created_at = ?, updated_at = ? WHERE id = ?",
            (created.isoformat(), updated.isoformat(), table),
        )


def shown(app, moment: datetime, locale: str) -> str:
    """The one date and time every page shows (issue 32 item 5), in the server's time zone."""
    with app.test_request_context(), force_locale(locale):
        return formats.date_time(moment)


def row_of(page: str, table: str) -> str:
    """The home page's <li> of a table."""
    start = page.index(f'data-table="{table}"')
    return page[start : page.index("</li>", start)]


@pytest.mark.parametrize(
    ("headers", "locale", "started", "ago"),
    [
        (ENGLISH, "en", "Started", "last move 5 minutes ago"),
        (CZECH, "cs", "Začato", "poslední tah před 5 minutami"),
    ],
)
def test_home_row_shows_start_and_last_move(app, client, pages, headers, locale, started, ago):
    """Each row says when the table started and how long ago its last move was."""
    table = table_id(pages.dealt())
    set_times(app, table, STARTED, datetime.now(UTC) - timedelta(minutes=5))
    row = row_of(client.get("/", headers=headers).get_data(as_text=True), table)
    assert f"{started} {shown(app, STARTED, locale)}" in row
    assert ago in row
    assert "Ann, Bob, Cid, Dee" in row


@pytest.mark.parametrize(
    ("headers", "words"), [(ENGLISH, "no move yet"), (CZECH, "zatím bez tahu")]
)
def test_a_table_without_moves_says_so(client, pages, headers, words):
    """A fresh table has a start time and no last move."""
    table = table_id(pages.create())
    assert words in row_of(client.get("/", headers=headers).get_data(as_text=True), table)


def test_two_tables_are_told_apart_by_their_times(app, client, pages):
    """Two tables of the same players no longer look identical."""
    first, second = table_id(pages.create()), table_id(pages.dealt())
    now = datetime.now(UTC)
    set_times(app, first, now - timedelta(days=2), now - timedelta(days=2))
    set_times(app, second, now - timedelta(hours=1), now - timedelta(minutes=3))
    page = client.get("/", headers=ENGLISH).get_data(as_text=True)
    assert row_of(page, first) != row_of(page, second)
    assert "last move 3 minutes ago" in row_of(page, second)


def test_the_host_sees_abandon_on_the_home_row(client, pages):
    """This computer (loopback) hosts every table: its row links to the abandon confirmation."""
    table = table_id(pages.create())
    row = row_of(client.get("/").get_data(as_text=True), table)
    assert 'data-testid="abandon-link"' in row
    assert f'href="/tables/{table}/abandon"' in row
    assert "Abandon the table?" not in row
    confirm = client.get(f"/tables/{table}/abandon")
    assert confirm.status_code == 200


def test_the_abandon_link_leads_to_the_table_leaving_the_list(client, pages):
    """Confirming on the existing page takes the table off the home page."""
    table = table_id(pages.create())
    response = client.post(f"/tables/{table}/abandon")
    assert response.status_code == 303
    assert f'data-table="{table}"' not in client.get("/").get_data(as_text=True)


def test_a_viewer_on_the_lan_sees_no_abandon(app, pages):
    """A phone on the LAN that did not create the table sees the row but no Abandon."""
    table = table_id(pages.create())
    phone = app.test_client()
    phone.environ_base.update(LAN_PHONE)
    row = row_of(phone.get("/").get_data(as_text=True), table)
    assert "Ann, Bob, Cid, Dee" in row
    assert "abandon" not in row.lower().replace(f"/tables/{table}", "")
    assert phone.post(f"/tables/{table}/abandon").status_code == 403


def test_a_lan_device_that_created_the_table_sees_abandon(app):
    """The tablet that created a table hosts it, also over the LAN."""
    tablet = app.test_client()
    tablet.environ_base.update(LAN_PHONE)
    created = tablet.post("/tables/new/razzia", data={"player": ["Ann", "Bob", "Cid"]})
    table = table_id(created.headers["Location"])
    assert 'data-testid="abandon-link"' in row_of(tablet.get("/").get_data(as_text=True), table)


def test_finished_rows_have_times_and_no_abandon(client, pages):
    """Only unfinished tables can be abandoned; a finished row shows its times, no Abandon."""
    finished = pages.dealt()
    for number, (steps, _scores, _totals) in enumerate(game_script.ROUNDS):
        pages.play(finished, steps)
        if number < 2:
            pages.post(finished, {"type": "next_round"})
    page = client.get("/", headers=ENGLISH).get_data(as_text=True)
    done = page[page.index('data-testid="finished"') :]
    row = row_of(done, table_id(finished))
    assert "Winner: Ann" in row
    assert "Started " in row and "last move just now" in row
    assert "abandon-link" not in row


@pytest.mark.parametrize(
    ("headers", "moves", "moves_edit", "archive"),
    [
        (ENGLISH, "Move log", "Move log and undo", "Played games"),
        (CZECH, "Záznam tahů", "Záznam tahů a vrácení", "Archiv her"),
    ],
)
def test_move_log_and_archive_have_distinct_names(
    client, pages, headers, moves, moves_edit, archive
):
    """The table's move log and the games archive no longer share the name "History"."""
    url = pages.create()
    table_page = client.get(url, headers=headers).get_data(as_text=True)
    assert f'data-testid="history-link">{moves_edit}</a>' in table_page
    assert f'data-testid="games-history">{archive}</a>' in table_page
    move_log = client.get(f"{url}/history", headers=headers).get_data(as_text=True)
    assert f"<h1>{moves}</h1>" in move_log
    assert f"<title>{moves} ·" in move_log
    played = client.get("/history", headers=headers).get_data(as_text=True)
    assert f"<h1>{archive}</h1>" in played
    assert moves != archive
    for page in (table_page, move_log, played):
        assert ">History<" not in page and ">Historie<" not in page


def test_a_viewer_sees_the_move_log_link_without_undo(app, pages):
    """A viewer's link names the move log alone (no undo for it)."""
    url = pages.create()
    phone = app.test_client()
    phone.environ_base.update(LAN_PHONE)
    page = phone.get(url, headers=ENGLISH).get_data(as_text=True)
    assert 'data-testid="history-link">Move log</a>' in page


def test_favicon_is_linked_and_served(client):
    """Every page links the SVG icon; /favicon.ico answers it instead of a 404."""
    page = client.get("/").get_data(as_text=True)
    icon_link = r'<link rel="icon" href="/static/favicon.svg\?v=\w{12}" type="image/svg\+xml">'
    assert re.search(icon_link, page)
    with client.get("/favicon.ico") as icon:
        assert icon.status_code == 200
        assert icon.mimetype == "image/svg+xml"
        assert icon.get_data(as_text=True).lstrip().startswith("<svg")
    with client.get("/static/favicon.svg") as static:
        assert static.status_code == 200
    assert client.post("/favicon.ico").status_code in (403, 405)
