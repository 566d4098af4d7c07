"""Secrets in the log (issue 30 item 1, docs/game-contract.md "Secrets": hide every place a
secret can be read or worked out).

A phone without rights that reads the move log while the game runs (the history API, the
history page, its live push, the export) must not be able to replay it into what players keep
hidden: For Sale's coins and checks won (RULES.md §2 "Coins per player", "Phase 2": "Mince
mohou být drženy tajně", checks won lie face down), Razzia's face-down checks (RULES.md §1
"Auction": "Tento pokládá zakrytě"). The host's shared screen holds them back too until the
scorer taps Show on this device; after the game the whole log is open. Devices on the LAN are
test clients with a LAN address (loopback is this computer, which may edit every table).
"""

import asyncio
import json
import re

import pytest
from babel.numbers import format_decimal

from companion_app.server.live import pages as live_pages
from companion_app.server.live.hub import LiveHub
from companion_app.store import get_store, reveals
from scoring import for_sale, razzia
from scoring.errors import RuleError
from scoring.for_sale.queries import money_of
from scoring.secrecy import is_hidden
from tests.lan import device
from tests.scoring.for_sale_play import NAMES, lowest_each
from tests.web import game_script

TABLET, PHONE = "192.168.1.20", "192.168.1.31"
HOST_NAME = "127.0.0.1"
LANGUAGES = ("en", "cs")
#: Failure guard for the live hub's first event (no test asserts how fast).
GUARD_S = 20.0
#: Bids each buying round: the leader opens with 1 and every bidder raises by one this many
#: times before passing, so each player's coins differ and only the bids add them up.
RAISES = 2


@pytest.fixture
def tablet(app):
    """The host's tablet in the middle of the table: it creates the tables."""
    return device(app, TABLET)


@pytest.fixture
def phone(app):
    """A phone that only watches."""
    return device(app, PHONE)


def create(tablet, game: str, players: list[str]) -> str:
    """A table created through the API by the tablet (which then hosts it); its id."""
    response = tablet.post("/api/tables", json={"game": game, "players": players})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def post_move(app, tablet, table_id: str, move: dict) -> dict:
    """POST one move through the API as the host, every seat locking in first where a
    sale waits for it (docs/device-api.md "The reveal gate"); the answer's table."""
    with app.app_context():
        table = get_store().get(table_id)
        if table.game == "for_sale" and for_sale.reveal_seats(table.state):
            current = reveals.current(table_id)
            for seat in current.seats:
                reveals.press(table_id, current.id, seat)
    body = {"version": table.version, "move": move}
    response = tablet.post(f"/api/tables/{table_id}/moves", json=body)
    assert response.status_code == 200, (move, response.get_json())
    return response.get_json()


def state_of(app, table_id: str) -> dict:
    """The stored state (the host's truth)."""
    with app.app_context():
        return get_store().get(table_id).state


def next_for_sale_move(state: dict) -> dict:
    """The next move of a scripted For Sale game: houses and checks in order, a few raises
    in every auction, everyone revealing their lowest house."""
    phase = state["phase"]
    if phase == "start":
        return {"type": "start", "seat": 0}
    if phase == "buying":
        seen = len(state["houses_seen"])
        return {"type": "houses", "houses": list(range(seen + 1, seen + 4))}
    if phase == "auction":
        auction, seat = state["auction"], state["auction"]["turn"]
        player = state["players"][seat]
        raised = 1 if auction["high"] is None else auction["high"] + 1
        affordable = 0 < raised - player["bid"] <= player["coins"]
        if raised <= RAISES * len(state["players"]) and affordable:
            return {"type": "bid", "seat": seat, "coins": raised}
        return {"type": "pass", "seat": seat}
    if phase == "selling":
        options = for_sale.actions(state)
        seen = state["checks_seen"]
        copies = [value for value in options["checks"] for _ in range(2 - seen.count(value))]
        return {"type": "checks", "checks": copies[-options["count"] :]}  # the highest left
    return {"type": "sell", "houses": lowest_each(state)}


def play_for_sale(app, tablet, sales: int | None) -> str:
    """A For Sale table played through the API until `sales` selling rounds are sold (None:
    to the end); its id."""
    table_id = create(tablet, "for_sale", NAMES)
    state = state_of(app, table_id)
    while state["phase"] != "game_over" and (sales is None or len(state["sales"]) < sales):
        state = post_move(app, tablet, table_id, next_for_sale_move(state))["state"]
    return table_id


def replayed(rules, names: list[str], entries: list[dict]) -> dict:
    """The state the log's active moves give when replayed through the rules."""
    active: list[dict] = []
    for entry in entries:
        if entry["kind"] == "move":
            active.append(entry["move"])
        else:
            active.pop()
    state = rules.new_table({"players": names})
    for move in active:
        state = rules.apply(state, move)
    return state


def won_and_coins(state: dict) -> tuple[list[list[int]], list[int]]:
    """Each player's checks won and coins (with the running bid): what For Sale hides."""
    players = state["players"]
    return [p["checks"] for p in players], [p["coins"] + p["bid"] for p in players]


def printed_checks(state: dict, lang: str) -> set[str]:
    """Every check value won, as a page in `lang` prints it (no 0: it prints as itself)."""
    won = {check for player in state["players"] for check in player["checks"]} - {0}
    return {format_decimal(value, locale=lang) for value in won}


def assert_for_sale_log_kept(html: str, state: dict, lang: str) -> None:
    """A history page without a single bid amount, check value won or house sold."""
    log = html[html.index('data-testid="history"') :]
    assert not re.search(r"(bid|nabízí) \d", log), "a bid amount shows"
    for text in printed_checks(state, lang):
        assert text not in log, text
    assert not re.search(r"(Houses revealed|Odhalené domy)[^<]*\d", log), "a sold house shows"
    assert "?" in log


def history_page(client, table_id: str) -> str:
    """The history page as `client` sees it."""
    response = client.get(f"/tables/{table_id}/history")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def pushed_history(app, table_id: str, lang: str) -> str:
    """The HTML of the first live update of the history page (docs/live.md)."""

    async def first_update() -> dict:
        hub = LiveHub(app)
        subscriber = await hub.subscribe(table_id, "history", lang, HOST_NAME)
        async with asyncio.timeout(GUARD_S):
            while "event: update" not in (chunk := subscriber.take().decode()):
                await subscriber.wake.wait()
        hub.close()
        block = chunk[chunk.index("event: update") :].split("\n\n", 1)[0]
        return json.loads(block.split("data: ", 1)[1])

    return asyncio.run(first_update())["html"]


def test_for_sale_log_read_without_rights_replays_to_no_coins_and_no_checks(app, tablet, phone):
    """RULES.md §2 "Coins per player" and "Phase 2", docs/game-contract.md "Secrets": the
    history API a phone reads shows who bid and who sold, never how much or which house;
    replayed through scoring/for_sale it fails at the first bid, and no coin count or check
    won is in it."""
    table_id = play_for_sale(app, tablet, sales=2)
    state = state_of(app, table_id)
    read = phone.get(f"/api/tables/{table_id}/history").get_json()
    assert read["hidden"] == ["coins", "checks"]
    moves = [entry["move"] for entry in read["history"] if entry["move"]]
    bids = [move for move in moves if move["type"] == "bid"]
    assert len(bids) >= 10 and all(move["coins"] == {"hidden": True} for move in bids)
    for move in moves:
        if move["type"] == "checks":
            assert move["checks"] == {"hidden": True, "count": 3}
        if move["type"] == "sell":
            assert all(is_hidden(house) for house in move["houses"])
    with pytest.raises(RuleError):
        replayed(for_sale, NAMES, read["history"])
    text = json.dumps(moves)  # the moves only: a timestamp's digits could match a value
    for value in {check for player in state["players"] for check in player["checks"]} - {0}:
        assert str(value) not in text
    assert not re.search(r'"coins": \d', text)
    host = tablet.get(f"/api/tables/{table_id}/history").get_json()  # the host's API: all
    assert host["hidden"] == [] and won_and_coins(replayed(for_sale, NAMES, host["history"])) == (
        won_and_coins(state)
    )


def test_for_sale_history_page_live_push_and_export_hold_the_log_back(app, tablet, phone):
    """docs/game-contract.md "Secrets": the history page a phone opens, in English and Czech,
    the live update every phone follows (rendered as a viewer, docs/live.md) and the export
    (the not-finished page for a phone) show no bid amount, check won or house sold."""
    table_id = play_for_sale(app, tablet, sales=2)
    state = state_of(app, table_id)
    for lang in LANGUAGES:
        phone.post("/lang", data={"lang": lang, "next": "/"})
        html = history_page(phone, table_id)
        assert_for_sale_log_kept(html, state, lang)
        assert 'data-testid="secrets-toggle"' not in html  # a viewer cannot ask
        rendered = live_pages.render(app, table_id, "history", lang, HOST_NAME)
        assert rendered.status == 200
        assert_for_sale_log_kept(rendered.html, state, lang)
    assert_for_sale_log_kept(pushed_history(app, table_id, "cs"), state, "cs")
    assert phone.get(f"/tables/{table_id}/export.json").status_code == 409


def test_for_sale_hosts_shared_screen_holds_the_log_back_until_show_on_this_device(
    app, tablet, phone
):
    """docs/game-contract.md "Secrets", "The scorer's reveal": the host's tablet is a shared
    screen: its history page and export hold the log back too (the export's results and
    verification code, which would let each bid be guessed, with it); the deliberate Show on
    this device shows the whole log there, not on the phone, until the next move."""
    table_id = play_for_sale(app, tablet, sales=2)
    state = state_of(app, table_id)
    html = history_page(tablet, table_id)
    assert_for_sale_log_kept(html, state, "en")
    assert 'data-testid="secrets" data-revealed="no"' in html
    assert 'data-testid="secrets-toggle"' in html
    exported = tablet.get(f"/tables/{table_id}/export.json").get_json()
    assert exported["hidden"] == ["coins", "checks"]
    assert exported["results"] == {"hidden": True}
    assert exported["verification_code"] == {"hidden": True}
    with pytest.raises(RuleError):
        replayed(for_sale, NAMES, exported["log"])

    answer = tablet.post(f"/tables/{table_id}/secrets", data={"show": "1", "back": "history"})
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/tables/{table_id}/history#secrets")
    shown = history_page(tablet, table_id)
    assert 'data-testid="secrets" data-revealed="yes"' in shown
    assert re.search(r"bid \d+ coins?", shown)
    for text in printed_checks(state, "en"):
        assert text in shown
    exported = tablet.get(f"/tables/{table_id}/export.json").get_json()
    assert "hidden" not in exported and exported["results"]["finished"] is False
    assert won_and_coins(replayed(for_sale, NAMES, exported["log"])) == won_and_coins(state)
    assert_for_sale_log_kept(history_page(phone, table_id), state, "en")
    rendered = live_pages.render(app, table_id, "history", "en", HOST_NAME)
    assert_for_sale_log_kept(rendered.html, state, "en")

    post_move(app, tablet, table_id, next_for_sale_move(state))  # the next move hides it again
    assert_for_sale_log_kept(history_page(tablet, table_id), state_of(app, table_id), "en")


def test_an_undo_does_not_show_what_it_took_back(app, tablet, phone):
    """docs/game-contract.md "Secrets": an undone bid stays listed, still without its amount;
    the undo entry names only the step; the room display's last move ("Undone: ...") too."""
    table_id = play_for_sale(app, tablet, sales=0)
    state = state_of(app, table_id)
    while state["phase"] != "auction" or state["auction"]["high"] is None:
        state = post_move(app, tablet, table_id, next_for_sale_move(state))["state"]
    bid = next_for_sale_move(state)
    assert bid["type"] == "bid"
    table = post_move(app, tablet, table_id, bid)
    undone = tablet.post(f"/api/tables/{table_id}/undo", json={"version": table["version"]})
    assert undone.status_code == 200
    read = phone.get(f"/api/tables/{table_id}/history").get_json()["history"]
    assert read[-1]["kind"] == "undo" and read[-1]["move"] is None
    assert read[-2]["undone"] and read[-2]["move"]["coins"] == {"hidden": True}
    html = history_page(phone, table_id)
    assert f"bid {bid['coins']} coin" not in html and "bid ? coins" in html
    room = phone.get("/room").get_data(as_text=True)
    assert (
        "Undone: Filip bid ? coins" in room
        or "Undone: Valerie bid ? coins" in room
        or ("Undone: Jiří bid ? coins" in room)
    )
    assert not re.search(r"bid \d", room)


def test_for_sale_whole_log_is_open_after_the_end(app, tablet, phone):
    """RULES.md §2 "End" and docs/game-contract.md "Secrets": once the game is over nothing is
    hidden: the phone's history API replays to every player's coins and checks, its history
    page and export show every bid and check."""
    table_id = play_for_sale(app, tablet, sales=None)
    state = state_of(app, table_id)
    assert state["phase"] == "game_over"
    read = phone.get(f"/api/tables/{table_id}/history").get_json()
    assert read["hidden"] == []
    final = replayed(for_sale, NAMES, read["history"])
    assert won_and_coins(final) == won_and_coins(state) and money_of(final) == money_of(state)
    html = history_page(phone, table_id)
    assert re.search(r"bid \d+ coins?", html) and 'data-testid="secrets"' not in html
    for text in printed_checks(state, "en"):
        assert text in html
    exported = phone.get(f"/tables/{table_id}/export.json").get_json()
    assert "hidden" not in exported and isinstance(exported["verification_code"], str)
    assert won_and_coins(replayed(for_sale, NAMES, exported["log"])) == won_and_coins(state)


def razzia_moves(*rounds: list[tuple]) -> list[dict]:
    """Razzia! dealt A-D (tests/web/game_script.py), each round's steps played in turn."""
    moves = [{"type": "deal", "sets": game_script.SETS}]
    for number, steps in enumerate(rounds):
        moves += [{"type": "next_round"}] if number else []
        moves += [game_script.as_form(step) for step in steps]
    return moves


def play_razzia(app, tablet, *rounds: list[tuple]) -> str:
    """A Razzia! table played through the API; its id."""
    table_id = create(tablet, "razzia", game_script.PLAYERS)
    for move in razzia_moves(*rounds):
        post_move(app, tablet, table_id, move)
    return table_id


def face_down(state: dict) -> list[list[int]]:
    """Each player's face-down checks: what Razzia hides while the round runs."""
    return [player["down"] for player in state["players"]]


def test_razzia_log_read_without_rights_does_not_give_the_face_down_checks(app, tablet, phone):
    """RULES.md §1 "Auction": the winner takes the centre check face down ("zakrytě"); the
    check a winner bids becomes the next winner's face-down one, so the bids replayed would
    name every face-down check: while one lies face down, the phone's history API, page,
    live push and export show who bid, not which check, and replaying fails."""
    # Round 1 up to Cid's 4,000: Bob holds 1,000, Ann 7,000 and Cid 2,000 face down.
    table_id = play_razzia(app, tablet, game_script.ROUND_1[:20])
    state = state_of(app, table_id)
    assert face_down(state) == [[7000], [1000], [2000], []]
    read = phone.get(f"/api/tables/{table_id}/history").get_json()
    assert read["hidden"] == ["face_down_checks"]
    bids = [entry["move"] for entry in read["history"] if entry["move"]["type"] == "bid"]
    assert len(bids) == 4 and all(bid["check"] == {"hidden": True} for bid in bids)
    with pytest.raises(RuleError):
        replayed(razzia, game_script.PLAYERS, read["history"])
    renders = [history_page(phone, table_id), pushed_history(app, table_id, "en")]
    renders.append(live_pages.render(app, table_id, "history", "en", HOST_NAME).html)
    for html in renders:
        log = html[html.index('data-testid="history"') :]
        assert not re.search(r"bid [\d,]+\b", log) and "bid ?" in log
    assert phone.get(f"/tables/{table_id}/export.json").status_code == 409
    exported = tablet.get(f"/tables/{table_id}/export.json").get_json()  # the shared screen
    assert exported["hidden"] == ["face_down_checks"]
    with pytest.raises(RuleError):
        replayed(razzia, game_script.PLAYERS, exported["log"])
    tablet.post(f"/tables/{table_id}/secrets", data={"show": "1", "back": "history"})
    assert "Bob bid 7,000" in history_page(tablet, table_id)
    assert "Bob bid 7,000" not in history_page(phone, table_id)


def test_razzia_bids_show_once_every_check_is_face_up_and_after_the_end(app, tablet, phone):
    """RULES.md §1 "Round end": every player turns their checks face up, so the round's bids
    show again; once the game is over the whole log replays to the host's state."""
    table_id = play_razzia(app, tablet, game_script.ROUND_1)
    read = phone.get(f"/api/tables/{table_id}/history").get_json()
    assert read["hidden"] == [] and "Bob bid 7,000" in history_page(phone, table_id)
    with app.app_context():
        table = get_store().get(table_id)
        for move in razzia_moves(game_script.ROUND_1, game_script.ROUND_2, game_script.ROUND_3)[
            len(read["history"]) :
        ]:
            table = get_store().apply_move(table_id, move, table.version)
    state = state_of(app, table_id)
    assert state["phase"] == "game_over"
    read = phone.get(f"/api/tables/{table_id}/history").get_json()
    assert read["hidden"] == []
    assert replayed(razzia, game_script.PLAYERS, read["history"]) == state
    exported = phone.get(f"/tables/{table_id}/export.json").get_json()
    assert replayed(razzia, game_script.PLAYERS, exported["log"]) == state
