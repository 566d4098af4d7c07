"""Secrets stay off the shared screen (issue 23 item 2, docs/game-contract.md "Secrets").

What a player keeps hidden at the physical table (RULES.md §2 For Sale's coins, "Mince mohou
být drženy tajně", and its face-down checks; §1 Razzia's face-down checks) is not on the table
page a viewer opens, nor in the live stream every phone follows, nor in a viewer's API reads;
the scorer sees it on a deliberate tap, on that device only, until the next move; the results
after the game show everything. Devices on the LAN are test clients with a LAN address (the
test client's loopback address is this computer, which hosts every table).
"""

import asyncio
import json
import re

import pytest
from babel.numbers import format_decimal

from companion_app.server import rights
from companion_app.server.live import pages as live_pages
from companion_app.server.live.hub import LiveHub
from companion_app.store import get_store, reveals
from scoring import for_sale
from scoring.games import get_game
from tests.scoring import prodigals_play
from tests.scoring.for_sale_play import NAMES
from tests.scoring.secrets_play import for_sale_moves
from tests.web import game_script

TABLET, SECOND_TABLET, PHONE = "192.168.1.20", "192.168.1.40", "192.168.1.31"
HOST_NAME = "127.0.0.1"
LANGUAGES = ("en", "cs")
#: The coins line of a player whose coins are hidden, by language.
HELD_IN_SECRET = {"en": "held in secret", "cs": "drženy tajně"}
#: Failure guard for the live hub's first event (no test asserts how fast).
GUARD_S = 20.0


def device(app, address: str, lang: str = "en"):
    """A test client from `address` on the LAN, in `lang`, keeping its cookies."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    client.post("/lang", data={"lang": lang, "next": "/"})
    return client


@pytest.fixture
def tablet(app):
    """The host's tablet, which creates the tables."""
    return device(app, TABLET)


@pytest.fixture
def phone(app):
    """A phone that only watches."""
    return device(app, PHONE)


def create(client, game: str, players: list[str], **fields) -> str:
    """A table set up through the new-table form; its id."""
    response = client.post(f"/tables/new/{game}", data={"player": players, **fields})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def apply_all(app, table_id: str, moves: list[dict]) -> None:
    """Enter `moves` through the store, everyone locking in where a sale waits for it."""
    with app.app_context():
        store = get_store()
        for move in moves:
            table = store.get(table_id)
            if getattr(get_game(table.game), "reveal_seats", lambda _state: [])(table.state):
                current = reveals.current(table_id)
                for seat in current.seats:
                    reveals.press(table_id, current.id, seat)
            store.apply_move(table_id, move, table.version)


def state_of(app, table_id: str) -> dict:
    """The stored state, read as the store holds it."""
    with app.app_context():
        return get_store().get(table_id).state


def page(client, table_id: str) -> str:
    """The table page as `client` sees it."""
    response = client.get(f"/tables/{table_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def for_sale_selling(app, tablet) -> str:
    """A For Sale table in its selling phase, two rounds sold; its id."""
    table_id = create(tablet, "for_sale", NAMES)
    apply_all(app, table_id, for_sale_moves())
    return table_id


def hidden_amounts(state: dict) -> set[int]:
    """Every check value the players won and every player's money and coins (no zeros)."""
    won = {check for player in state["players"] for check in player["checks"]}
    money = {for_sale.queries.money_of(state)[seat] for seat in range(len(state["players"]))}
    coins = {(player["coins"] + player["bid"]) * 1000 for player in state["players"]}
    return (won | money | coins) - {0}


def printed(amounts: set[int], lang: str) -> set[str]:
    """The amounts as a page in `lang` prints them (13,000 / 13 000)."""
    return {format_decimal(amount, locale=lang) for amount in amounts}


def assert_for_sale_secrets_kept(html: str, state: dict, lang: str) -> None:
    """No coin total, no check value, no money; the check counts and the note instead.

    A scorer's move controls list the checks still in the deck (public: turned over later),
    so the amounts are looked for outside them.
    """
    if 'id="controls"' in html:
        html = html[: html.index('id="controls"')] + html[html.index('<aside class="side">') :]
    for text in printed(hidden_amounts(state), lang):
        assert text not in html, text
    assert "data-coins=" not in html and 'data-testid="money-' not in html
    players = html[html.index('class="players"') :]
    assert "data-check=" not in players
    for seat, player in enumerate(state["players"]):
        coins = re.search(rf'data-testid="coins-{seat}">([^<]*)<span class="secret">([^<]*)<', html)
        assert coins and coins.group(2) == HELD_IN_SECRET[lang]
        count = len(player["checks"])
        assert f'data-testid="checks-face-down-{seat}" data-count="{count}"' in html
    assert 'data-testid="secrets" data-revealed="no"' in html


def test_a_viewer_sees_no_coin_total_and_no_check_value_while_for_sale_runs(app, tablet):
    """RULES.md §2: coins "may be held secretly" (Mince mohou být drženy tajně) and checks
    won lie face down: a viewer's table page shows neither, in Czech and English, only how
    many checks each player holds; the houses taken in the open stay."""
    table_id = for_sale_selling(app, tablet)
    state = state_of(app, table_id)
    for lang in LANGUAGES:
        html = page(device(app, PHONE, lang), table_id)
        assert_for_sale_secrets_kept(html, state, lang)
        assert 'data-testid="secrets-toggle"' not in html  # a viewer cannot ask to see them
        for seat, player in enumerate(state["players"]):
            for house in player["houses"]:
                assert f'data-house="{house}"' in html, (seat, house)


def test_the_live_stream_holds_no_coin_total_and_no_check_value(app, tablet):
    """RULES.md §2: the stream every phone follows (rendered once per group as a viewer,
    docs/live.md) keeps the secrets too, even right after the scorer asked to see them."""
    table_id = for_sale_selling(app, tablet)
    state = state_of(app, table_id)
    tablet.post(f"/tables/{table_id}/secrets", data={"show": "1"})
    for lang in LANGUAGES:
        rendered = live_pages.render(app, table_id, "table", lang, HOST_NAME)
        assert rendered.status == 200
        assert_for_sale_secrets_kept(rendered.html, state, lang)

    async def first_update() -> dict:
        hub = LiveHub(app)
        subscriber = await hub.subscribe(table_id, "table", "cs", HOST_NAME)
        async with asyncio.timeout(GUARD_S):
            while "event: update" not in (chunk := subscriber.take().decode()):
                await subscriber.wake.wait()
        hub.close()
        block = chunk[chunk.index("event: update") :].split("\n\n", 1)[0]
        return json.loads(block.split("data: ", 1)[1])

    streamed = asyncio.run(first_update())
    assert_for_sale_secrets_kept(streamed["html"], state, "cs")


def test_the_scorer_shows_them_on_that_device_only_until_the_next_move(app, tablet, phone):
    """The scorer's deliberate tap shows coins, checks and money on that tablet only; the
    phone and the live stream still hold them back; the next move hides them again."""
    table_id = for_sale_selling(app, tablet)
    state = state_of(app, table_id)
    assert_for_sale_secrets_kept(page(tablet, table_id), state, "en")
    answer = tablet.post(f"/tables/{table_id}/secrets", data={"show": "1"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("#secrets")
    shown = page(tablet, table_id)
    assert 'data-testid="secrets" data-revealed="yes"' in shown
    assert "Shown on this device only, until the next move." in shown
    for seat, player in enumerate(state["players"]):
        assert f'data-testid="coins-{seat}" data-coins="{player["coins"]}"' in shown
        for check in player["checks"]:
            assert f'data-check="{check}"' in shown
    assert 'data-testid="money-0"' in shown
    assert_for_sale_secrets_kept(page(phone, table_id), state, "en")
    rendered = live_pages.render(app, table_id, "table", "en", HOST_NAME)
    assert_for_sale_secrets_kept(rendered.html, state, "en")
    apply_all(app, table_id, [{"type": "checks", "checks": [12000, 10000, 9000]}])
    assert_for_sale_secrets_kept(page(tablet, table_id), state_of(app, table_id), "en")


def test_hide_puts_them_away_at_once(app, tablet):
    """The scorer's Hide ends the reveal before any move."""
    table_id = for_sale_selling(app, tablet)
    tablet.post(f"/tables/{table_id}/secrets", data={"show": "1"})
    assert 'data-revealed="yes"' in page(tablet, table_id)
    tablet.post(f"/tables/{table_id}/secrets", data={"show": "0"})
    assert_for_sale_secrets_kept(page(tablet, table_id), state_of(app, table_id), "en")


def test_a_viewer_cannot_ask_to_see_them_and_a_second_scorer_does_not_see_the_hosts(
    app, tablet, phone
):
    """Rights (docs/security.md): the tap needs edit rights: a phone gets 403 and nothing
    shows; a reveal is one device's: the scorer the host let in does not see the host's."""
    table_id = for_sale_selling(app, tablet)
    state = state_of(app, table_id)
    refused = phone.post(f"/tables/{table_id}/secrets", data={"show": "1"})
    assert refused.status_code == 403
    assert_for_sale_secrets_kept(page(phone, table_id), state, "en")
    scorer = device(app, SECOND_TABLET)
    with app.app_context():
        key = rights.table_key(table_id, rights.SCORER)
    assert scorer.post(f"/tables/{table_id}/join/{key}").status_code == 303
    tablet.post(f"/tables/{table_id}/secrets", data={"show": "1"})
    assert 'data-revealed="yes"' in page(tablet, table_id)
    assert_for_sale_secrets_kept(page(scorer, table_id), state, "en")


def test_the_results_after_the_game_show_everything(app, tablet, phone):
    """RULES.md §2 "End": money = checks + coins; once the game is over the table page and
    the results page show every player's checks, coins and money to anyone."""
    table_id = create(tablet, "for_sale", NAMES)
    apply_all(app, table_id, for_sale_moves(to_the_end=True))
    state = state_of(app, table_id)
    assert state["phase"] == "game_over"
    final = page(phone, table_id)
    results = phone.get(f"/tables/{table_id}/results").get_data(as_text=True)
    for seat, money in enumerate(for_sale.queries.money_of(state)):
        assert (
            f'data-seat="{seat}" data-rank="{state["ranks"][seat]}" data-money="{money}"' in final
        )
        assert format_decimal(money, locale="en") in results
    assert 'data-testid="secrets"' not in final


def test_a_viewers_api_reads_hold_the_secrets_back(app, tablet, phone):
    """The API answers a reader without edit rights with the public view (`hidden` names what
    it holds back); the host's key reads everything; the list's money totals likewise."""
    table_id = for_sale_selling(app, tablet)
    state = state_of(app, table_id)
    seen = phone.get(f"/api/tables/{table_id}").get_json()
    assert seen["hidden"] == ["coins", "checks"]
    assert all(player["coins"] == {"hidden": True} for player in seen["state"]["players"])
    assert [p["checks"]["count"] for p in seen["state"]["players"]] == [2, 2, 2]
    assert all(row["total"] == {"hidden": True} for row in seen["standings"])
    with app.app_context():
        key = rights.table_key(table_id, rights.HOST)
    full = phone.get(f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {key}"})
    assert full.get_json()["state"] == state and full.get_json()["hidden"] == []
    listed = {t["id"]: t for t in phone.get("/api/tables").get_json()["tables"]}
    assert listed[table_id]["summary"]["totals"] == {"hidden": True, "count": 3}
    listed = {t["id"]: t for t in tablet.get("/api/tables").get_json()["tables"]}
    assert listed[table_id]["summary"]["totals"] == for_sale.queries.money_of(state)


def test_an_unfinished_games_export_is_for_its_scorers_only(app, tablet, phone):
    """The export's results hold every player's money: a viewer gets the not-finished page
    (409) while the game runs; the host gets the file."""
    table_id = for_sale_selling(app, tablet)
    assert phone.get(f"/tables/{table_id}/export.json").status_code == 409
    exported = tablet.get(f"/tables/{table_id}/export.json")
    assert exported.status_code == 200 and exported.get_json()["finished"] is False


def test_the_bid_form_does_not_tell_what_the_bidder_holds(app, tablet):
    """RULES.md §2 "Phase 1": a player who cannot raise must pass, but the shared screen
    must not say so before they do: the form offers any bid above the highest, with no
    upper limit, and a bid they cannot pay is refused without their coin count."""
    table_id = create(tablet, "for_sale", NAMES)
    apply_all(
        app,
        table_id,
        [
            {"type": "start", "seat": 0},
            {"type": "houses", "houses": [5, 17, 30]},
            {"type": "bid", "seat": 0, "coins": 28},
        ],
    )
    html = page(tablet, table_id)
    assert "Valerie: bid or pass" in html and "cannot beat" not in html
    assert 'min="29" data-testid="bid-coins"' in html and "max=" not in html
    assert 'data-testid="bid-29"' in html and " to 28 coins" not in html
    with app.app_context():
        version = get_store().get(table_id).version
    refused = tablet.post(
        f"/tables/{table_id}/moves",
        data={"type": "bid", "seat": "1", "coins": "29", "version": version},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "Valerie cannot bid 29 coins: not enough coins besides the bid." in refused
    assert "only 28" not in refused


def razzia_table(app, tablet, *rounds: list[tuple]) -> str:
    """A Razzia! table dealt A-D (tests/web/game_script.py), each round's steps played."""
    table_id = create(tablet, "razzia", game_script.PLAYERS)
    moves = [{"type": "deal", "sets": game_script.SETS}]
    for number, steps in enumerate(rounds):
        moves += [{"type": "next_round"}] if number else []
        moves += [game_script.as_form(step) for step in steps]
    apply_all(app, table_id, moves)
    return table_id


def test_razzia_face_down_checks_show_as_a_count(app, tablet, phone):
    """RULES.md §1 "Auction": the winner lays the centre check face down ("zakrytě"): the
    page shows that Bob holds one face down, not that it is the 1,000."""
    table_id = razzia_table(app, tablet, game_script.ROUND_1[:7])
    for client in (phone, tablet):
        html = page(client, table_id)
        bob = html[html.index('data-testid="player-1"') : html.index('data-testid="player-2"')]
        assert 'data-testid="checks-face-down-1" data-count="1"' in bob
        assert "1,000" not in bob and 'class="check down" data-check' not in bob
        assert re.findall(r'class="check up" data-check="(\d+)"', bob) == ["3000", "12000"]


def test_razzia_round_3_standings_wait_for_the_face_down_checks(app, tablet, phone):
    """RULES.md §1 "Round 3 only": check sums count face-down checks, so while Cid's 12,000
    lies face down the standings show "?" for check points and totals; the scorer's tap
    shows them on the tablet."""
    table_id = razzia_table(
        app, tablet, game_script.ROUND_1, game_script.ROUND_2, game_script.ROUND_3[:7]
    )
    html = page(phone, table_id)
    standings = html[html.index('data-testid="standings"') :]
    assert "data-total=" not in standings
    assert re.search(r'data-cat="checks">\s*<span class="secret"', standings)
    assert "Check points and totals wait for the face-down checks" in html
    tablet.post(f"/tables/{table_id}/secrets", data={"show": "1"})
    shown = page(tablet, table_id)
    assert len(re.findall(r'data-total="-?\d+"', shown)) == len(game_script.PLAYERS)
    assert 'data-testid="checks-face-down-2"' not in shown and 'data-check="12000"' in shown


def test_cech_and_klub_show_gold_and_tracks_to_everyone(app, tablet, phone):
    """RULES.md §3 and §5: gold lies in front of each player and the tracks on the boards;
    the page hides nothing and offers no reveal."""
    cech = create(tablet, "thieves_guild", ["Eva", "Petr", "Jana"], cost0="1", cost1="2")
    apply_all(app, cech, [{"type": "start", "seat": 0}])
    html = page(phone, cech)
    assert 'data-testid="gold-0" data-gold="20"' in html and 'data-testid="secrets"' not in html
    with app.app_context():
        club = get_store().create_table("prodigals_club", prodigals_play.setup(order=[0, 1, 2]))
    html = page(phone, club.id)
    assert 'data-testid="cash-0"' in html and 'data-testid="secrets"' not in html
