"""The seat page in view on a phone (issue 31 item 4): 360x740 and 800x1280, both languages.

A 5-player For Sale game with long Czech names is played through the store; at three sales
every seat's phone is looked at while it chooses, once it sealed and once all is revealed.
A 5-player Adel Verpflichtet game is looked at through its locations, action cards and
exhibitions.
The decision (the chips) must lie inside the screen without scrolling, nothing may spill or
scroll sideways, no name may break inside a word (tests/web/walk.py's look).
"""

import html
import json
import random
import re

import pytest

from companion_app.store import get_store
from companion_app.store import reveals as reveal
from scoring import for_sale
from tests.live import json_request, screenshot
from tests.scoring import adel_random
from tests.scoring.for_sale_random import random_move
from tests.seats.helpers import for_sale_at_reveal, phone, seat_link_path
from tests.web.walk import CONTAINED, LANGUAGES, LONG_NAMES, LOOK, NAMES_SHOWN

pytestmark = pytest.mark.browser

PHONES = ({"width": 360, "height": 740}, {"width": 800, "height": 1280})
SALES = 3
#: Adel secret choices looked at (location and action card each count one).
ADEL_LOOKS = 8


def views(browser, base: str):
    """One phone per size and language, for seats 0 to 3."""
    views_wanted = [(size, lang) for size in PHONES for lang in LANGUAGES]
    for index, (size, lang) in enumerate(views_wanted):
        context = browser.new_context(viewport=size, base_url=base, locale=lang)
        yield index, f"{size['width']}x{size['height']} {lang}", context.new_page()


def look(page, where: str, decision: bool) -> list[str]:
    """What is out of view, spills or breaks on the page as it stands."""
    seen = page.evaluate(LOOK, [CONTAINED, NAMES_SHOWN])
    problems = seen["problems"]
    if not decision:
        problems = [problem for problem in problems if problem != "no decision marked"]
    return [f"{where}: {problem}" for problem in problems]


def next_sale(app, table_id: str, rng) -> None:
    """Play on (the box locks every seat in) until the next sale waits for everyone."""
    with app.app_context():
        store = get_store()
        table = store.get(table_id)
        while True:
            table = store.apply_move(table.id, random_move(table.state, rng), table.version)
            seats = for_sale.reveal_seats(table.state)
            if len(seats) == len(table.state["players"]):
                return
            if seats:
                current = reveal.current(table.id)
                for seat in current.seats:
                    reveal.press(table.id, current.id, seat)


def test_every_seat_page_is_in_view_at_both_phone_sizes(live_server, browser):
    base, app = live_server
    table = for_sale_at_reveal(app, names=LONG_NAMES[:5], seed=8)
    pages = list(views(browser, base))
    for seat, _where, page in pages:
        page.goto(seat_link_path(app, table.id, seat))
        with page.expect_navigation():
            page.click("[data-testid=take-seat]")
    problems: list[str] = []
    rng = random.Random(8)
    for sale in range(SALES):
        for _seat, where, page in pages:
            page.goto(f"/tables/{table.id}/seat")
            problems += look(page, f"sale {sale} {where} choosing", decision=True)
            if sale == 0:
                screenshot(page, f"seat-walk-{where.replace(' ', '-')}")
            with page.expect_navigation():
                page.click("[data-testid=seal-option] >> nth=-1")
            problems += look(page, f"sale {sale} {where} sealed", decision=True)
        with app.app_context():
            houses = get_store().get(table.id).state["players"][4]["houses"]
        _seal_last(app, table.id, houses[0])
        for _seat, where, page in pages:
            page.goto(f"/tables/{table.id}/seat")
            problems += look(page, f"sale {sale} {where} revealed", decision=False)
        if sale + 1 < SALES:
            next_sale(app, table.id, rng)
    assert not problems, "\n".join(problems[:30])


def _seal_last(app, table_id: str, house: int) -> None:
    """The fifth seat seals on its own phone (a LAN client), which reveals the sale."""
    client = phone(app, table_id, 4)
    answer = client.post(f"/tables/{table_id}/seat/seal", data={"choice": json.dumps(house)})
    assert answer.status_code == 303


def test_every_adel_seat_page_is_in_view_at_both_phone_sizes(live_server, browser):
    """A seeded 5-player Adel Verpflichtet game (RULES.md §4), hands tracked, long names:
    each phone looks at its seat while it chooses a location and an action card and while it
    lays out an exhibition; the phones seal the first choice offered, the API plays the rest."""
    base, app = live_server
    rng = random.Random(31)
    values, piles = adel_random.random_setup(5, rng, tracked=True)
    dealt = values.pop("dealt", None) or values["hands"]
    values["players"] = LONG_NAMES[:5]
    hidden = [pile[1:] for pile in piles]
    status, table = json_request(
        base, "POST", "/api/tables", {"game": "adel_verpflichtet", **values}
    )
    assert status == 201, table
    table_id = table["id"]
    pages = list(views(browser, base))
    for seat, _where, page in pages:
        page.goto(seat_link_path(app, table_id, seat))
        with page.expect_navigation():
            page.click("[data-testid=take-seat]")
    fifth = phone(app, table_id, 4)
    problems: list[str] = []
    looked = 0
    while table["state"]["phase"] != "game_over" and looked < ADEL_LOOKS:
        state = table["state"]
        if state["phase"] in ("location", "action", "choose"):
            looked += 1
            for _seat, where, page in pages:
                page.goto(f"/tables/{table_id}/seat")
                problems += look(page, f"turn {state['turn']} {state['phase']} {where}", True)
                if looked == 1:
                    screenshot(page, f"seat-walk-adel-{where.replace(' ', '-')}")
                with page.expect_navigation():
                    page.click("[data-testid=seal-option] >> nth=0")
            choice = json.loads(_first_option(fifth, table_id))
            answer = fifth.post(
                f"/tables/{table_id}/seat/seal", data={"choice": json.dumps(choice)}
            )
            assert answer.status_code == 303
        else:
            if state["phase"] in ("exhibit", "final"):
                for _seat, where, page in pages:
                    page.goto(f"/tables/{table_id}/seat")
                    decision = page.query_selector("[data-decision]") is not None
                    problems += look(
                        page, f"turn {state['turn']} {state['phase']} {where}", decision
                    )
            move = adel_random.random_move(state, rng, adel_random.real_hands(state, dealt))
            if move["type"] == "buy":  # the table turns the pile's next card face up
                pile = hidden[move["pile"]]
                move["next"], hidden[move["pile"]] = (pile[0] if pile else None), pile[1:]
            body = {"version": table["version"], "move": move}
            status, answer = json_request(base, "POST", f"/api/tables/{table_id}/moves", body)
            assert status == 200, (move, answer)
        status, table = json_request(base, "GET", f"/api/tables/{table_id}")
    assert looked >= 4, looked
    assert not problems, "\n".join(problems[:30])


def _first_option(client, table_id: str) -> str:
    """The first choice the seat page offers (its JSON text)."""
    page = client.get(f"/tables/{table_id}/seat").get_data(as_text=True)
    found = re.search(r'name="choice" value="([^"]*)"', page)
    assert found, page[page.find("<main") :][:2000]
    return html.unescape(found.group(1))
