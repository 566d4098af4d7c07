"""Sealed choices (issue 31 item 2): kept from everyone until the last seal, revealed as one move.

RULES.md §2 "Phase 2": every player holding houses lays one face down at the same time, and
all are turned over together; a seal on a phone is that face-down card.
"""

import json

import pytest

from companion_app.store import get_store, seats
from companion_app.store import reveals as reveal
from tests.seats.helpers import for_sale_at_reveal, houses_of, phone


def seal(client, table_id: str, choice) -> None:
    """The phone seals `choice` for its seat (the post always goes back to the seat page)."""
    answer = client.post(f"/tables/{table_id}/seat/seal", data={"choice": json.dumps(choice)})
    assert answer.status_code == 303


def table_now(app, table_id: str):
    """The table as stored now."""
    with app.app_context():
        return get_store().get(table_id)


def test_the_last_seal_reveals_every_choice_as_one_move(app):
    table = for_sale_at_reveal(app)
    phones = [phone(app, table.id, seat) for seat in range(4)]
    chosen = [houses_of(app, table.id, seat)[-1] for seat in range(4)]
    for seat in range(3):
        seal(phones[seat], table.id, chosen[seat])
        assert table_now(app, table.id).version == table.version  # nothing revealed yet
    seal(phones[3], table.id, chosen[3])
    after = table_now(app, table.id)
    assert after.version == table.version + 1
    with app.app_context():
        last = get_store().history(table.id)[-1]
    assert last.move == {"type": "sell", "houses": chosen}
    assert after.state["phase"] == "selling"
    page = phones[0].get(f"/tables/{table.id}/seat").get_data(as_text=True)
    assert 'data-state="revealed"' in page and f"You chose house {chosen[0]}." in page


def test_a_seat_may_change_its_sealed_choice_until_the_last_seal(app):
    table = for_sale_at_reveal(app)
    phones = [phone(app, table.id, seat) for seat in range(4)]
    ann = houses_of(app, table.id, 0)
    seal(phones[0], table.id, ann[0])
    seal(phones[0], table.id, ann[1])  # changed her mind
    page = phones[0].get(f"/tables/{table.id}/seat").get_data(as_text=True)
    assert f"Sealed: house {ann[1]}." in page and 'data-state="sealed"' in page
    with app.app_context():
        current = reveal.current(table.id)
    assert current.locked == [0]  # one lock-in, however often she changes
    for seat in (1, 2, 3):
        seal(phones[seat], table.id, houses_of(app, table.id, seat)[0])
    with app.app_context():
        assert get_store().history(table.id)[-1].move["houses"][0] == ann[1]
    seal(phones[0], table.id, ann[2])  # too late: refused, nothing changes
    assert "Ann has nothing to choose now." in phones[0].get(f"/tables/{table.id}/seat").get_data(
        as_text=True
    )


def test_a_seat_page_says_who_the_table_waits_for(app):
    table = for_sale_at_reveal(app)
    ann, bob = phone(app, table.id, 0), phone(app, table.id, 1)
    seal(bob, table.id, houses_of(app, table.id, 1)[0])
    page = ann.get(f"/tables/{table.id}/seat").get_data(as_text=True)
    assert "Waiting for Cid, Dee." in page and 'data-state="choose"' in page


def test_a_mixed_table_reveals_then_the_scorer_enters_the_rest(app):
    """Two seats seal on phones, two lock in on the box: the scorer's form shows the sealed
    houses once all have locked in and the scorer enters the other two."""
    table = for_sale_at_reveal(app)
    chosen = {seat: houses_of(app, table.id, seat)[0] for seat in (0, 1)}
    for seat, house in chosen.items():
        seal(phone(app, table.id, seat), table.id, house)
    host = app.test_client()
    before = host.get(f"/tables/{table.id}").get_data(as_text=True)
    assert "chosen on the phone" not in before
    with app.app_context():
        current = reveal.current(table.id)
        for seat in (2, 3):
            reveal.press(table.id, current.id, seat)
    assert table_now(app, table.id).version == table.version  # the box's seats still to enter
    page = host.get(f"/tables/{table.id}").get_data(as_text=True)
    for seat, house in chosen.items():
        assert f'name="house{seat}" value="{house}" data-house="{house}" checked' in page
    assert page.count('data-testid="sealed-on-phone"') == 2
    houses = {f"house{seat}": house for seat, house in chosen.items()}
    houses.update({f"house{seat}": houses_of(app, table.id, seat)[0] for seat in (2, 3)})
    answer = host.post(
        f"/tables/{table.id}/moves",
        data={"type": "sell", "version": table.version, **houses},
    )
    assert answer.status_code == 303
    assert table_now(app, table.id).version == table.version + 1


def test_a_box_press_after_a_seal_keeps_the_seal(app):
    """A seat that sealed and then pressed its box button too is locked in once."""
    table = for_sale_at_reveal(app)
    ann = phone(app, table.id, 0)
    seal(ann, table.id, houses_of(app, table.id, 0)[0])
    with app.app_context():
        current = reveal.current(table.id)
        after, duplicate = reveal.press(table.id, current.id, 0)
    assert duplicate and after.locked == [0]


@pytest.mark.parametrize("bad", ["", "nonsense", json.dumps({"house": 3}), json.dumps(99)])
def test_an_unreadable_or_impossible_choice_is_refused(app, bad):
    table = for_sale_at_reveal(app)
    ann = phone(app, table.id, 0)
    answer = ann.post(f"/tables/{table.id}/seat/seal", data={"choice": bad})
    assert answer.status_code == 303
    assert "Ann cannot choose that now." in ann.get(f"/tables/{table.id}/seat").get_data(
        as_text=True
    )
    with app.app_context():
        assert seats.sealed_seats(get_store().get(table.id)) == []


def test_nothing_to_seal_outside_the_choice(app):
    """After the reveal, while the scorer enters the next checks, the phone has no choice."""
    table = for_sale_at_reveal(app)
    phones = [phone(app, table.id, seat) for seat in range(4)]
    for seat in range(4):
        seal(phones[seat], table.id, houses_of(app, table.id, seat)[0])
    seal(phones[1], table.id, houses_of(app, table.id, 1)[0])
    page = phones[1].get(f"/tables/{table.id}/seat").get_data(as_text=True)
    assert "Bob has nothing to choose now." in page


def test_an_undo_of_the_revealed_move_keeps_the_choices_for_the_scorer(app):
    table = for_sale_at_reveal(app)
    phones = [phone(app, table.id, seat) for seat in range(4)]
    chosen = [houses_of(app, table.id, seat)[0] for seat in range(4)]
    for seat in range(4):
        seal(phones[seat], table.id, chosen[seat])
    with app.app_context():
        undone = get_store().undo(table.id, table.version + 1)
    assert undone.state["phase"] == "reveal"
    page = app.test_client().get(f"/tables/{table.id}").get_data(as_text=True)
    assert page.count('data-testid="sealed-on-phone"') == 4
