"""A For Sale table brought to its selling reveal, and phones that take its seats."""

import random
import re

from companion_app.server import rights
from companion_app.store import get_store, seats
from companion_app.store import reveals as reveal
from scoring import for_sale
from tests.lan import device
from tests.scoring.for_sale_random import random_move

NAMES = ["Ann", "Bob", "Cid", "Dee"]
_VERSION = re.compile(r'name="expected_version" value="(\d+)"')


def for_sale_at_reveal(app, names=NAMES, seed: int = 3):
    """A For Sale table whose next step is the selling round's reveal (every seat chooses)."""
    rng = random.Random(seed)
    with app.app_context():
        store = get_store()
        table = store.create_table("for_sale", {"players": list(names), "variant": False})
        while not for_sale.reveal_seats(table.state) or len(
            for_sale.reveal_seats(table.state)
        ) < len(names):
            if for_sale.reveal_seats(table.state):
                current = reveal.current(table.id)
                for seat in current.seats:
                    reveal.press(table.id, current.id, seat)
            table = store.apply_move(table.id, random_move(table.state, rng), table.version)
        return table


def seat_link_path(app, table_id: str, seat: int) -> str:
    """The path of the seat's current link (what its QR code holds)."""
    with app.test_request_context():
        key = rights.seat_key(table_id, seat, seats.generation(table_id, seat))
    return f"/tables/{table_id}/seat/{seat}/{key}"


def phone(app, table_id: str, seat: int, address: str | None = None):
    """A phone on the LAN that took the seat's link."""
    client = device(app, address or f"10.0.0.{20 + seat}")
    answer = client.post(seat_link_path(app, table_id, seat))
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return client


def houses_of(app, table_id: str, seat: int) -> list[int]:
    """The houses the seat holds now."""
    with app.app_context():
        return sorted(get_store().get(table_id).state["players"][seat]["houses"])
