"""The Flask side of live pages: which pages are live, their version, and the hub's renders.

A live page (table, history, box, results) marks its `<main>` with `data-live-url` (the
stream to follow), `data-live-version` (what it shows) and `data-live-role` (base.html).
The version is `<table version>.<reveal id>.<reveal step>.<abandoned>`: dotted integers
compared part by part, so it only ever grows (a move bumps the table version; arming a
reveal bumps its id; each seat locked in, then a disarm, bumps the step; abandoning a table
turns the last 0 into 1, and nothing changes after that). It is read before the view runs,
so a page is never labelled newer than what it shows (at worst older, and the next update
then repeats it). docs/live.md has the whole design.

The room display (`/room`) is one more live page, not of one table: it is followed under
ROOM_KEY (never a table id) at ROOM_STREAM, and its version is the room's
(`store/room.room_version`), which moves with every table's.

`render` is how the hub (`live/hub.py` and `live/renders.py`) renders a page once for every
viewer of a group: a plain GET through the whole WSGI app as a viewer (no cookies, never this
computer, the language as Accept-Language, the group's canonical address as its Host), cut
down to what `<main>` holds.
"""

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Flask, g, request
from werkzeug.test import EnvironBuilder, run_wsgi_app

from companion_app.i18n import get_locale
from companion_app.server.rights import VIEWER_ENVIRON
from companion_app.store import TableNotFound, db, reveals
from companion_app.store.reveal_gate import DISARMED, NEVER_ARMED
from companion_app.store.room import room_version

#: Flask endpoint of each live page -> its name in the stream's `?page=`.
LIVE_PAGES = {
    "web.table": "table",
    "web.history": "history",
    "device_web.box": "device",
    "web.results": "results",
    "web.room": "room",
}
PAGE_ENDPOINTS = {page: endpoint for endpoint, page in LIVE_PAGES.items()}
#: The room display: its page name, the key it is followed under and where its stream is.
ROOM_PAGE = "room"
ROOM_KEY = "*room"  # `*` is in no table id, so no table stream can ask for it
ROOM_STREAM = "/live/room"
#: The pages a table's stream (`/live/tables/<id>?page=`) may follow.
TABLE_PAGES = tuple(page for page in PAGE_ENDPOINTS if page != ROOM_PAGE)
#: Pages that show the box panel (they also get its frames and the bridge status).
PANEL_PAGES = frozenset({"table", "device"})
#: Where a page's stream is served (by the server front, not by Flask).
STREAM_PREFIX = "/live/tables/"
#: The reveal step after a disarm: above any count of seats locked in.
DISARMED_STEP = 99
#: REMOTE_ADDR of the hub's renders: not loopback, so never trusted like this computer.
RENDER_ADDRESS = "0.0.0.0"
_OPEN_MAIN = re.compile(r"<main\b[^>]*>")
_VERSION_ATTR = re.compile(r'data-live-version="([0-9.]+)"')
_G_KEY = "companion_live_version"
#: Set on the hub's renders (`internal_get`): only `<main>` of the page is kept.
MAIN_ONLY_ENVIRON = "companion.main_only"


def live_version(table_id: str) -> str:
    """The table's live version now (TableNotFound if there is no such table)."""
    row = (
        db.get_db()
        .execute(
            "SELECT version, EXISTS (SELECT 1 FROM abandoned_tables WHERE table_id = tables.id)"
            " AS abandoned FROM tables WHERE id = ?",
            (table_id,),
        )
        .fetchone()
    )
    if row is None:
        raise TableNotFound(table_id)
    tag = reveals.current_and_tag(table_id)[1]
    if tag == NEVER_ARMED:
        reveal_id, step = 0, 0
    else:
        reveal_text, _, locked = tag.partition(":")
        reveal_id = int(reveal_text)
        step = DISARMED_STEP if locked == DISARMED else int(locked)
    return f"{row['version']}.{reveal_id}.{step}.{row['abandoned']}"


def watched_version(key: str) -> str:
    """The live version of what the hub follows under `key`: the room, or a table."""
    return room_version() if key == ROOM_KEY else live_version(key)


def version_key(version: str) -> tuple[int, ...]:
    """A live version as a tuple that compares the way versions grow."""
    return tuple(int(part) for part in version.split("."))


def room_page(number: int) -> str:
    """The name page `number` of the room display is followed under: room, room:2, ..."""
    return ROOM_PAGE if number <= 1 else f"{ROOM_PAGE}:{number}"


def room_number(page: str) -> int | None:
    """Which page of the room display a page name follows (None: not the room display)."""
    if page == ROOM_PAGE:
        return 1
    name, _, number = page.partition(":")
    return int(number) if name == ROOM_PAGE and number.isdecimal() else None


def room_page_asked(text: str | None) -> int | None:
    """The room display's page from `?page=` (issue 33 item 5): 1 if absent, None if bad."""
    if text is None:
        return 1
    return int(text) if text.isdecimal() and len(text) < 7 and int(text) > 0 else None


def stream_url(table_id: str, page: str, lang: str) -> str:
    """The URL of the stream a page follows."""
    if table_id == ROOM_KEY:
        number = room_number(page) or 1
        return f"{ROOM_STREAM}?lang={lang}" + (f"&page={number}" if number > 1 else "")
    return f"{STREAM_PREFIX}{table_id}?page={page}&lang={lang}"


def is_stream(path: str) -> bool:
    """True for a live stream's path (held by the server front, not by Flask)."""
    return path.startswith(STREAM_PREFIX) or path == ROOM_STREAM


def _note_version() -> None:
    """Before-request hook: a live page's version, read before its view reads the table."""
    page = LIVE_PAGES.get(request.endpoint or "")
    if page == ROOM_PAGE:
        number = room_page_asked(request.args.get("page")) or 1  # a bad one: the view's 404
        setattr(g, _G_KEY, (room_page(number), ROOM_KEY, room_version()))
        return
    table_id = (request.view_args or {}).get("table_id")
    if page is None or not isinstance(table_id, str):
        return
    try:
        setattr(g, _G_KEY, (page, table_id, live_version(table_id)))
    except TableNotFound:
        pass  # the view answers 404


def live_main() -> dict:
    """Template names: `live_main` = {url, version} on a live page, else None; `main_only`
    for the hub's renders, which keep only `<main>` (base.html leaves the rest out: the
    head, top bar and scripts were a tenth of each render's work, thrown away)."""
    main_only = bool(request and request.environ.get(MAIN_ONLY_ENVIRON))
    noted = g.get(_G_KEY) if request else None
    if noted is None:
        return {"live_main": None, "main_only": main_only}
    page, table_id, version = noted
    url = stream_url(table_id, page, get_locale())
    return {"live_main": {"url": url, "version": version, "page": page}, "main_only": main_only}


@dataclass(frozen=True)
class Rendered:
    """A page as the hub rendered it: status, `<main>`'s version and inner HTML, the body."""

    status: int
    version: str | None
    html: str | None
    body: bytes
    content_type: str


def page_path(app: Flask, table_id: str, page: str) -> str:
    """The URL path of a live page of a table (or of the room display)."""
    number = room_number(page)
    if number is not None:
        args = {"page": number} if number > 1 else {}
        return app.url_map.bind("localhost").build(PAGE_ENDPOINTS[ROOM_PAGE], args)
    return app.url_map.bind("localhost").build(PAGE_ENDPOINTS[page], {"table_id": table_id})


def internal_get(app: Flask, path: str, *, lang: str, host: str) -> tuple[int, bytes, str]:
    """GET `path` through the whole WSGI app as a plain viewer: (status, body, content type)."""
    builder = EnvironBuilder(
        path=path,
        base_url=f"http://{host}/",
        headers={"Accept-Language": lang, "Accept": "text/html,application/json"},
        environ_base={"REMOTE_ADDR": RENDER_ADDRESS},
    )
    try:
        environ = builder.get_environ()
    finally:
        builder.close()
    environ[VIEWER_ENVIRON] = True
    environ[MAIN_ONLY_ENVIRON] = True
    app_iter, status, headers = run_wsgi_app(app, environ, buffered=True)
    try:
        body = b"".join(app_iter)
    finally:
        getattr(app_iter, "close", lambda: None)()
    return int(status.split(" ", 1)[0]), body, headers.get("Content-Type", "")


def main_of(page: str) -> tuple[str | None, str | None]:
    """(`data-live-version`, inner HTML) of the page's `<main>`, or (None, None)."""
    opening = _OPEN_MAIN.search(page)
    end = page.rfind("</main>")
    if opening is None or end < opening.end():
        return None, None
    version = _VERSION_ATTR.search(opening.group(0))
    return (version.group(1) if version else None), page[opening.end() : end]


def render(app: Flask, table_id: str, page: str, lang: str, root: str) -> Rendered:
    """Render one live page as a viewer in `lang`, reached at the canonical address `root`
    (`guard.canonical_root`, so its links point where its group's phones reached us);
    call in a worker thread."""
    host = urlsplit(root).netloc or root
    status, body, content_type = internal_get(
        app, page_path(app, table_id, page), lang=lang, host=host
    )
    version, html = (None, None)
    if content_type.startswith("text/html"):
        version, html = main_of(body.decode("utf-8", "replace"))
    return Rendered(status, version, html, body, content_type)


def init_app(app: Flask) -> None:
    """Note live pages' versions before their views run; give templates `live_main`."""
    app.before_request(_note_version)
    app.context_processor(live_main)
