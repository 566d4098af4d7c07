"""The box belongs to its table (issue 24, item 3): the panel says which table the box shows
and who may move it."""

import re

from tests import lan


def owner_line(client, table_id: str) -> tuple[str, str]:
    """(state, sentence) of the panel's line about the box on the table page."""
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    found = re.search(r'data-testid="device-owner" data-state="(\w+)">([^<]*)<', page)
    assert found, "the panel has no line about the box"
    return found.group(1), found.group(2)


def test_the_panel_says_which_table_the_box_shows_and_who_may_move_it(client, device):
    """The table the box shows says so; another table names the game and players the box
    shows and says only that table's host, scorers or this computer may move it."""
    shown = device.dealt()
    other = device.dealt(["Eva", "Filip", "Gita"])
    state, line = owner_line(client, shown["id"])
    assert state == "this" and line.startswith("The box shows this table")
    state, line = owner_line(client, other["id"])
    assert state == "other"
    assert "Razzia!" in line and "Ann, Bob, Cid, Dee" in line and "host" in line


def test_when_no_game_is_in_play_on_the_box_the_panel_says_this_table_may_take_it(client, device):
    """The game the box showed was abandoned: any table's host or scorers may show theirs."""
    shown = device.dealt()
    other = device.dealt(["Eva", "Filip", "Gita"])
    assert client.post(f"/api/tables/{shown['id']}/abandon", json={}).status_code == 200
    state, line = owner_line(client, other["id"])
    assert state == "free" and "no game in play" in line


def test_the_panel_line_is_in_czech_too(client, device):
    """The sentence is translated (the player's words)."""
    table = device.dealt()
    client.post("/lang", data={"lang": "cs", "next": "/"})
    state, line = owner_line(client, table["id"])
    assert state == "this" and line.startswith("Krabička ukazuje tento stůl")


def follow_button(client, table_id: str) -> tuple[str, str]:
    """(the follow button's tag, the reason beside it) on the table page."""
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    button = re.search(r'<button type="button" class="device-follow"[^>]*>', page)
    reason = re.search(r'data-testid="device-follow-refused"([^>]*)>([^<]*)<', page)
    assert button and reason
    return button.group(0), ("" if "hidden" in reason.group(1) else reason.group(2))


def test_show_on_the_box_is_disabled_with_its_reason_where_the_box_cannot_come(app, client, device):
    """Issue 32 item 7: on a tablet that does not host the box's table, "Show on the box" did
    nothing and said nothing; it is disabled, the reason beside it. This computer may."""
    device.dealt()  # this computer's game in play: the box shows it
    tablet = lan.device(app, "192.168.1.20")
    created = tablet.post("/api/tables", json={"game": "razzia", "players": ["Eva", "Filip"]})
    own = created.get_json()["id"]
    button, reason = follow_button(tablet, own)
    assert " disabled" in button and f'aria-describedby="device-follow-refused-{own}"' in button
    assert reason.startswith("You cannot show this table on the box here")
    assert tablet.put("/api/device/table", json={"table": own}).status_code == 403  # as before
    button, reason = follow_button(client, own)  # this computer moves the box anywhere
    assert " disabled" not in button and reason == ""
    tablet.post("/lang", data={"lang": "cs", "next": "/"})
    _button, reason = follow_button(tablet, own)
    assert reason and not reason.startswith("You cannot")  # in Czech too
