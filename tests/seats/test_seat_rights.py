"""A seat's phone holds that seat alone (issue 31 item 1, docs/security.md "Seats on phones")."""

import json

from companion_app.store import get_store
from tests.lan import device
from tests.seats.helpers import for_sale_at_reveal, houses_of, phone, seat_link_path

FORBIDDEN = 403


def seal(client, table_id: str, choice) -> object:
    """The phone's seal post (the seat is the one the phone holds)."""
    return client.post(f"/tables/{table_id}/seat/seal", data={"choice": json.dumps(choice)})


def seat_page(client, table_id: str) -> str:
    """The phone's seat page."""
    answer = client.get(f"/tables/{table_id}/seat")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def version(app, table_id: str) -> int:
    """The table's version now."""
    with app.app_context():
        return get_store().get(table_id).version


def test_a_phone_holds_its_own_seat_and_sees_only_its_own_secrets(app):
    table = for_sale_at_reveal(app)
    ann = phone(app, table.id, 0)
    page = seat_page(ann, table.id)
    assert 'data-seat="0"' in page and ">Ann</h1>" in page
    own = ", ".join(str(house) for house in houses_of(app, table.id, 0))
    bobs = ", ".join(str(house) for house in houses_of(app, table.id, 1))
    assert own in page and bobs not in page
    with app.app_context():
        coins = [player["coins"] for player in get_store().get(table.id).state["players"]]
    assert f"<dt>My coins</dt><dd>{coins[0]}</dd>" in page


def test_a_phone_cannot_choose_for_another_seat(app):
    """Ann's phone seals Ann's choice only: Bob's house is not hers to lay."""
    table = for_sale_at_reveal(app)
    ann = phone(app, table.id, 0)
    bobs = set(houses_of(app, table.id, 1)) - set(houses_of(app, table.id, 0))
    answer = seal(ann, table.id, sorted(bobs)[0])
    assert answer.status_code == 303
    assert "Ann cannot choose that now." in seat_page(ann, table.id)
    with app.app_context():
        from companion_app.store import seats

        assert seats.sealed_seats(get_store().get(table.id)) == []


def test_a_phone_cannot_move_undo_or_drop(app):
    table = for_sale_at_reveal(app)
    ann = phone(app, table.id, 0)
    assert ann.post(f"/tables/{table.id}/moves", data={"type": "sell"}).status_code == FORBIDDEN
    assert ann.post(f"/tables/{table.id}/undo", data={}).status_code == FORBIDDEN
    assert ann.post(f"/tables/{table.id}/seats/1/drop").status_code == FORBIDDEN
    assert version(app, table.id) == table.version


def test_a_device_without_the_seat_link_cannot_seal(app):
    table = for_sale_at_reveal(app)
    stranger = device(app, "10.0.0.99")
    answer = seal(stranger, table.id, houses_of(app, table.id, 0)[0])
    assert answer.status_code == FORBIDDEN
    assert "took this seat" in answer.get_data(as_text=True)
    assert "holds no seat" in seat_page(stranger, table.id)


def test_a_wrong_key_or_seat_gives_no_seat(app):
    table = for_sale_at_reveal(app)
    stranger = device(app, "10.0.0.99")
    path = seat_link_path(app, table.id, 0)
    assert stranger.post(path[:-3] + "xyz").status_code == FORBIDDEN
    assert stranger.post(path.replace("/seat/0/", "/seat/1/")).status_code == FORBIDDEN
    assert stranger.post(path.replace("/seat/0/", "/seat/9/")).status_code == FORBIDDEN


def test_a_cross_site_seal_is_refused(app):
    """Seat writes pass the same same-origin check as every write (docs/security.md)."""
    table = for_sale_at_reveal(app)
    ann = phone(app, table.id, 0)
    answer = ann.post(
        f"/tables/{table.id}/seat/seal",
        data={"choice": json.dumps(houses_of(app, table.id, 0)[0])},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert answer.status_code == FORBIDDEN
    with app.app_context():
        from companion_app.store import seats

        assert seats.sealed_seats(get_store().get(table.id)) == []


def test_a_dropped_phone_loses_its_seat_and_its_link(app):
    table = for_sale_at_reveal(app)
    ann = phone(app, table.id, 0)
    old_link = seat_link_path(app, table.id, 0)
    host = app.test_client()  # this computer hosts every table
    assert "A phone holds this seat." in host.get(f"/tables/{table.id}").get_data(as_text=True)
    assert host.post(f"/tables/{table.id}/seats/0/drop").status_code == 303
    assert seal(ann, table.id, houses_of(app, table.id, 0)[0]).status_code == FORBIDDEN
    assert ann.post(old_link).status_code == FORBIDDEN  # the old link is worthless too
    assert seat_link_path(app, table.id, 0) != old_link
    again = phone(app, table.id, 0, address="10.0.0.50")  # the new link works
    assert seal(again, table.id, houses_of(app, table.id, 0)[0]).status_code == 303


def test_a_new_join_replaces_the_old_phone(app):
    table = for_sale_at_reveal(app)
    first = phone(app, table.id, 0)
    second = phone(app, table.id, 0, address="10.0.0.51")
    assert seal(first, table.id, houses_of(app, table.id, 0)[0]).status_code == FORBIDDEN
    assert seal(second, table.id, houses_of(app, table.id, 0)[0]).status_code == 303


def test_the_host_sees_which_seats_have_a_phone(app):
    table = for_sale_at_reveal(app)
    phone(app, table.id, 2)
    page = app.test_client().get(f"/tables/{table.id}").get_data(as_text=True)
    assert 'data-testid="seat-link-2" data-phone="yes"' in page
    assert 'data-testid="seat-link-0" data-phone="no"' in page
    assert "(1/4)" in page


def test_a_viewer_gets_no_seat_links(app):
    table = for_sale_at_reveal(app)
    page = device(app, "10.0.0.99").get(f"/tables/{table.id}").get_data(as_text=True)
    assert "seat-link" not in page and "/seat/0/" not in page
