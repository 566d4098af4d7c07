"""Adel Verpflichtet at a real table (issue 23): hands stay with the players and off the shared
screen, every card in one place through the API and the calculator, and the setup's friction.

RULES.md §4 "Hidden information": "Hands are secret: exhibitions are laid face down [...] bought
cards are public (the piles are face up)." §4 "Material": "Each collection card is one physical
card [...] the same card entered in a second place is a mistake."
"""

import random
import re

import pytest

from companion_app.server import rights
from scoring import adel_verpflichtet as adel
from tests.scoring.adel_play import deck, setup, split
from tests.scoring.adel_random import random_move, random_setup, real_hands
from tests.web.adel_pages import AdelPages, setup_form

CARD_LABEL = re.compile(r"\b([A-F]) (\d{3,4})\b")


@pytest.fixture
def av(client) -> AdelPages:
    """Adel pages against the test client, in English."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    return AdelPages(client)


def created(client, data: dict) -> dict:
    """Post the setup form; the table's state through the API."""
    response = client.post("/tables/new/adel_verpflichtet", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return client.get("/api" + response.headers["Location"]).get_json()["state"]


# -- Hands left to the players (item 1) ---------------------------------------------------------


def test_by_default_the_setup_takes_only_the_pile_tops_and_hands_stay_with_the_players(client, av):
    data = setup_form(track=False)
    assert not any(key.startswith("p0.card") for key in data)
    state = created(client, data)
    assert state["tracked"] is False
    assert [(p["hand"], p["unseen"]) for p in state["players"]] == [([], 4)] * 3
    assert [pile["top"] for pile in state["piles"]] == [split(deck(), 3)[i][0] for i in (0, 1)]


def test_tracking_every_hand_is_a_setup_option_that_takes_the_dealt_cards(client, av):
    state = created(client, setup_form(track=True))
    assert state["tracked"] is True
    assert state["players"][0]["hand"] == deck()[:4]


def test_a_remembered_profile_fills_in_the_board_and_the_last_players(client, av):
    created(client, setup_form(["Ann", "Bob", "Cid"], profile="Club board", track=False))
    page = client.get("/tables/new/adel_verpflichtet").get_data(as_text=True)
    assert '<input type="hidden" name="profile" value="Club board">' in page
    assert 'name="top3" value="2"' in page and 'name="p1.check0" value="21"' in page
    names = re.findall(r'name="player" value="([^"]*)"', page)
    assert names[:3] == ["Ann", "Bob", "Cid"]


def test_a_new_board_starts_empty_nothing_inherited_from_the_last_profile(client, av):
    """Issue 23: a new profile silently got space 3's 3/1 from the last profile."""
    created(client, setup_form(profile="Club board", track=False))
    page = client.get("/tables/new/adel_verpflichtet?profile=").get_data(as_text=True)
    assert 'name="top3" value=""' in page and 'name="p1.check0" value=""' in page
    assert 'name="profile" value=""' in page and 'type="hidden" name="profile"' not in page
    assert 'data-testid="new-board" aria-current="true"' in page


def test_setup_refusals_are_listed_before_anything_else_of_the_game(client, av):
    """Issue 23: refusals appeared 1,200-3,200 px down with nothing on the first screen."""
    bad = {"p1.check3": "11", "bottom3": "", "top1.letter": "", "top1.new": ""}
    page = client.post("/tables/new/adel_verpflichtet", data={**setup_form(), **bad}).text
    summary = page.index('data-testid="setup-refusals"')
    assert summary < page.index('data-testid="profile-fieldset"')
    listed = re.findall(r'<li><a href="#av-([\w]+)">', page)
    assert sorted(listed) == ["seat1", "tops", "track"]
    assert "3 entries to correct" in page


def test_a_letter_tapped_by_mistake_can_be_cleared(client, av):
    """Issue 23: a mis-tapped letter chip could not be unticked; the "–" chip clears it."""
    page = client.get("/tables/new/adel_verpflichtet").get_data(as_text=True)
    assert 'data-testid="top0-letter-none"' in page
    data = {**setup_form(track=False), "top1.letter": "", "top1.new": "", "top1.year": "B:1619"}
    response = client.post("/tables/new/adel_verpflichtet", data=data)
    assert response.status_code == 400
    assert "Top card of pile 2: tap a letter A to F" in response.text


def test_an_exhibition_is_entered_card_by_card_and_counts_the_hand(client, av):
    av.create(**{"track": ""})
    av.lock_in()
    av.post({"type": "locations", "place0": "castle", "place1": "castle", "place2": "auction"})
    av.lock_in()
    av.post({"type": "actions", "act0": "exhibit", "act1": "detective", "act2": "check:31"})
    av.post({"type": "buy", "pile": "0", "next.letter": "B", "next.new": "1591"})
    page = av.page()
    assert 'data-testid="show0-letter-A"' in page and "checked" not in page.split("show0-")[1]
    shown = {"type": "exhibitions", "shows0": "1", "shows1": "0", "shows2": "0"}
    av.post({**shown, "show0": ["A:1500"], "show0.letter": "C", "show0.new": "B 1507 1514"})
    state = av.state()
    assert state["phase"] == "review"
    assert state["players"][0]["hand"] == deck()[:3] and state["players"][0]["unseen"] == 1
    assert 'data-testid="held-0">4<' in av.page()


# -- Secrets stay off the shared screen (item 2) ------------------------------------------------


def revealed_by(move: dict) -> set:
    """Cards a move turns face up at the table: bought, come up, exhibited."""
    found = [move.get("card"), move.get("next")]
    found += [card for shown in move.get("shows") or [] for card in shown or []]
    return {(c["letter"], c["year"]) for c in found if isinstance(c, dict)}


@pytest.mark.parametrize("track", [True, False], ids=["hands-tracked", "hands-kept"])
def test_a_viewer_of_the_table_page_sees_no_card_of_any_hand_while_the_game_runs(app, track):
    host = app.test_client()
    viewer = app.test_client()
    rng = random.Random(23)
    values, piles = random_setup(4, rng)
    dealt = values.pop("hands")
    if track:
        values["hands"] = dealt
    answer = host.post("/api/tables", json={"game": "adel_verpflichtet", **values})
    table = answer.get_json()
    hidden = [pile[1:] for pile in piles]
    revealed = {(c["letter"], c["year"]) for c in values["tops"]}
    while table["state"]["phase"] != "game_over":
        page = viewer.get(  # as the live hub renders the page for every phone watching
            f"/tables/{table['id']}", environ_overrides={rights.VIEWER_ENVIRON: True}
        ).get_data(as_text=True)
        host_page = host.get(f"/tables/{table['id']}").get_data(as_text=True)
        secret = {f"{c['letter']} {c['year']}" for hand in dealt for c in hand} | {
            f"{c['letter']} {c['year']}" for p in table["state"]["players"] for c in p["hand"]
        }
        secret -= {f"{letter} {year}" for letter, year in revealed}
        host_rest = re.sub(
            r'<div class="controls".*?</section>', "", host_page, count=1, flags=re.S
        )
        for who, shown in (("viewer", page), ("host", host_rest)):
            leaked = secret & {f"{m[0]} {m[1]}" for m in CARD_LABEL.findall(shown)}
            assert not leaked, (who, table["state"]["phase"], leaked)
        assert "av-hand-line" not in page
        state = table["state"]
        if state["phase"] in ("location", "action", "choose"):
            device = host.get(f"/api/tables/{table['id']}/device").get_json()["reveal"]
            for seat in device["seats"]:
                host.post(
                    f"/api/tables/{table['id']}/reveal/press",
                    json={"id": device["id"], "seat": seat},
                )
        move = random_move(state, rng, real_hands(state, dealt))
        if move["type"] == "buy":
            pile = hidden[move["pile"]]
            move["next"], hidden[move["pile"]] = (pile[0] if pile else None), pile[1:]
            top = state["piles"][move["pile"]]["top"]
            revealed.add((top["letter"], top["year"]))  # bought cards are public
        answer = host.post(
            f"/api/tables/{table['id']}/moves", json={"version": table["version"], "move": move}
        )
        assert answer.status_code == 200, answer.get_json()
        revealed |= revealed_by(move)
        table = answer.get_json()
    final = viewer.get(f"/tables/{table['id']}/results").get_data(as_text=True)
    assert "Final" in final or "final" in final


# -- Every card in one place, through the API (item 3) ----------------------------------------


def api_setup(client, **changes) -> tuple[int, dict]:
    """POST /api/tables with the test setup changed; (status, JSON)."""
    answer = client.post("/api/tables", json={"game": "adel_verpflichtet", **setup(3, **changes)})
    return answer.status_code, answer.get_json()


def test_api_the_same_card_in_two_hands_is_a_400_naming_the_card(client):
    hands = setup(3)["hands"]
    hands[1][0] = hands[0][0]
    status, body = api_setup(client, hands=hands)
    assert status == 400 and list(body) == ["error"]
    assert "Card 1 of player 2: A 1500 is already dealt to player 1." in body["error"]


def test_api_a_card_in_a_hand_and_on_a_pile_top_is_a_400_naming_the_card(client):
    values = setup(3)
    status, body = api_setup(client, tops=[values["hands"][2][1], values["tops"][1]])
    assert status == 400
    assert "Top card of pile 1: D 1563 is already dealt to player 3." in body["error"]


def test_api_a_card_that_comes_up_while_held_is_a_400_naming_it_and_nothing_changes(client):
    status, table = api_setup(client)
    assert status == 201
    url = f"/api/tables/{table['id']}"
    moves = [
        {"type": "locations", "places": ["auction", "castle", "castle"]},
        {
            "type": "actions",
            "actions": [{"card": "check", "value": 11}] + [{"card": "detective"}] * 2,
        },
    ]
    for move in moves:
        device = client.get(url + "/device").get_json()["reveal"]
        for seat in device["seats"]:
            client.post(url + "/reveal/press", json={"id": device["id"], "seat": seat})
        table = client.post(url + "/moves", json={"version": table["version"], "move": move})
        table = table.get_json()
    held = table["state"]["players"][1]["hand"][0]
    move = {"type": "buy", "pile": 0, "next": held}
    answer = client.post(url + "/moves", json={"version": table["version"], "move": move})
    assert answer.status_code == 400
    assert answer.get_json() == {
        "error": "E 1528 is already in Bob's hand: each card is one physical card, in one place."
    }
    assert client.get(url).get_json()["version"] == table["version"]


def test_api_the_calculator_refuses_one_card_in_two_hands(client):
    sheet = {
        "game": "adel_verpflichtet",
        "kind": "final",
        "positions": {"A": 10, "B": 9},
        "hands": {"A": [{"letter": "B", "year": 1710}], "B": [{"letter": "B", "year": 1710}]},
    }
    answer = client.post("/api/score", json=sheet)
    assert answer.status_code == 400
    assert "B 1710 is already in A's hand" in answer.get_json()["error"]


def test_a_year_on_two_letters_is_accepted_with_a_warning_on_the_table_page(client, av):
    data = {**setup_form(track=False), "top1.letter": "F", "top1.new": "1584"}
    av.url = (
        "/tables/"
        + client.post("/tables/new/adel_verpflichtet", data=data)
        .headers["Location"]
        .rsplit("/", 1)[1]
    )
    page = av.page()
    assert 'data-testid="clashes"' in page
    assert "Year 1584 is on two different cards (A 1584, F 1584)" in page
    assert adel.new_table(setup(3))["clashes"] == []


def test_the_calculator_form_warns_of_a_year_on_two_letters(client):
    client.post("/lang", data={"lang": "en", "next": "/"})
    data = {
        "kind": "final",
        "p0.name": "A",
        "p0.position": "10",
        "p0.cards": "A1700 B1710 C1720",
        "p1.name": "B",
        "p1.position": "10",
        "p1.cards": "D1700 E1711 F1712",
    }
    page = client.post("/score/adel_verpflichtet", data=data).get_data(as_text=True)
    assert "Year 1700 is on two different cards (A 1700, D 1700)" in page


# -- Words and places (item 6) ------------------------------------------------------------------


def test_home_names_the_turn_not_a_round_count(client, av):
    """Issue 23: home said "4. kolo ze 4" for a game with no round count."""
    av.create()
    assert "Turn 1" in client.get("/").get_data(as_text=True)
    assert "Round 1 of 1" not in client.get("/").get_data(as_text=True)


def test_the_review_says_the_register_only_when_the_check_goes_there(av):
    av.create()
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "auction", "place2": "castle"})
    av.lock_in()
    av.post({"type": "actions", "act0": "check:11", "act1": "thief:3", "act2": "detective"})
    av.post({"type": "buy", "pile": "0", "next.letter": "B", "next.new": "1591"})
    steps = re.search(r'data-testid="steps">(.*?)</ol>', av.page(), re.S).group(1)
    assert "register" not in steps and "takes check 11" in steps


def test_two_thieves_caught_at_once_are_reported_in_cells_2_and_1(av):
    """§4 "Castle": several caught at once go in lowest number first (issue 23: both said 1)."""
    av.create()
    av.lock_in()
    av.post({"type": "locations", "place0": "castle", "place1": "castle", "place2": "castle"})
    av.lock_in()
    av.post({"type": "actions", "act0": "thief:1", "act1": "thief:3", "act2": "detective"})
    page = av.page()
    assert "Ann&#39;s thief 1 is caught: prison cell 2." in page
    assert "Bob&#39;s thief 3 is caught: prison cell 1." in page
