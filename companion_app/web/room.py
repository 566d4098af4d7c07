"""The room display (`/room`): every table in play on one screen, readable from across the room.

Read-only and open to everyone, like a table's view-only page, less what the players keep
hidden (`web/room_tiles.py`). Live through the hub like the table pages: one render per change
for every screen showing it (docs/live.md "The room display"), and within that render only
the tile of the table that changed is drawn again (`TileCache`). Up to PAGE_SIZE tables share
a screen; more are split into pages that `static/room.js` turns every ROTATE_S seconds.
While few tables are in play (or none, between games), tonight's ranking shows below them
(`web/evening.room_standings`).
"""

import math
import threading
from collections import OrderedDict

from flask import abort, current_app, render_template, request
from flask_babel import get_locale
from markupsafe import Markup

from companion_app.games import VIEWS
from companion_app.server.live.pages import room_page_asked
from companion_app.store import Table, reveals
from companion_app.store.room import room_page
from companion_app.web.evening import room_standings
from companion_app.web.room_tiles import tile

#: Most tables on one screen: six tiles of 3 x 2 keep the text readable from 3-4 m.
PAGE_SIZE = 6
#: Seconds each page stays on the screen when the tables need more than one.
ROTATE_S = 15
#: Tables one /room page shows, in screens of PAGE_SIZE turned every ROTATE_S (issue 33
#: item 5): a convention of 100 tables runs /room?page=1 ... 5 on as many screens, and each
#: page's stream sends only its own tiles.
ROOM_PAGE_TABLES = 24
NOT_FOUND = 404
#: Tiles on a page -> (columns, rows) of its grid.
LAYOUTS = {1: (1, 1), 2: (2, 1), 3: (3, 1), 4: (2, 2), 5: (3, 2), 6: (3, 2)}
#: Drawn tiles kept (a table in each language, with room to spare).
TILE_CACHE_SIZE = 512
_EXTENSION = "companion_room_tiles"


class TileCache:
    """Drawn tiles by (table, version, reveal tag, language): all a tile shows depends on.

    A move bumps its table's version and a lock-in its reveal tag, so after a change the room
    draws that table's tile again and takes every other from here. Renders run in the hub's
    threads and Flask's: a lock keeps the order of the least recently used consistent.
    """

    def __init__(self, size: int = TILE_CACHE_SIZE) -> None:
        """An empty cache of at most `size` tiles."""
        self.size = size
        self.tiles: OrderedDict[tuple, Markup] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> Markup | None:
        """The tile drawn for `key`, or None."""
        with self.lock:
            found = self.tiles.get(key)
            if found is not None:
                self.tiles.move_to_end(key)
            return found

    def put(self, key: tuple, drawn: Markup) -> None:
        """Keep a drawn tile, forgetting the least recently used beyond `size`."""
        with self.lock:
            self.tiles[key] = drawn
            self.tiles.move_to_end(key)
            while len(self.tiles) > self.size:
                self.tiles.popitem(last=False)


def _cache() -> TileCache:
    """The app's tile cache (made on first use)."""
    return current_app.extensions.setdefault(_EXTENSION, TileCache())


def drawn_tile(table: Table) -> Markup:
    """The table's tile as HTML, from the cache unless the table changed since it was drawn."""
    key = (table.id, table.version, reveals.current_and_tag(table.id)[1], str(get_locale()))
    found = _cache().get(key)
    if found is None:
        # Runs of white space shown as one space anyway: the room's update to every screen is
        # a fifth smaller for it (no <pre> in a tile).
        found = Markup(" ".join(render_template("_room_tile.html", tile=tile(table)).split()))
        _cache().put(key, found)
    return found


def pages(tiles: list) -> list[dict]:
    """The tiles split into as few even pages as PAGE_SIZE allows, each with its grid."""
    if not tiles:
        return []
    count = math.ceil(len(tiles) / PAGE_SIZE)
    size = math.ceil(len(tiles) / count)
    chunks = [tiles[start : start + size] for start in range(0, len(tiles), size)]
    layouts = (LAYOUTS[len(chunk)] for chunk in chunks)
    return [
        {"cols": cols, "rows": rows, "tiles": chunk}
        for chunk, (cols, rows) in zip(chunks, layouts, strict=True)
    ]


def room_display():
    """Every table in play and every game just finished, as tiles (no rights needed), up to
    ROOM_PAGE_TABLES of them on a page (`?page=N`, from 1)."""
    number = room_page_asked(request.args.get("page"))
    if number is None:
        abort(NOT_FOUND)
    first = (number - 1) * ROOM_PAGE_TABLES
    shown, playing, total = room_page(VIEWS, first, ROOM_PAGE_TABLES)
    return render_template(
        "room.html",
        pages=pages([drawn_tile(table) for table in shown]),
        playing=playing,
        finished=total - playing,
        tonight=room_standings(playing),
        rotate_s=ROTATE_S,
        room_page=number,
        room_pages=max(1, math.ceil(total / ROOM_PAGE_TABLES)),
        first=first + 1,
        last=first + len(shown),
        total=total,
        can_edit=False,  # every screen is a viewer: it takes the hub's one render per change
    )
