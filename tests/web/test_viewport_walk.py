"""Every decision in view (issue 14 item 1): whole games of each game, checked as they go.

After a move the table page is loaded as the move's redirect loads it and checked by
`tests/web/walk.py` (every second position in one of the four views, both tablet sizes and
both languages taking turns; every phase's first position in all four). The moves go through
the JSON API (this computer hosts every table), so the walk checks the layout of the positions
without depending on how each control is filled in. Razzia!'s hand-worked game is walked where
it is clicked, in tests/web/test_browser_game.py. Screenshots of the first position of every
phase land in test-artifacts/."""

import random

import pytest

from scoring import prodigals_club as club
from tests.live import json_request
from tests.scoring import adel_random, prodigals_random, razzia_random, thieves_guild_random
from tests.scoring.for_sale_random import random_move as for_sale_move
from tests.scoring.prodigals_play import setup as club_setup
from tests.web import game_script as razzia_script
from tests.web.walk import LONG_NAMES, SIZES, Walk

pytestmark = pytest.mark.browser


def test_for_sale_every_decision_is_in_view(live_server, browser):
    """A seeded 4-player game (RULES.md §2): auctions, check turn-overs, locked-in sales."""
    base, _app = live_server
    walk = Walk(base, browser, "for_sale")
    walk.create({"game": "for_sale", "players": ["Filip", "Valerie", "Jiří", "Markéta"]})
    rng = random.Random(14)
    while walk.table["state"]["phase"] != "game_over":
        if walk.table["state"]["phase"] == "reveal":
            walk.lock_in()
        walk.move(for_sale_move(walk.table["state"], rng))
    walk.close()


def test_klub_every_decision_is_in_view(live_server, browser):
    """A seeded 4-player game of all three competitions (RULES.md §5), to its end."""
    base, _app = live_server
    walk = Walk(base, browser, "prodigals_club")
    walk.create({"game": "prodigals_club", **club_setup(("Ann", "Bob", "Cid", "Dee"))})
    rng = random.Random(14)
    while walk.table["state"]["phase"] != "game_over":
        walk.move(prodigals_random.random_move(walk.table["state"], rng))
    assert club.summary(walk.table["state"])["finished"]
    walk.close()


@pytest.mark.parametrize(("count", "seed", "tracked"), [(4, 28, True), (5, 55, False)])
def test_adel_every_decision_is_in_view(live_server, browser, count, seed, tracked):
    """Seeded games (RULES.md §4) at 4 and 5 players, banquet at space 8, to the final
    exhibition and the ranking: secret choices locked in on the box, buys, castle, thieves.
    The 4-player table tracks every hand; the 5-player one leaves the hands to the players
    (the default), so its exhibitions are entered card by card."""
    base, _app = live_server
    walk = Walk(base, browser, "adel_verpflichtet")
    rng = random.Random(seed)
    values, piles = adel_random.random_setup(count, rng, tracked=tracked)
    dealt = values.pop("dealt", None) or values["hands"]
    if count == 5:
        values["players"] = LONG_NAMES[:count]
    hidden = [pile[1:] for pile in piles]
    walk.create({"game": "adel_verpflichtet", **values})
    while walk.table["state"]["phase"] != "game_over":
        state = walk.table["state"]
        if state["phase"] in ("location", "action", "choose"):
            walk.lock_in()
        hands = adel_random.real_hands(state, dealt)
        move = adel_random.random_move(state, rng, hands)
        if move["type"] == "buy":  # the table turns the pile's next card face up
            pile = hidden[move["pile"]]
            move["next"], hidden[move["pile"]] = (pile[0] if pile else None), pile[1:]
        walk.move(move)
    walk.close()


@pytest.mark.parametrize(("count", "seed"), [(4, 16), (9, 14)])
def test_thieves_guild_every_decision_is_in_view(live_server, browser, count, seed):
    """Seeded games (RULES.md §3) at 4 and 9 players to the sudden end: buys, dice, sides,
    robberies and cards played out of turn."""
    base, _app = live_server
    walk = Walk(base, browser, "thieves_guild")
    names = thieves_guild_random.names(count)
    walk.create({"game": "thieves_guild", "players": names, "card_costs": [1, 2, 3, 4]})
    rng = random.Random(seed)
    while walk.table["state"]["phase"] != "game_over":
        walk.move(thieves_guild_random.random_move(walk.table["state"], rng))
    walk.close()


def test_razzia_with_five_keeps_every_decision_in_view(live_server, browser):
    """The most players Razzia! seats (RULES.md §1): its first round with five long names."""
    base, _app = live_server
    walk = Walk(base, browser, "razzia")
    walk.create({"game": "razzia", "players": LONG_NAMES[:5]})
    rng = random.Random(5)
    while walk.table["state"]["phase"] not in ("round_end", "game_over"):
        walk.move(razzia_random.random_move(walk.table["state"], rng))
    walk.close()


def test_for_sale_with_six_keeps_every_decision_in_view(live_server, browser):
    """The most players For Sale seats (RULES.md §2): its first buying round and first sale."""
    base, _app = live_server
    walk = Walk(base, browser, "for_sale")
    walk.create({"game": "for_sale", "players": LONG_NAMES})
    rng = random.Random(6)
    while walk.table["state"]["phase"] != "game_over":
        phase = walk.table["state"]["phase"]
        # The first buying round in full, then over the auctions to the first sale.
        walk.looking = walk.moves < 16 or phase in ("selling", "reveal")
        if phase == "reveal":
            walk.lock_in()
            walk.move(for_sale_move(walk.table["state"], rng))
            break
        walk.move(for_sale_move(walk.table["state"], rng))
    walk.close()


def test_klub_with_five_keeps_every_decision_in_view(live_server, browser):
    """The most players Klub seats (RULES.md §5): its first round with five long names."""
    base, _app = live_server
    walk = Walk(base, browser, "prodigals_club")
    walk.create({"game": "prodigals_club", **club_setup(tuple(LONG_NAMES[:5]))})
    rng = random.Random(5)
    while walk.table["state"].get("round", 1) == 1 and walk.table["state"]["phase"] != "game_over":
        walk.move(prodigals_random.random_move(walk.table["state"], rng))
    walk.close()


def test_a_decision_taller_than_the_screen_is_scrolled_into_view(live_server, browser):
    """Last resort (static/app.js): on a short screen the page scrolls to the decision's start,
    never past it; a #anchor (a refusal's panel, a tapped name) keeps its own place."""
    base, _app = live_server
    status, table = json_request(
        base, "POST", "/api/tables", {"game": "prodigals_club", **club_setup(order=[0, 1, 2])}
    )
    assert status == 201 and table["state"]["phase"] == "play"
    page = browser.new_page(viewport={"width": 1024, "height": 420})
    page.goto(f"{base}/tables/{table['id']}")
    top, bottom = page.evaluate(
        "() => { const boxes = [...document.querySelectorAll('[data-decision]')]"
        ".map((el) => el.getBoundingClientRect());"
        " return [Math.min(...boxes.map((b) => b.top)), Math.max(...boxes.map((b) => b.bottom))]; }"
    )
    assert page.evaluate("scrollY") > 0
    assert 0 <= top and bottom <= 420, (top, bottom)
    page.goto(f"{base}/tables/{table['id']}?seat=1#forms")
    top = page.evaluate("document.getElementById('forms').getBoundingClientRect().top")
    assert abs(top) < 2, top
    page.close()


def test_the_folded_box_panel_opens_with_a_tap(live_server, browser):
    """No box and no reveal: a status line; a tap on it shows the strip and the seats."""
    base, _app = live_server
    status, table = json_request(
        base, "POST", "/api/tables", {"game": "razzia", "players": razzia_script.PLAYERS}
    )
    assert status == 201
    page = browser.new_page(viewport=SIZES[0])
    page.goto(f"{base}/tables/{table['id']}")
    assert page.is_visible("[data-testid=device-badge]")
    assert page.is_hidden("[data-testid=seat-0]")
    page.click("[data-testid=device-fold] > summary")
    assert page.is_visible("[data-testid=seat-0]") and page.is_visible("[data-testid=led-0]")
    page.reload()  # opened by hand: it stays open for the rest of the visit
    assert page.is_visible("[data-testid=seat-0]")
    page.close()
