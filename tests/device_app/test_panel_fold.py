"""The box panel on a table page folds to a status line while nothing needs it (issue 14)."""

import re

from companion_app.device.status import get_status

FOLD = re.compile(r'<details class="device-fold" data-testid="device-fold"( open)?>')


def fold_of(client, table_id: str, path: str = "") -> str:
    """ "open" or "folded": how the page draws the panel."""
    page = client.get(f"/tables/{table_id}{path}").get_data(as_text=True)
    found = FOLD.search(page)
    assert found, "the panel has no fold"
    return "open" if found.group(1) else "folded"


def for_sale_table(client) -> str:
    """A 3-player For Sale table at its start."""
    created = client.post("/api/tables", json={"game": "for_sale", "players": ["A", "B", "C"]})
    return created.get_json()["id"]


def test_no_box_and_no_reveal_folds_the_panel(client, device):
    """A Razzia table (its rules never reveal) without a box: one status line."""
    table = device.dealt()
    assert fold_of(client, table["id"]) == "folded"


def test_the_box_page_always_shows_the_whole_panel(client, device):
    """The standalone box page is the panel: never folded."""
    table = device.dealt()
    assert fold_of(client, table["id"], "/box") == "open"


def test_an_armed_reveal_opens_the_panel_until_it_is_revealed_or_disarmed(client, device):
    """Arming shows the seats; once every seat revealed (or a disarm), it folds again."""
    table = device.dealt()
    reveal = device.arm(table["id"], [0, 1])[1]["reveal"]
    assert fold_of(client, table["id"]) == "open"
    for seat in (0, 1):
        device.press(table["id"], reveal["id"], seat)
    assert fold_of(client, table["id"]) == "folded"
    device.arm(table["id"], [0])
    device.disarm(table["id"])
    assert fold_of(client, table["id"]) == "folded"


def test_a_connected_box_opens_the_panel(app, client, device):
    """A box on the serial link: the panel shows what the box shows."""
    table = device.dealt()
    get_status(app).update(mode="serial", connected=True, port="/dev/ttyUSB0")
    assert fold_of(client, table["id"]) == "open"
    get_status(app).update(connected=False)
    assert fold_of(client, table["id"]) == "folded"


def test_for_sale_puts_the_open_panel_beside_the_sale(client):
    """RULES.md §2 selling: the secret choice makes the seat buttons part of the decision."""
    table_id = for_sale_table(client)
    assert fold_of(client, table_id) == "folded"
    state = client.post(
        f"/api/tables/{table_id}/moves", json={"version": 0, "move": {"type": "start", "seat": 0}}
    ).get_json()
    while state["state"]["phase"] in ("buying", "auction"):  # everyone passes every auction
        actions = state["actions"]
        if actions["phase"] == "buying":
            offer = actions["houses"][: actions["count"]]
            state = move(client, state, {"type": "houses", "houses": offer})
        else:
            state = move(client, state, {"type": "pass", "seat": actions["actor"]})
    assert state["state"]["phase"] == "selling"
    state = move(client, state, {"type": "checks", "checks": [0, 2000, 3000]})
    assert state["state"]["phase"] == "reveal"
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    side = page[page.index('<aside class="side">') :]
    assert FOLD.search(side).group(1) == " open"
    assert page.count('data-testid="device-panel"') == 1
    assert re.search(r'<div class="device-seats" data-decision>', side)


def move(client, table: dict, body: dict) -> dict:
    """Post one move at the table's version; it must be accepted."""
    response = client.post(
        f"/api/tables/{table['id']}/moves", json={"version": table["version"], "move": body}
    )
    assert response.status_code == 200, response.get_json()
    return response.get_json()
