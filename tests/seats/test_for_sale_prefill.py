"""For Sale's selling round at a mixed table: the houses the phones sealed come ticked on the
scorer's panel once everyone locked in (RULES.md §2; issue 31)."""

import json
import re

from companion_app.store import reveals as reveal
from tests.seats.helpers import for_sale_at_reveal, houses_of, phone


def test_the_houses_sealed_on_phones_are_ticked_for_the_scorer_after_the_reveal(app, client):
    table = for_sale_at_reveal(app)
    ann, bob = phone(app, table.id, 0), phone(app, table.id, 1)
    sealed = {0: houses_of(app, table.id, 0)[0], 1: houses_of(app, table.id, 1)[-1]}
    for device, seat in ((ann, 0), (bob, 1)):
        device.post(f"/tables/{table.id}/seat/seal", data={"choice": json.dumps(sealed[seat])})
    with app.app_context():
        current = reveal.current(table.id)
        for seat in (2, 3):  # Cid and Dee lock in on the box
            reveal.press(table.id, current.id, seat)
    page = client.get(f"/tables/{table.id}").get_data(as_text=True)
    ticked = re.findall(r'<input type="radio" name="house(\d)" value="(\d+)"[^>]* checked>', page)
    assert sorted((int(seat), int(house)) for seat, house in ticked) == sorted(sealed.items())
