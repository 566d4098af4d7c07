"""Rights (docs/security.md): the host, the scorers it lets in, viewers, this computer, the box.

Devices on the LAN are test clients with a LAN address; the Flask test client's default
address is loopback, which is this computer and hosts every table.
"""

import re

import pytest

from companion_app import create_app
from companion_app.server import rights
from tests.app.helpers import PLAYERS, SETS
from tests.lan import device
from tests.results.conftest import play_table

TABLET, PHONE, SECOND_TABLET = "192.168.1.20", "192.168.1.31", "192.168.1.40"
DEAL = {"type": "deal", "sets": SETS}


@pytest.fixture
def tablet(app):
    """The host's tablet."""
    return device(app, TABLET)


@pytest.fixture
def phone(app):
    """A phone that only watches."""
    return device(app, PHONE)


def create_on(client, players=PLAYERS):
    """POST /api/tables from `client`; the created table's JSON (with its keys)."""
    response = client.post("/api/tables", json={"game": "razzia", "players": list(players)})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def move_on(client, table, move, headers=None):
    """POST a move at the table's version; the response."""
    body = {"version": table["version"], "move": move}
    return client.post(f"/api/tables/{table['id']}/moves", json=body, headers=headers or {})


def version_of(app, table_id):
    """The stored version of a table, read as this computer."""
    return app.test_client().get(f"/api/tables/{table_id}").get_json()["version"]


def bearer(key):
    """The Authorization header for `key`."""
    return {"Authorization": f"Bearer {key}"}


def test_the_device_that_creates_a_table_hosts_it(app, tablet):
    """Rights: the creator of a table is its host and can make moves."""
    table = create_on(tablet)
    response = move_on(tablet, table, DEAL)
    assert response.status_code == 200
    assert version_of(app, table["id"]) == 1


def test_a_viewer_cannot_move_undo_or_abandon_and_nothing_changes(app, tablet, phone):
    """Rights: a phone without rights is refused with 403 and a reason; the table is unchanged."""
    table = create_on(tablet)
    table = move_on(tablet, table, DEAL).get_json()
    attempts = [
        phone.post(f"/api/tables/{table['id']}/moves", json={"version": 1, "move": DEAL}),
        phone.post(f"/api/tables/{table['id']}/undo", json={"version": 1}),
        phone.post(f"/api/tables/{table['id']}/abandon", json={}),
        phone.post(f"/tables/{table['id']}/undo", data={"version": "1"}),
        phone.post(f"/tables/{table['id']}/moves", data={"version": "1", "type": "draw"}),
        phone.post(f"/tables/{table['id']}/abandon"),
        phone.post(f"/api/tables/{table['id']}/reveal", json={"seats": [0, 1]}),
        phone.delete(f"/api/tables/{table['id']}/reveal"),
        phone.post(f"/api/tables/{table['id']}/reveal/press", json={"id": 1, "seat": 0}),
        phone.put("/api/device/table", json={"table": table["id"]}),
    ]
    for response in attempts:
        assert response.status_code == 403, (response.request.path, response.status_code)
    for response in attempts:
        if response.request.path.startswith("/api/"):
            assert "host" in response.get_json()["error"]
    assert version_of(app, table["id"]) == 1
    assert app.test_client().get("/api/device/table").get_json()["chosen"] is False
    assert not app.test_client().get(f"/api/tables/{table['id']}").get_json()["abandoned"]


def test_a_viewer_page_has_no_edit_controls(tablet, phone):
    """Rights: the viewer's table and history pages show the state but no move or undo form."""
    table = create_on(tablet)
    move_on(tablet, table, DEAL)
    page = phone.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert 'data-testid="view-only"' in page
    assert f"/tables/{table['id']}/moves" not in page
    assert 'data-role="viewer"' in page
    assert 'data-readonly="1"' in page  # the box panel shows, never presses
    assert 'data-testid="reveal-arm"' not in page and 'data-testid="device-follow"' not in page
    history = phone.get(f"/tables/{table['id']}/history").get_data(as_text=True)
    assert 'data-testid="undo"' not in history
    host_page = tablet.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert f"/tables/{table['id']}/moves" in host_page
    assert 'data-role="host"' in host_page
    assert 'data-testid="reveal-arm"' in host_page and "data-readonly" not in host_page
    assert 'data-testid="scorer-qr"' in host_page


def scorer_link(host_page):
    """The scorer link the host's page shows."""
    found = re.search(r'data-testid="scorer-link">http://[^/]+(/tables/[^<]+)<', host_page)
    assert found, "the host's page shows no scorer link"
    return found.group(1)


def test_the_scorer_link_lets_a_second_device_score(app, tablet):
    """Rights: the host's scorer link (QR) asks, then lets another device make moves."""
    table = create_on(tablet)
    link = scorer_link(tablet.get(f"/tables/{table['id']}").get_data(as_text=True))
    second = device(app, SECOND_TABLET)
    assert move_on(second, table, DEAL).status_code == 403
    asked = second.get(link)
    assert asked.status_code == 200 and 'data-testid="join"' in asked.get_data(as_text=True)
    assert move_on(second, table, DEAL).status_code == 403  # asking alone grants nothing
    joined = second.post(link)
    assert joined.status_code == 303
    assert move_on(second, table, DEAL).status_code == 200
    page = second.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert 'data-role="scorer"' in page and 'data-testid="abandon-link"' not in page
    assert second.post(f"/api/tables/{table['id']}/abandon", json={}).status_code == 403


def test_a_wrong_scorer_link_is_refused(app, tablet, phone):
    """Rights: a made-up key, or another table's key, grants nothing."""
    table = create_on(tablet)
    other = create_on(tablet)
    wrong = rights_key(app, other["id"], rights.SCORER)
    for key in ("made-up", wrong):
        assert phone.get(f"/tables/{table['id']}/join/{key}").status_code == 403
        assert phone.post(f"/tables/{table['id']}/join/{key}").status_code == 403
    assert move_on(phone, table, DEAL).status_code == 403


def rights_key(app, table_id, role):
    """The table's key for `role`, as the app derives it."""
    with app.test_request_context():
        return rights.table_key(table_id, role)


def test_api_keys_give_host_and_scorer_rights(app, tablet):
    """Rights: the API's edit_key hosts the table, scorer_key scores it, any other key fails."""
    table = create_on(tablet)
    api_client = device(app, "192.168.1.50")  # no cookies of the tablet
    assert move_on(api_client, table, DEAL, bearer("nope")).status_code == 403
    assert move_on(api_client, table, DEAL, bearer(table["scorer_key"])).status_code == 200
    path = f"/api/tables/{table['id']}/abandon"
    as_scorer = api_client.post(path, json={}, headers=bearer(table["scorer_key"]))
    assert as_scorer.status_code == 403
    assert api_client.post(path, json={}, headers=bearer(table["edit_key"])).status_code == 200


def test_the_box_bridge_authenticates_with_the_device_key(app, tablet):
    """Rights: the bridge's presses and status need the device key (or this computer)."""
    table = create_on(tablet)
    tablet.post(f"/api/tables/{table['id']}/reveal", json={"seats": [0, 1]})
    bridge = device(app, "192.168.1.60")
    with app.test_request_context():
        key = rights.device_key()
    press = {"id": 1, "seat": 0}
    path = f"/api/tables/{table['id']}/reveal/press"
    assert bridge.post(path, json=press).status_code == 403
    assert bridge.put("/api/device/status", json={"mode": "serial"}).status_code == 403
    assert bridge.post(path, json=press, headers=bearer(key)).status_code == 200
    status = bridge.put("/api/device/status", json={"mode": "serial"}, headers=bearer(key))
    assert status.status_code == 200


def test_this_computer_hosts_every_table_unless_turned_off(tmp_path, tablet):
    """Rights: loopback requests edit (they own the database); LOCAL_IS_HOST=False stops it."""
    table = create_on(tablet)
    assert move_on(tablet.application.test_client(), table, DEAL).status_code == 200
    strict = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "LOCAL_IS_HOST": False}, instance_path=str(tmp_path)
    )
    local = strict.test_client()
    table = create_on(device(strict, TABLET))
    assert move_on(local, table, DEAL).status_code == 403


def test_live_renders_for_viewers_have_no_controls_even_from_this_computer(app):
    """Rights: the app's own view-only renders (live pages) never carry edit controls."""
    table = create_on(app.test_client())
    page = app.test_client().get(
        f"/tables/{table['id']}", environ_overrides={rights.VIEWER_ENVIRON: True}
    )
    assert 'data-testid="view-only"' in page.get_data(as_text=True)


def test_every_write_endpoint_is_guarded(app):
    """Rights: a write endpoint is declared (open, host, box, ...) or has a table to guard."""
    for rule in app.url_map.iter_rules():
        writes = set(rule.methods or ()) - {"GET", "HEAD", "OPTIONS"}
        if not writes or rule.endpoint == "static":
            continue
        policy = rights.policy_of(app, rule.endpoint)
        assert policy != rights.EDIT or "table_id" in rule.arguments, rule.rule


def test_an_undeclared_write_without_a_table_is_refused(app):
    """Rights: the gate refuses a write endpoint nobody declared, even from a trusted device."""
    app.add_url_rule("/made-up", "made_up", lambda: "changed", methods=["POST"])
    assert device(app, TABLET).post("/made-up").status_code == 403


def test_pointing_the_box_needs_rights_on_both_tables(app, tablet):
    """Rights: a host cannot take the box from another table's game in play, pointed at or
    only shown (issue 24: the box belongs to its table); once that game is over it can."""
    first = create_on(tablet)
    other_host = device(app, SECOND_TABLET)
    second = create_on(other_host)
    assert tablet.put("/api/device/table", json={"table": first["id"]}).status_code == 200
    taken = other_host.put("/api/device/table", json={"table": second["id"]})
    assert taken.status_code == 403
    assert app.test_client().get("/api/device/table").get_json()["table"] == first["id"]
    assert tablet.put("/api/device/table", json={"table": None}).status_code == 200
    taken = other_host.put("/api/device/table", json={"table": second["id"]})
    assert taken.status_code == 403  # the box still shows the first game, in play
    assert tablet.post(f"/api/tables/{first['id']}/abandon", json={}).status_code == 200
    assert other_host.put("/api/device/table", json={"table": second["id"]}).status_code == 200


def test_abandoned_tables_leave_the_lists_and_take_no_moves(app, tablet):
    """Abandon: the host gives up a table; it leaves home and the API list, moves get 409."""
    table = create_on(tablet)
    asked = tablet.get(f"/tables/{table['id']}/abandon")
    assert 'data-testid="abandon"' in asked.get_data(as_text=True)
    assert tablet.post(f"/tables/{table['id']}/abandon").status_code == 303
    listed = [t["id"] for t in tablet.get("/api/tables").get_json()["tables"]]
    assert table["id"] not in listed
    assert table["id"] not in tablet.get("/").get_data(as_text=True)
    refused = move_on(tablet, table, DEAL)
    assert refused.status_code == 409 and "abandoned" in refused.get_json()["error"]
    assert tablet.get(f"/api/tables/{table['id']}").get_json()["abandoned"] is True
    page = tablet.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert 'data-testid="abandoned"' in page


def test_a_finished_game_cannot_be_abandoned(app):
    """Abandon: finished results are kept (the request is refused with the reason)."""
    table_id = play_table(app)
    response = app.test_client().post(f"/api/tables/{table_id}/abandon", json={})
    assert response.status_code == 400 and "finished" in response.get_json()["error"]


def test_abandoned_games_stay_out_of_results_and_statistics(app):
    """Abandon: an unfinished table given up is not in the games archive or history.csv."""
    kept = play_table(app)
    dropped = play_table(app, rounds=1)
    local = app.test_client()
    assert local.post(f"/api/tables/{dropped}/abandon", json={}).status_code == 200
    archive = local.get("/history").get_data(as_text=True)
    csv = local.get("/history.csv").get_data(as_text=True)
    assert dropped not in archive and dropped not in csv
    assert kept in archive or kept in csv


def test_companion_device_key_prints_the_key_the_app_accepts(tmp_path, capsys):
    """Rights: `companion device key` gives the key a bridge on another computer must send."""
    from companion_app.cli import main

    assert main(["device", "key", "--instance", str(tmp_path)]) == 0
    key = capsys.readouterr().out.strip()
    app = create_app({"TESTING": True}, instance_path=str(tmp_path))  # the instance's own key
    bridge = device(app, "192.168.1.60")
    status = bridge.put("/api/device/status", json={"mode": "serial"}, headers=bearer(key))
    assert status.status_code == 200
    assert bridge.put("/api/device/status", json={"mode": "serial"}).status_code == 403


def test_a_browser_forgets_its_oldest_tables_first(app, tablet):
    """Rights: the cookie keeps the most recent MAX_REMEMBERED tables, in the order created."""
    app.config["TABLES_PER_DEVICE"] = rights.MAX_REMEMBERED + 2  # past the new-table limit
    tables = [create_on(tablet) for _ in range(rights.MAX_REMEMBERED + 2)]
    refused = [move_on(tablet, table, DEAL).status_code for table in tables[:3]]
    assert refused == [403, 403, 200]  # the two oldest are forgotten, the third is kept
    assert move_on(tablet, tables[-1], DEAL).status_code == 200
