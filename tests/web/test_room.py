"""The room display (/room, issue 26 item 1) through the test client: what each tile says.

Every table in play: game, round or phase, whose turn or the secret choice it waits for, the
police, the public standings (scoring/public_standings.py; RULES.md's hidden information),
the last move; a finished game's winner for a while; pages when the tables do not fit.
"""

import re
from datetime import UTC, datetime, timedelta

import pytest

from companion_app import create_app
from companion_app.server.live import pages as live_pages
from companion_app.store import get_store, reveals
from companion_app.store.room import room_tables, room_version
from companion_app.web import room
from companion_app.web.room_tiles import tile as room_tile
from tests.web import room_tables as seed
from tests.web.game_script import ANN, BOB, PLAYERS, SETS

TILE = re.compile(
    r'<article class="room-tile[^"]*" data-testid="room-tile"\s+'
    r'data-table="(\w+)" data-version="(\d+)"[^>]*>(.*?)</article>',
    re.S,
)
DEAL = {"type": "deal", "sets": SETS}
PHONE = "192.168.1.31"


@pytest.fixture
def app(tmp_path):
    """An app whose loopback is no host, so the test client is a plain phone on the LAN."""
    settings = {"TESTING": True, "SECRET_KEY": "room", "LOCAL_IS_HOST": False}
    return create_app(settings, instance_path=str(tmp_path))


def tiles(app, lang: str = "en") -> dict[str, str]:
    """The room page's tiles as seen from a phone: table id -> the tile's HTML."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = PHONE
    response = client.get("/room", headers={"Accept-Language": lang})
    assert response.status_code == 200
    return {table: body for table, _version, body in TILE.findall(response.get_data(as_text=True))}


def page(app, lang: str = "en") -> str:
    """The whole room page from a phone."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = PHONE
    return client.get("/room", headers={"Accept-Language": lang}).get_data(as_text=True)


def found(pattern: str, html: str) -> str:
    """The text of the element with data-testid=`pattern` (tags removed, spaces collapsed)."""
    match = re.search(rf'data-testid="{pattern}"[^>]*>(.*?)</p>', html, re.S)
    assert match, pattern
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split())


def lines(html: str) -> list[list[str]]:
    """The standings lines of a tile: each a list of its cells' texts."""
    rows = re.findall(r'<tr class="[^"]*" data-testid="room-line">(.*?)</tr>', html, re.S)
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]


def razzia(app, *moves: dict):
    """A Razzia! table with Ann, Bob, Cid, Dee after `moves`."""
    with app.app_context():
        store = get_store()
        table = store.create_table("razzia", {"players": PLAYERS})
        for move in moves:
            table = store.apply_move(table.id, move, table.version)
        return table


def test_the_room_needs_no_rights_and_takes_no_writes(app):
    """Read-only, open to every device: a viewer's live page, and a POST is not a route."""
    html = page(app)
    assert 'data-live-url="/live/room?lang=en"' in html
    assert 'data-live-role="viewer"' in html
    assert 'data-testid="room-empty"' in html
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = PHONE
    assert client.post("/room").status_code == 405


def test_a_razzia_table_shows_its_round_turn_police_points_and_last_move(app):
    """RULES.md §1: the turn passes left; police are counted to the limit (7 with 4 players)."""
    table = razzia(
        app,
        DEAL,
        {"type": "draw", "seat": ANN, "card": "ring"},
        {"type": "draw", "seat": BOB, "card": "police"},
    )
    tile = tiles(app)[table.id]
    assert "Razzia!" in tile
    assert found("room-round", tile) == "Round 1 of 3 · Auction"
    assert found("room-status", tile) == "Cid’s turn"  # the auction starts left of Bob
    assert found("room-police", tile).startswith("Police officers 1/7")
    assert found("room-last-move", tile) == "Last move Bob turned up: police officer"
    assert lines(tile) == [
        ["Ann", "0", "−5"],
        ["Bob", "0", "−5"],
        ["Cid", "0", "−5"],
        ["Dee", "0", "−5"],
    ]  # no jewelry yet: −5 each (RULES.md §1 "Scoring")
    assert re.search(r'<tr class="acting" data-testid="room-line">\s*<th scope="row">Cid', tile)


def test_an_undo_says_what_it_undid(app):
    table = razzia(app, DEAL, {"type": "draw", "seat": ANN, "card": "ring"})
    with app.app_context():
        get_store().undo(table.id, table.version)
    tile = tiles(app)[table.id]
    assert found("room-last-move", tile) == "Last move Undone: Ann turned up: ring"
    assert found("room-status", tile) == "Ann’s turn"


def test_for_sale_shows_counts_only_and_says_what_stays_hidden(app):
    """RULES.md §2 "Coins": coins may be kept secret; won checks lie face down (counts only)."""
    with app.app_context():
        table = seed.seeded("for_sale", 4, 400, stop=lambda state: state["selling_round"] == 2)
    tile = tiles(app)[table.id]
    assert '<th scope="col">Houses</th><th scope="col">Checks</th>' in tile
    shown = lines(tile)
    players = table.state["players"]
    assert shown == [
        [player["name"], str(len(player["houses"])), str(len(player["checks"]))]
        for player in players
    ]
    assert "Coins stay hidden until the end." in tile
    assert "What the checks are worth stays hidden until the end." in tile
    standings = tile.split('data-testid="room-standings"')[1].split("room-hidden")[0]
    for player in players:
        for check in player["checks"]:
            assert f">{check:,}<" not in standings


def test_a_secret_choice_names_who_is_still_choosing(app):
    """RULES.md §2 "Phase 2": everyone picks a house face down; the box's buttons lock in."""
    with app.app_context():
        table = seed.seeded("for_sale", 3, 400, stop=lambda state: state["phase"] == "reveal")
    names = [player["name"] for player in table.state["players"]]
    tile = tiles(app)[table.id]
    assert found("room-status", tile) == f"Choosing in secret: waiting for {', '.join(names)}"
    assert len(re.findall(r'class=" choosing"', tile)) == 3
    with app.app_context():
        current = reveals.current(table.id)
        reveals.press(table.id, current.id, 1)
    tile = tiles(app)[table.id]
    waiting = ", ".join(name for seat, name in enumerate(names) if seat != 1)
    assert found("room-status", tile) == f"Choosing in secret: waiting for {waiting}"
    with app.app_context():
        for seat in (0, 2):
            reveals.press(table.id, current.id, seat)
    tile = tiles(app)[table.id]
    assert found("room-status", tile) == "Everyone has locked in: the choices are being entered"


def test_thieves_guild_with_nine_players_shows_one_column_of_smaller_type(app):
    """RULES.md §3: 3-9 players; gold is public, the cards in hand are not. Two numbers a line
    leave half a tile no room for a name (issue 32 item 6): one column of smaller type."""
    with app.app_context():
        table = seed.seeded("thieves_guild", 9, 12, stop=lambda state: state["phase"] == "ending")
    tile = tiles(app)[table.id]
    assert 'class="tile-standings many"' in tile
    assert [line[0] for line in lines(tile)] == seed.NAMES[:9]
    assert [line[1:] for line in lines(tile)] == [
        [str(player["gold"]), str(player["cards"])] for player in table.state["players"]
    ]
    assert "The cards in hand stay hidden." in tile
    assert 'data-testid="room-police"' not in tile  # the box's "police" are the loot roll here


def test_adel_and_klub_show_their_own_rounds_and_standings(app):
    """RULES.md §4: the track is public, hands are not; §5: the lowest highest score wins."""
    with app.app_context():
        adel = seed.seeded("adel_verpflichtet", 3, 0)
        klub = seed.seeded("prodigals_club", 3, 0)
    shown = tiles(app)
    assert found("room-round", shown[adel.id]) == "Turn 1 · Location"
    assert [line[1] for line in lines(shown[adel.id])] == ["0", "0", "0"]
    assert "The cards in hand stay hidden." in shown[adel.id]
    assert found("room-round", shown[klub.id]) == "Round 1 of 5 · Actions"
    assert "Each player’s highest score counts; the lowest wins." in shown[klub.id]
    assert re.search(
        r"Property</th><th scope=\"col\">Election</th><th scope=\"col\">Society", shown[klub.id]
    )


def test_a_finished_game_shows_its_winner_and_every_score_for_a_while(app):
    """Finished: nothing is hidden any more; after ROOM_FINISHED_SHOWN_S it leaves the room."""
    with app.app_context():
        table = seed.finished("for_sale", 3)
        results = get_store().get(table.id).state
    tile = tiles(app)[table.id]
    winners = [player["name"] for player in room_results(app, table.id) if player["winner"]]
    assert found("room-winner", tile).startswith("Winner")
    assert '<th scope="col">Money</th>' in tile  # For Sale's score is money (RULES.md §2 "End")
    assert all(name in found("room-winner", tile) for name in winners)
    ranked = sorted(room_results(app, table.id), key=lambda row: (row["rank"], row["seat"]))
    assert lines(tile) == [[f"{row['rank']}. {row['name']}", f"{row['score']:,}"] for row in ranked]
    assert results["phase"] == "game_over"
    app.config["ROOM_FINISHED_SHOWN_S"] = 0
    assert table.id not in tiles(app)


def room_results(app, table_id: str) -> list[dict]:
    """The rules' final results of a table."""
    from scoring.games import get_game

    with app.app_context():
        table = get_store().get(table_id)
        return get_game(table.game).results(table.state)["players"]


def test_idle_and_abandoned_tables_leave_the_room(app):
    """A table abandoned, or not moved for ROOM_IDLE_S, is not in play tonight."""
    kept, dropped = razzia(app, DEAL), razzia(app, DEAL)
    with app.app_context():
        get_store().abandon(dropped.id)
    assert list(tiles(app)) == [kept.id]
    with app.app_context():
        later = datetime.now(UTC) + timedelta(hours=13)
        assert room_tables(later) == []
        assert [table.id for table in room_tables()] == [kept.id]


def test_the_room_speaks_czech(app):
    """Czech words, numbers through Babel, names never declined."""
    table = razzia(app, DEAL, {"type": "draw", "seat": ANN, "card": "police"})
    html = page(app, "cs")
    assert 'data-live-url="/live/room?lang=cs"' in html
    assert "Rozehrané stoly" in html and "1 rozehraný stůl" in html
    tile = tiles(app, "cs")[table.id]
    assert found("room-round", tile) == "1. kolo ze 3 · Dražba"
    assert found("room-status", tile) == "Na tahu: Bob"
    assert found("room-police", tile).startswith("Policisté 1/7")
    assert lines(tile)[0] == ["Ann", "0", "−5"]


def test_after_a_move_only_its_tables_tile_is_drawn_again(app, monkeypatch):
    """The room's render per change draws one tile; the others come from the tile cache."""
    drawn = []
    monkeypatch.setattr(room, "tile", lambda table: drawn.append(table.id) or room_tile(table))
    tables = [razzia(app, DEAL) for _ in range(5)]
    first = tiles(app)
    assert sorted(drawn) == sorted(table.id for table in tables)
    drawn.clear()
    with app.app_context():
        get_store().apply_move(tables[2].id, {"type": "draw", "seat": ANN, "card": "ring"}, 1)
    second = tiles(app)
    assert drawn == [tables[2].id]
    assert [key for key in first if first[key] != second[key]] == [tables[2].id]
    tiles(app, "cs")  # another language draws its own tiles
    assert len(drawn) == 1 + len(tables)


def test_tables_that_do_not_fit_are_split_into_even_pages():
    """At most PAGE_SIZE tiles a screen, as few pages as that allows, each in its grid."""
    for count in range(0, 31):
        made = room.pages(list(range(count)))
        assert len(made) == -(-count // room.PAGE_SIZE)
        assert [tile for each in made for tile in each["tiles"]] == list(range(count))
        for each in made:
            cols, rows = each["cols"], each["rows"]
            assert len(each["tiles"]) <= min(room.PAGE_SIZE, cols * rows)
            assert len(each["tiles"]) > (cols * rows) // 2


def test_thirteen_tables_make_three_pages_and_only_the_first_shows_without_script(app):
    for _ in range(13):
        razzia(app)
    html = page(app)
    assert html.count('data-testid="room-tile"') == 13
    assert re.findall(r'data-room-page="(\d)"[^>]*?( hidden)?>', html) == [
        ("1", ""),
        ("2", " hidden"),
        ("3", " hidden"),
    ]
    assert "13 tables in play" in html


def test_the_room_version_only_grows_and_moves_with_what_the_room_shows(app):
    """Every change a tile shows bumps it: a table, a move, an undo, a reveal step, an abandon,
    a finished game leaving; nothing else does (docs/live.md "The room display")."""
    seen = []

    def note(now=None):
        with app.app_context():
            seen.append(live_pages.version_key(room_version(now)))

    note()
    with app.app_context():
        store = get_store()
        first = store.create_table("razzia", {"players": PLAYERS})
        note()
        first = store.apply_move(first.id, DEAL, 0)
        note()
        first = store.apply_move(first.id, {"type": "draw", "seat": ANN, "card": "ring"}, 1)
        note()
        store.undo(first.id, 2)
        note()
        sale = seed.seeded("for_sale", 3, 400, stop=lambda state: state["phase"] == "reveal")
        note()
        reveal = reveals.current(sale.id)
        for seat in (0, 1, 2):
            reveals.press(sale.id, reveal.id, seat)
            note()
        reveals.disarm(sale.id)
        note()
        store.abandon(first.id)
        note()
        done = seed.finished("razzia", 2)
        note()
        note(datetime.now(UTC) + timedelta(minutes=11))  # its winner leaves the screen
        assert done.id not in [
            table.id for table in room_tables(datetime.now(UTC) + timedelta(minutes=11))
        ]
    assert seen == sorted(seen) and len(set(seen)) == len(seen), seen
    with app.app_context():
        assert room_version() == room_version()  # nothing changed: the same version
