"""The hub renders only `<main>` of a live page (issue 33 item 8): what it sends a phone is
exactly the `<main>` a viewer's full page holds, head, top bar and scripts left out."""

import re

import pytest

from bench.longest_game import PLAYERS, longest_game
from companion_app.server.live import pages
from companion_app.server.rights import VIEWER_ENVIRON

#: The box panel's clock readings ("now", "at"): the two renders are moments apart.
_CLOCK = re.compile(r'"(now|at)": [0-9.]+')
ROOT = "127.0.0.1"


@pytest.fixture
def table_id(app):
    """A Razzia! table with its first move made (loopback hosts every table)."""
    client = app.test_client()
    created = client.post("/api/tables", json={"game": "razzia", "players": PLAYERS}).get_json()
    first_move = longest_game()[0]
    moved = client.post(
        f"/api/tables/{created['id']}/moves", json={"version": 0, "move": first_move}
    )
    assert moved.status_code == 200, moved.get_json()
    return created["id"]


@pytest.mark.parametrize("page", ["table", "history", "device"])
@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_hub_sends_the_main_a_viewer_sees(app, table_id, page, lang):
    """The render's `<main>` is the full page's, and nothing of the rest was rendered."""
    rendered = pages.render(app, table_id, page, lang, ROOT)
    status, body, _ = full_page(app, table_id, page, lang)
    assert rendered.status == status == 200
    version, html = pages.main_of(body.decode())
    assert (rendered.version, undated(rendered.html)) == (version, undated(html))
    assert b"<!doctype html>" in body and b"<!doctype html>" not in rendered.body
    assert b'class="topbar"' in body and b'class="topbar"' not in rendered.body


def test_the_room_display_too(app, table_id):
    """The room display's render is its full page's `<main>`."""
    rendered = pages.render(app, pages.ROOM_KEY, "room", "en", ROOT)
    status, body, _ = full_page(app, pages.ROOM_KEY, "room", "en")
    version, html = pages.main_of(body.decode())
    assert (rendered.version, undated(rendered.html)) == (version, undated(html))
    assert b"<!doctype html>" not in rendered.body


def undated(html: str | None) -> str:
    """`html` with the box panel's clock readings made equal."""
    return _CLOCK.sub(r'"\1": 0', html or "")


def full_page(app, table_id: str, page: str, lang: str) -> tuple[int, bytes, str]:
    """The page as a viewer's browser gets it (no hub: the whole document)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = pages.RENDER_ADDRESS
    response = client.get(
        pages.page_path(app, table_id, page),
        headers={"Accept-Language": lang, "Host": ROOT},
        environ_overrides={VIEWER_ENVIRON: True},  # a plain viewer, as the hub renders
    )
    return response.status_code, response.data, response.content_type
