"""A refused entry comes back as entered with the named field marked; steppers and chips post
the moves the rules read (issue 14 item 2)."""

import re

from companion_app.store import get_store
from tests.web.test_prodigals_pages import Club, error_in

BOB = 1


def chip_checked(page: str, group: str, value: str) -> bool:
    """Whether the chip `value` inside the element with data-testid `group` is ticked."""
    block = re.search(rf'data-testid="{group}".*?</(fieldset|div)>\s*</(fieldset|div)>', page, re.S)
    assert block, f"no {group} on the page"
    return bool(re.search(rf'value="{re.escape(value)}"[^>]*\bchecked\b', block.group(0)))


def test_a_refused_vote_change_keeps_the_player_and_marks_the_change(client, app):
    """RULES.md §5 election: a change that is not a whole number is refused; what was entered
    stays on the form, the change field is marked, and the next page starts empty again."""
    club = Club(client, app).ordered()
    before = club.state()["players"][BOB]["votes"]
    club.post({"type": "votes", "seat": str(BOB), "delta": "two"})
    page = club.page()
    assert error_in(page, "votes")
    assert chip_checked(page, "votes-seat", str(BOB))
    assert re.search(r'data-testid="votes-delta"\s+value="two" aria-invalid="true"', page)
    assert 'data-kept="1"' in page  # live updates leave the form alone
    assert club.state()["players"][BOB]["votes"] == before
    again = club.page()
    assert 'value="two"' not in again and 'aria-invalid="true"' not in again


def test_the_kept_entry_belongs_to_its_own_panel_only(client, app):
    """A refused spend keeps its amount in the spend form, not in the receive form beside it."""
    club = Club(client, app).ordered()
    club.post({"type": "property", "action": "spend", "seat": "0", "amount": "lots"})
    page = club.page()
    assert error_in(page, "property-spend")
    assert re.search(r'data-testid="spend-amount"\s+value="lots"', page)
    assert re.search(r'data-testid="receive-amount"\s+value=""', page)


def test_bob_loses_one_vote_with_his_minus_one_stepper(client, app):
    """RULES.md §5 election: the −1 in Bob's row is the votes move with delta −1."""
    club = Club(client, app).ordered()
    before = club.state()["players"][BOB]["votes"]
    response = club.post({"type": "step", "seat": str(BOB), "step": "votes:-1"})
    assert response.headers["Location"] == club.url
    assert club.state()["players"][BOB]["votes"] == before - 1
    cash = club.state()["players"][0]["cash"]
    club.post({"type": "step", "seat": "0", "step": "cash:+1"})
    assert club.state()["players"][0]["cash"] == cash + 1
    club.post({"type": "step", "seat": "0", "step": "cash:-1"})
    assert club.state()["players"][0]["cash"] == cash


def test_a_stepper_nobody_offers_is_refused_by_the_steppers(client, app):
    """A step the page never offers changes nothing and is refused beside the steppers."""
    club = Club(client, app).ordered()
    before = club.state()
    club.post({"type": "step", "seat": str(BOB), "step": "votes:+5"})
    assert error_in(club.page(), "steps")
    assert club.state() == before


def test_an_owned_tile_chip_names_its_owner(client, app):
    """RULES.md §5 property: a tile sold is the seller's; its chip posts owner and tile."""
    club = Club(client, app).ordered()
    club.post({"type": "property", "action": "add", "seat": str(BOB), "tiles": "5/2"})
    page = club.page()
    assert 'data-tile="1:5/2"' in page
    club.post({"type": "property", "action": "sell", "tile": "1:5/2", "discount": ""})
    assert club.state()["players"][BOB]["tiles"] == []


def test_the_turn_order_chips_post_one_seat_per_place(client, app):
    """RULES.md §5 setup: the order entered by hand, one chip row per place."""
    club = Club(client, app)
    club.post({"type": "order", "how": "by_hand", "order0": "2", "order1": "0", "order2": "1"})
    assert club.state()["order"] == [2, 0, 1]


def test_a_quick_bid_button_bids_its_own_coins(client, app):
    """RULES.md §2 bidding: the tapped quick bid counts, not the number left in the field."""
    response = client.post("/tables/new/for_sale", data={"player": ["Ann", "Bob", "Cid"]})
    url = response.headers["Location"]
    table_id = url.rsplit("/", 1)[1]
    with app.app_context():
        store = get_store()
        table = store.apply_move(table_id, {"type": "start", "seat": 0}, 0)
        table = store.apply_move(table_id, {"type": "houses", "houses": [1, 2, 3]}, table.version)
    page = client.get(url).get_data(as_text=True)
    assert 'data-testid="bid-2"' in page
    form = {"type": "bid", "seat": "0", "coins": ["0", "2"], "version": str(table.version)}
    client.post(f"{url}/moves", data=form)
    with app.app_context():
        assert get_store().get(table_id).state["auction"]["high"] == 2


def test_an_oversized_refused_form_is_kept_only_in_part(client, app):
    """The kept entry lives in the session cookie: a huge post keeps what fits, never breaks."""
    club = Club(client, app).ordered()
    junk = {f"field{index}": "x" * 500 for index in range(40)}
    response = club.post({"type": "votes", "seat": "1", "delta": "two", **junk})
    assert response.status_code == 303
    assert len(response.headers.get("Set-Cookie", "")) < 4000
    assert error_in(club.page(), "votes")
