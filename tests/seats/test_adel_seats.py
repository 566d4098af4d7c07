"""Adel Verpflichtet with seats on the players' phones, through the pages (issue 31).

Each phone seals its location, then its action card; an exhibitor enters their own cards; the
scorer's panels come filled in from the phones for a table where only some seats have one.
The unshuffled test deck deals Ann A B C D, Bob E F A B, Cid C D E F (tests/scoring/adel_play.py).
"""

import json
import re

import pytest

from tests.seats.helpers import phone
from tests.web.adel_pages import AdelPages, setup_form

CASTLE, AUCTION = "castle", "auction"
EXHIBIT = {"card": "exhibit"}
DETECTIVE = {"card": "detective"}
ANN_SHOWS = ["A:1500", "B:1507", "C:1514"]


def check(value: int) -> dict:
    """A check action card."""
    return {"card": "check", "value": value}


@pytest.fixture
def adel(client):
    """A 3-player Adel table (every hand tracked) on the tablet, this computer hosting it."""
    pages = AdelPages(client)
    pages.create()
    pages.table_id = pages.url.rsplit("/", 1)[1]
    return pages


def seal(device, table_id: str, choice: object):
    """The phone seals a choice as its chip posts it; the seat page after the redirect."""
    answer = device.post(f"/tables/{table_id}/seat/seal", data={"choice": json.dumps(choice)})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return device.get(f"/tables/{table_id}/seat").get_data(as_text=True)


def seat_page(device, table_id: str) -> str:
    """The phone's seat page."""
    return device.get(f"/tables/{table_id}/seat").get_data(as_text=True)


def checked(page: str, testid: str) -> bool:
    """True if the input with this test id is checked on the page."""
    found = re.search(rf'<input[^>]*data-testid="{re.escape(testid)}"[^>]*>', page)
    assert found, testid
    return " checked" in found.group(0)


def phones(app, adel, seats=(0, 1, 2)) -> dict:
    """A phone that took each of these seats."""
    return {seat: phone(app, adel.table_id, seat) for seat in seats}


def test_every_seat_seals_its_location_then_its_card_and_the_scorer_taps_nothing(app, adel):
    """RULES.md §4 "Each turn": both secret choices made on the phones, each one move."""
    held = phones(app, adel)
    page = seat_page(held[0], adel.table_id)
    assert 'data-state="choose"' in page and "Auction house" in page and "Castle" in page
    for seat, place in ((0, CASTLE), (1, AUCTION)):
        seal(held[seat], adel.table_id, place)
    assert adel.state()["phase"] == "location"  # Cid has not sealed: nothing revealed
    assert "castle" not in json.dumps(adel.api()["state"]["places"] or [])
    seal(held[2], adel.table_id, CASTLE)
    assert adel.state()["places"] == [CASTLE, AUCTION, CASTLE]
    page = seat_page(held[1], adel.table_id)
    assert "Check 21" in page and "Detective" not in page  # Bob is at the auction house
    for seat, card in ((0, EXHIBIT), (1, check(21)), (2, DETECTIVE)):
        seal(held[seat], adel.table_id, card)
    state = adel.state()
    assert state["played"] == [EXHIBIT, check(21), DETECTIVE] and state["phase"] == "buy"


def test_a_card_the_seat_may_not_play_is_refused_on_its_phone(app, adel):
    held = phones(app, adel)
    for seat, place in ((0, CASTLE), (1, AUCTION), (2, CASTLE)):
        seal(held[seat], adel.table_id, place)
    page = seal(held[1], adel.table_id, DETECTIVE)
    assert "Bob cannot play that card there" in page
    assert adel.state()["phase"] == "action"


def test_the_exhibitors_enter_their_own_cards_and_the_last_entry_makes_the_move(app, adel):
    """RULES.md §4 "Castle": exhibitors reveal at once; best two advance by the fraction."""
    held = phones(app, adel)
    for seat, place in enumerate((CASTLE, CASTLE, CASTLE)):
        seal(held[seat], adel.table_id, place)
    for seat, card in enumerate((EXHIBIT, DETECTIVE, EXHIBIT)):
        seal(held[seat], adel.table_id, card)
    assert adel.state()["phase"] == "exhibit"
    ann = seat_page(held[0], adel.table_id)
    assert 'data-testid="seat-show-form"' in ann and "A 1500, B 1507, C 1514, D 1521" in ann
    assert "No exhibition" not in ann  # only the final exhibition may be empty
    bob = seat_page(held[1], adel.table_id)
    assert 'data-testid="seat-show-form"' not in bob
    assert 'data-state="revealed"' in bob and "You chose Detective" in bob
    answer = held[0].post(f"/tables/{adel.table_id}/seat/seal", data={"show": ANN_SHOWS})
    assert answer.status_code == 303
    ann = seat_page(held[0], adel.table_id)
    assert "Sealed: A 1500, B 1507, C 1514." in ann and "Waiting for Cid." in ann
    assert checked(ann, "seat-show-A1500") and not checked(ann, "seat-show-D1521")
    table = adel.page()  # nothing of Ann's shows before Cid's cards are down too (§4 "Castle")
    assert not checked(table, "show0-A1500") and "sealed-on-phone" not in table
    seal(
        held[2],
        adel.table_id,
        [
            {"letter": "C", "year": 1556},
            {"letter": "D", "year": 1563},
            {"letter": "E", "year": 1570},
        ],
    )
    state = adel.state()
    assert state["phase"] == "review"
    assert [p["gained"]["exhibitions"] for p in state["players"]] == [2, 0, 1]


def test_an_exhibition_not_valid_is_refused_on_the_phone(app, adel):
    held = phones(app, adel)
    for seat in range(3):
        seal(held[seat], adel.table_id, CASTLE)
    for seat, card in enumerate((EXHIBIT, DETECTIVE, EXHIBIT)):
        seal(held[seat], adel.table_id, card)
    held[0].post(f"/tables/{adel.table_id}/seat/seal", data={"show": ["A:1500", "C:1514"]})
    page = seat_page(held[0], adel.table_id)
    assert "Ann&#39;s exhibition is not valid" in page or "Ann's exhibition is not valid" in page
    assert 'data-state="choose"' in page


def test_without_the_leaders_fraction_the_scorer_types_it_and_submits_once(app, client):
    """RULES.md §4: the fraction is a board value the whole table sees; the scorer enters it."""
    adel = AdelPages(client)
    fields = {f"{end}{space}": "" for space in range(12) for end in ("top", "bottom")}
    adel.create(**fields)
    adel.table_id = adel.url.rsplit("/", 1)[1]
    held = phones(app, adel)
    for seat in range(3):
        seal(held[seat], adel.table_id, CASTLE)
    for seat, card in enumerate((EXHIBIT, DETECTIVE, EXHIBIT)):
        seal(held[seat], adel.table_id, card)
    held[0].post(f"/tables/{adel.table_id}/seat/seal", data={"show": ANN_SHOWS})
    held[2].post(
        f"/tables/{adel.table_id}/seat/seal",
        data={"show": ["C:1556", "D:1563"], "show.new": "E 1570"},
    )
    assert adel.state()["phase"] == "exhibit"  # the fraction is the table's to enter
    assert "the scorer enters the rest" in seat_page(held[2], adel.table_id)
    table = adel.page()
    assert table.count('data-testid="sealed-on-phone"') == 2
    for chip in ("show0-A1500", "show0-B1507", "show0-C1514", "show2-C1556", "show2-E1570"):
        assert checked(table, chip), chip
    shows = {"shows0": "1", "shows1": "0", "shows2": "1", "top": "3", "bottom": "1"}
    shows["show0"] = ANN_SHOWS
    shows["show2"] = ["C:1556", "D:1563", "E:1570"]
    adel.post({"type": "exhibitions", **shows})
    state = adel.state()
    assert state["phase"] == "review" and state["fractions"][0] == [3, 1]


def test_a_mixed_table_an_exhibition_entered_on_a_phone_is_ticked_for_the_scorer(app, adel):
    """RULES.md §4 "Castle": Ann exhibits on her phone, Cid (no phone) on the table."""
    held = phones(app, adel, seats=(0, 1))
    seal(held[0], adel.table_id, CASTLE)
    seal(held[1], adel.table_id, CASTLE)
    adel.lock_in()
    adel.post({"type": "locations", "place0": CASTLE, "place1": CASTLE, "place2": CASTLE})
    seal(held[0], adel.table_id, EXHIBIT)
    seal(held[1], adel.table_id, DETECTIVE)
    adel.lock_in()
    adel.post({"type": "actions", "act0": "exhibit", "act1": "detective", "act2": "exhibit"})
    held[0].post(f"/tables/{adel.table_id}/seat/seal", data={"show": ANN_SHOWS})
    table = adel.page()
    assert all(checked(table, f"show0-{chip.replace(':', '')}") for chip in ANN_SHOWS)
    assert not checked(table, "show0-D1521") and not checked(table, "show2-C1556")
    assert 'data-testid="sealed-on-phone"' in table


def test_a_mixed_table_the_scorer_finds_the_phones_choices_ticked_after_the_reveal(app, adel):
    """Two phones seal, Cid locks in on the box: the scorer enters only Cid's choice."""
    held = phones(app, adel, seats=(0, 1))
    seal(held[0], adel.table_id, CASTLE)
    seal(held[1], adel.table_id, AUCTION)
    before = adel.page()
    assert not checked(before, "place0-castle"), "a sealed choice shows before the reveal"
    adel.lock_in()  # Cid presses his button; Ann's and Bob's are locked in already
    after = adel.page()
    assert checked(after, "place0-castle") and checked(after, "place1-auction")
    assert not checked(after, "place2-castle") and not checked(after, "place2-auction")
    assert after.count('data-testid="sealed-on-phone"') == 2
    adel.post({"type": "locations", "place0": CASTLE, "place1": AUCTION, "place2": CASTLE})
    seal(held[0], adel.table_id, EXHIBIT)
    seal(held[1], adel.table_id, check(22))
    adel.lock_in()
    page = adel.page()
    assert checked(page, "act0-exhibit") and checked(page, "act1-check:22")
    adel.post({"type": "actions", "act0": "exhibit", "act1": "check:22", "act2": "detective"})
    assert adel.state()["played"][1] == check(22)


def test_a_phone_sees_its_own_hand_and_nobody_elses(app, adel):
    """RULES.md §4 "Hidden information": hands are secret."""
    held = phones(app, adel, seats=(0, 1))
    ann, bob = seat_page(held[0], adel.table_id), seat_page(held[1], adel.table_id)
    assert "A 1500, B 1507, C 1514, D 1521" in ann and "E 1528" not in ann
    assert "A 1542, B 1549, E 1528, F 1535" in bob and "A 1500" not in bob


def test_the_seat_page_speaks_czech(app, adel):
    held = phones(app, adel, seats=(0,))
    held[0].post("/lang", data={"lang": "cs", "next": f"/tables/{adel.table_id}/seat"})
    page = seat_page(held[0], adel.table_id)
    assert "Moje karty v ruce" in page and "Zámek" in page


def test_hands_with_the_players_a_phone_types_its_cards_and_the_scorer_finds_them_typed(
    app, client
):
    """RULES.md §4 "Hidden information": the app learns a card when the table reveals it; the
    phone's typed cards have no chip on the scorer's form, so they come typed there."""
    adel = AdelPages(client)
    response = client.post("/tables/new/adel_verpflichtet", data=setup_form(track=False))
    adel.url = response.headers["Location"]
    adel.table_id = adel.url.rsplit("/", 1)[1]
    ann = phone(app, adel.table_id, 0)
    seal(ann, adel.table_id, CASTLE)
    adel.lock_in()
    adel.post({"type": "locations", "place0": CASTLE, "place1": AUCTION, "place2": CASTLE})
    seal(ann, adel.table_id, EXHIBIT)
    adel.lock_in()
    adel.post({"type": "actions", "act0": "exhibit", "act1": "check:21", "act2": "exhibit"})
    adel.post({"type": "buy", "pile": "0", "next.letter": "F", "next.new": "1950"})
    page = seat_page(ann, adel.table_id)
    assert 'data-testid="show-new"' in page and "My other cards" in page
    ann.post(f"/tables/{adel.table_id}/seat/seal", data={"show.new": "D 1902 b1900 C 1901"})
    assert "Sealed: B 1900, C 1901, D 1902." in seat_page(ann, adel.table_id)
    table = adel.page()  # Cid's cards are the scorer's to enter
    typed = re.search(r'<input[^>]*data-testid="show0-new"[^>]*>', table).group(0)
    assert 'value="B 1900 C 1901 D 1902"' in typed
    adel.post(
        {
            "type": "exhibitions",
            **{"shows0": "1", "shows1": "0", "shows2": "1"},
            **{"show0.new": "B 1900 C 1901 D 1902", "show2.new": "C 1800 D 1801 E 1802"},
        }
    )
    state = adel.state()
    assert state["phase"] == "review" and state["players"][0]["unseen"] == 1
