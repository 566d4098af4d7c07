"""The reveal gate of the store: a game with `reveal_seats` gets its reveals armed and waited for.

For Sale (docs/games/for_sale.md): entering a selling round's checks arms a reveal for every
seat still holding houses, in the move's own transaction; the move entering the revealed
houses is refused until every armed seat has locked in (box or screen), through the JSON API
and the web form alike.
"""

import pytest

from scoring import for_sale
from tests.device_app.helpers import DeviceApi
from tests.scoring.for_sale_play import IN_ORDER, NAMES, buying_moves

CHECKS = [0, 13000, 12000]


def post(device: DeviceApi, table: dict, move: dict) -> tuple[int, dict]:
    """POST one move at the table's version: (status, body)."""
    body = {"version": table["version"], "move": move}
    return device.call("POST", f"/api/tables/{table['id']}/moves", body)


@pytest.fixture
def selling(device) -> dict:
    """A 3-player For Sale table at the start of the selling phase (hands 1-30 in order)."""
    status, table = device.call("POST", "/api/tables", {"game": "for_sale", "players": NAMES})
    assert status == 201, table
    for move in buying_moves(NAMES, 0, IN_ORDER):
        table = device.move(table, move)
    assert table["state"]["phase"] == "selling"
    return table


def lowest(table: dict) -> dict:
    """The sale where everyone reveals their lowest house."""
    return {"type": "sell", "houses": [p["houses"][0] for p in table["state"]["players"]]}


def test_entering_the_checks_arms_a_reveal_for_every_seat_holding_houses(device, selling):
    """No reveal during the buying; the checks move arms seats 0-2, nobody locked."""
    assert device.view(selling["id"])[1]["reveal"] is None
    after = device.move(selling, {"type": "checks", "checks": CHECKS})
    assert for_sale.reveal_seats(after["state"]) == [0, 1, 2]
    reveal = device.view(selling["id"])[1]["reveal"]
    assert reveal == {"id": 1, "seats": [0, 1, 2], "locked": [], "revealed": False}


def test_houses_are_refused_until_everyone_has_locked_in(device, selling):
    """The sale before all locks: 4xx naming who is missing, nothing stored; then accepted."""
    table = device.move(selling, {"type": "checks", "checks": CHECKS})
    status, body = post(device, table, lowest(table))
    assert status == 400
    assert body["error"] == "Not everyone has locked in yet: waiting for Filip, Valerie, Jiří."
    device.press(table["id"], 1, 1)
    status, body = post(device, table, lowest(table))
    assert body["error"] == "Not everyone has locked in yet: waiting for Filip, Jiří."
    assert device.call("GET", f"/api/tables/{table['id']}")[1]["version"] == table["version"]
    device.press(table["id"], 1, 0)
    device.press(table["id"], 1, 2)
    after = device.move(table, lowest(table))
    assert [p["checks"] for p in after["state"]["players"]] == [[0], [12000], [13000]]


def test_a_reveal_for_other_seats_does_not_open_the_gate(device, selling):
    """A reveal that leaves a choosing seat out cannot open the gate: nobody counts as locked."""
    table = device.move(selling, {"type": "checks", "checks": CHECKS})
    device.arm(table["id"], [0, 1])
    device.press(table["id"], 2, 0)
    device.press(table["id"], 2, 1)
    status, body = post(device, table, lowest(table))
    assert status == 400 and "waiting for Filip, Valerie, Jiří" in body["error"]


def test_every_selling_round_arms_a_fresh_reveal(device, selling):
    """The second round's checks arm reveal 2, though the same seats choose again."""
    table = device.move(selling, {"type": "checks", "checks": CHECKS})
    for seat in range(3):
        device.press(table["id"], 1, seat)
    table = device.move(table, lowest(table))
    table = device.move(table, {"type": "checks", "checks": [2000, 3000, 4000]})
    assert device.view(table["id"])[1]["reveal"]["id"] == 2
    status, _body = post(device, table, lowest(table))
    assert status == 400


def test_undo_keeps_a_matching_reveal_and_disarms_one_without_a_choice(device, selling):
    """Undoing the sale returns to the locked-in reveal; undoing the checks disarms it."""
    table = device.move(selling, {"type": "checks", "checks": CHECKS})
    for seat in range(3):
        device.press(table["id"], 1, seat)
    table = device.move(table, lowest(table))
    undo = f"/api/tables/{table['id']}/undo"
    status, table = device.call("POST", undo, {"version": table["version"]})
    assert status == 200 and table["state"]["phase"] == "reveal"
    assert device.view(table["id"])[1]["reveal"]["revealed"] is True
    status, table = device.call("POST", undo, {"version": table["version"]})
    assert status == 200 and table["state"]["phase"] == "selling"
    assert device.view(table["id"])[1]["reveal"] is None
    table = device.move(table, {"type": "checks", "checks": CHECKS})
    assert device.view(table["id"])[1]["reveal"]["id"] == 2


def test_a_refused_move_arms_nothing(device, selling):
    """Arming shares the move's transaction: a refused checks move leaves no reveal."""
    status, _body = post(device, selling, {"type": "checks", "checks": [1000, 2000, 3000]})
    assert status == 400
    status, _body = post(device, {**selling, "version": 0}, {"type": "checks", "checks": CHECKS})
    assert status == 409
    assert device.view(selling["id"])[1]["reveal"] is None


def test_the_web_form_goes_through_the_same_gate(client, device, selling):
    """The table page's sale form is refused with the same sentence next to its panel."""
    table = device.move(selling, {"type": "checks", "checks": CHECKS})
    form = {"type": "sell", "version": str(table["version"])}
    form.update(
        {f"house{seat}": str(p["houses"][0]) for seat, p in enumerate(table["state"]["players"])}
    )
    page = client.post(f"/tables/{table['id']}/moves", data=form, follow_redirects=True)
    assert "waiting for Filip, Valerie, Jiří" in page.get_data(as_text=True)
    assert device.call("GET", f"/api/tables/{table['id']}")[1]["version"] == table["version"]


def test_games_without_the_hook_are_not_gated(device):
    """Razzia has no reveal_seats: an armed, unpressed reveal does not hold its moves."""
    table = device.table()
    device.arm(table["id"], [0, 1])
    device.move(table, {"type": "deal", "sets": ["A", "B", "C", "D"]})


def test_a_disarmed_reveal_is_recovered_with_the_panels_arm_button(device, client, selling):
    """Someone taps Disarm mid-round: the sale waits; the panel's Arm button arms exactly the
    seats choosing (not a guess at every seat), and once they lock in the sale goes through."""
    table = device.move(selling, {"type": "checks", "checks": CHECKS})
    device.disarm(table["id"])
    status, body = post(device, table, lowest(table))
    assert status == 400 and "waiting for Filip, Valerie, Jiří" in body["error"]
    page = client.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert 'data-arm-seats="0,1,2"' in page
    assert "Arm the reveal for the players choosing" in page
    status, view = device.arm(table["id"], [0, 1, 2])
    for seat in (0, 1, 2):
        device.press(table["id"], view["reveal"]["id"], seat)
    assert post(device, table, lowest(table))[0] == 200


def test_a_reveal_armed_for_more_seats_counts_once_the_choosing_seats_locked_in(device, selling):
    """The gate waits for the seats choosing; extra armed seats do not hold the sale up."""
    table = device.move(selling, {"type": "checks", "checks": CHECKS})
    status, view = device.arm(table["id"], [0, 1, 2, 3, 4, 5][: len(NAMES)])
    for seat in (0, 1, 2):
        device.press(table["id"], view["reveal"]["id"], seat)
    assert post(device, table, lowest(table))[0] == 200


def test_without_a_pending_choice_the_arm_button_arms_every_seat(client, device):
    """Razzia! has no simultaneous choice: the panel arms all seats at the table."""
    status, table = device.call("POST", "/api/tables", {"game": "razzia", "players": NAMES})
    page = client.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert 'data-arm-seats="0,1,2"' in page and "Arm reveal for all seats" in page
