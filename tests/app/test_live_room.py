"""The room display on the live hub (docs/live.md "The room display"): one render per change.

The room is followed under one key, woken by a change of ANY table; each (language, host)
group of its screens is rendered once per change, however many screens show it, and sends
only what changed (issue 33 item 6): the whole page first, then a move's tile (`part`), and a
new layout when tables come or go. The real server serves its stream at /live/room. GUARD_S
only bounds waiting; nothing asserts a time.
"""

import asyncio
import random
from collections import Counter

import pytest

from companion_app.server.live import pages as live_pages
from companion_app.server.live.hub import LiveHub
from companion_app.server.live.pages import ROOM_KEY
from companion_app.web import room as web_room
from scoring.games import get_game
from tests.app.test_live_hub import (
    DEAL,
    HOST,
    events,
    first_update,
    make_app,
    newer,
    next_update,
)
from tests.app.test_live_server import Stream
from tests.device_app.helpers import DeviceApi
from tests.live import json_request, served
from tests.web.room_tables import MOVES, play_on, seeded

GUARD_S = 20.0
ROOM = "room"


async def next_change(subscriber, newer_than: str) -> dict:
    """The next changes a room screen gets above `newer_than`: {version, parts, layout}."""
    async with asyncio.timeout(GUARD_S):
        while True:
            await subscriber.wake.wait()
            found = [
                (kind, data)
                for kind, data in events(subscriber.take())
                if kind in ("part", "layout") and newer(data["version"], newer_than)
            ]
            if found:
                return {
                    "version": found[-1][1]["version"],
                    "parts": {data["id"]: data["html"] for kind, data in found if kind == "part"},
                    "layout": next(
                        (data["html"] for kind, data in found if kind == "layout"), None
                    ),
                }


@pytest.fixture
def counted(monkeypatch):
    """Every render the hub makes, counted by (page, language)."""
    renders: Counter = Counter()
    original = live_pages.render

    def render(app, key, page, lang, host):
        renders[(page, lang)] += 1
        return original(app, key, page, lang, host)

    monkeypatch.setattr(live_pages, "render", render)
    return renders


def test_the_room_is_rendered_once_per_change_of_any_table_for_all_its_screens(tmp_path, counted):
    app = make_app(tmp_path)
    api = DeviceApi(app.test_client())
    first, second = api.table(), api.table()
    screens = ["en"] * 4 + ["cs"] * 3

    async def scenario():
        hub = LiveHub(app)
        rooms = [await hub.subscribe(ROOM_KEY, ROOM, lang, HOST) for lang in screens]
        table_page = await hub.subscribe(first["id"], "table", "en", HOST)
        before = [first_update(each) for each in rooms]
        first_table = first_update(table_page)
        formed = Counter(counted)
        await asyncio.to_thread(api.move, first, DEAL)
        after_first = [
            await next_change(s, b["version"]) for s, b in zip(rooms, before, strict=True)
        ]
        moved_table = await next_update(table_page, first_table["version"])
        await asyncio.to_thread(api.move, second, DEAL)
        after_second = [
            await next_change(s, b["version"]) for s, b in zip(rooms, after_first, strict=True)
        ]
        hub.close()
        return before, formed, after_first, after_second, moved_table

    before, formed, after_first, after_second, moved_table = asyncio.run(scenario())
    assert formed == {(ROOM, "en"): 1, (ROOM, "cs"): 1, ("table", "en"): 1}
    # The first move: the room's two groups and the first table's page, once each; the second
    # move (a table nobody follows on its own page): the room's two groups only.
    assert counted == {(ROOM, "en"): 3, (ROOM, "cs"): 3, ("table", "en"): 2}
    assert moved_table["version"].startswith("1.")
    for shown, lang in ((after_first, screens), (after_second, screens)):
        english = {str(u["parts"]) for u, each in zip(shown, lang, strict=True) if each == "en"}
        czech = {str(u["parts"]) for u, each in zip(shown, lang, strict=True) if each == "cs"}
        assert len(english) == len(czech) == 1  # the same bytes to every screen of a group
    assert 'data-version="0"' in before[0]["html"] and "Tables in play" in before[0]["html"]
    assert "Rozehrané stoly" in before[-1]["html"]
    # Each move sends its table's tile alone: no other tile, no layout (issue 33 item 6).
    assert [list(u["parts"]) for u in after_first] == [[first["id"]]] * len(screens)
    assert [list(u["parts"]) for u in after_second] == [[second["id"]]] * len(screens)
    assert all(u["layout"] is None for u in after_first + after_second)
    assert f'data-table="{first["id"]}" data-version="1"' in after_first[0]["parts"][first["id"]]
    moved = after_second[0]["parts"][second["id"]]
    assert f'data-table="{second["id"]}" data-version="1"' in moved
    assert "Check sets dealt" in moved


def test_a_winner_leaving_the_screen_wakes_the_room_without_any_write(tmp_path):
    """The window passing is a change too: the recheck round sees it (no write wakes it)."""
    app = make_app(tmp_path, DEVICE_RECHECK_S=0.05)
    table = DeviceApi(app.test_client()).table(["Ann", "Bob"])
    with app.app_context():
        play_on(table["id"], 100_000, random.Random(3))

    async def scenario():
        hub = LiveHub(app)
        screen = await hub.subscribe(ROOM_KEY, ROOM, "en", HOST)
        shown = first_update(screen)
        app.config["ROOM_FINISHED_SHOWN_S"] = 0  # as if its ten minutes had passed
        later = await next_change(screen, shown["version"])
        hub.close()
        return shown, later

    shown, later = asyncio.run(scenario())
    assert f'data-table="{table["id"]}"' in shown["html"] and "Winner" in shown["html"]
    assert table["id"] not in later["layout"] and 'data-testid="room-empty"' in later["layout"]
    assert "No table is in play" in later["layout"] and "0 tables in play" in later["parts"]["head"]
    assert later["version"].split(".")[3] == "1"  # part 4: one table's window has passed


def test_the_room_stream_on_the_real_server(tmp_path):
    app = make_app(tmp_path)
    with served(app) as server:
        base = f"http://127.0.0.1:{server.server_port}"
        stream = Stream(base, "/live/room?lang=en")
        assert stream.status == 200
        now = stream.next_update()
        assert now["version"] == "0.0.0.0.0" and 'data-testid="room-empty"' in now["html"]
        status, created = json_request(
            base, "POST", "/api/tables", {"game": "razzia", "players": ["Ann", "Bob", "Cid"]}
        )
        assert status == 201
        added = {}
        while "layout" not in added:  # the new tile, the count, then where the tile goes
            kind, data = stream.next_event()
            added[data.get("id", kind)] = data
        assert added["layout"]["version"] == "1.0.0.0.0"
        assert f'data-table="{created["id"]}"' in added[created["id"]]["html"]
        assert f'data-live-slot="{created["id"]}"' in added["layout"]["html"]
        assert "1 table in play" in added["head"]["html"]
        stream.close()
        refusals = [
            (Stream(base, "/live/room?lang=de"), 400),
            (Stream(base, f"/live/tables/{created['id']}?page=room"), 400),
        ]
        for refused, status in refusals:
            assert refused.status == status
            refused.close()
        status, body = json_request(base, "POST", "/live/room", {})
        assert status == 405 and body["error"]


def test_a_room_key_is_no_table_id():
    """`*` is not in the table id alphabet, nor in what a table stream's path may hold."""
    from companion_app.store.tables import ID_ALPHABET

    assert not set(ROOM_KEY) <= set(ID_ALPHABET)
    assert live_pages.stream_url(ROOM_KEY, ROOM, "cs") == "/live/room?lang=cs"
    assert live_pages.is_stream("/live/room") and not live_pages.is_stream("/live/roomy")
    assert events(b"event: update\ndata: {}\n\n") == [("update", {})]


class CountedStream(Stream):
    """A live stream that counts the bytes it reads."""

    read = 0

    def next_event(self):
        """As Stream's, counting every line read."""
        readline = self.response.readline

        def counted(*args):
            """One line, counted."""
            line = readline(*args)
            self.read += len(line)
            return line

        self.response.readline = counted
        try:
            return super().next_event()
        finally:
            self.response.readline = readline


#: Most bytes one move at one of 60 tables may send a room viewer (issue 33 item 6 "a few
#: KB"); the whole room, which every move sent before, is some 80 KB.
MOVE_BYTES = 4096
ROOM_GAMES = ("razzia", "for_sale", "thieves_guild", "prodigals_club", "adel_verpflichtet")


def test_one_move_at_one_of_60_tables_sends_a_room_viewer_only_its_tile(tmp_path, monkeypatch):
    """Issue 33 item 6: the bytes on the stream from the move to its tile, counted (all 60
    tables on one page of the room display, as before it came in pages)."""
    monkeypatch.setattr(web_room, "ROOM_PAGE_TABLES", 60)
    app = make_app(tmp_path)
    with app.app_context():
        tables = [
            seeded(ROOM_GAMES[number % len(ROOM_GAMES)], 4, 10, seed=number) for number in range(60)
        ]
    moving = next(table for table in tables if table.game == "razzia")
    with served(app) as server:
        base = f"http://127.0.0.1:{server.server_port}"
        stream = CountedStream(base, "/live/room?lang=en")
        whole = stream.next_update()
        assert whole["html"].count('data-testid="room-tile"') == 60
        room_bytes, stream.read = stream.read, 0
        rng = random.Random(60)
        move = get_game("razzia").complete_move(
            moving.state, MOVES["razzia"](moving.state, rng), rng
        )
        body = {"version": moving.version, "move": move}
        status, _ = json_request(base, "POST", f"/api/tables/{moving.id}/moves", body)
        assert status == 200
        kind, data = stream.next_event()
        move_bytes = stream.read
        stream.close()
    assert (kind, data["id"]) == ("part", moving.id)
    assert f'data-version="{moving.version + 1}"' in data["html"]
    print(f"room viewer: whole room {room_bytes} B, one move {move_bytes} B")
    assert room_bytes > 40_000  # the page it would have sent again
    assert move_bytes <= MOVE_BYTES, move_bytes


def test_each_page_of_the_room_streams_only_its_own_tiles(tmp_path, monkeypatch):
    """Issue 33 item 5: /room?page=2 shows tables 4-6 of 7 (3 a page here) and links the
    pages; its stream sends a move of its own table's tile, and nothing for a move on
    page 1; a bad page is a 404 page and a 400 stream."""
    monkeypatch.setattr(web_room, "ROOM_PAGE_TABLES", 3)
    app = make_app(tmp_path)
    with app.app_context():
        tables = [seeded("razzia", 4, 0, seed=number) for number in range(7)]
    client = app.test_client()
    second = client.get("/room?page=2").get_data(as_text=True)
    assert [table.id in second for table in tables] == [False] * 3 + [True] * 3 + [False]
    assert 'data-live-url="/live/room?lang=en&amp;page=2"' in second
    assert "Tables 4–6 of 7" in second and 'href="/room?page=3"' in second
    assert 'href="/room"' in second  # back to the first page
    assert client.get("/room?page=0").status_code == 404
    with served(app) as server:
        base = f"http://127.0.0.1:{server.server_port}"
        refused = Stream(base, "/live/room?lang=en&page=x")
        assert refused.status == 400
        refused.close()
        stream = Stream(base, "/live/room?lang=en&page=2")
        whole = stream.next_update()
        assert whole["html"].count('data-testid="room-tile"') == 3
        for table in (tables[0], tables[4]):  # page 1's table, then page 2's
            status, _ = json_request(
                base, "POST", f"/api/tables/{table.id}/moves", {"version": 0, "move": DEAL}
            )
            assert status == 200
        kind, data = stream.next_event()
        stream.close()
    assert (kind, data["id"]) == ("part", tables[4].id)  # nothing came for tables[0]
