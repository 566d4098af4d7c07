"""Organiser and device keys revocable one at a time (issue 33 item 10, docs/security.md).

Each key issued has a row (store/access_keys.py) and carries its id; the organiser's club page
lists the devices let in with a Revoke button each. Loopback is this computer (the organiser);
other devices are test clients with a LAN address.
"""

import re

from companion_app.cli import main
from companion_app.server import rights
from companion_app.store import access_keys, db
from tests.lan import device

BRIDGE, PHONE, ORGANISER_PHONE = "192.168.1.60", "192.168.1.31", "192.168.1.44"
EN = {"Accept-Language": "en"}
REVOKED = "The club's organiser revoked this key; ask the organiser for a new one."
STATUS = {"mode": "serial"}


def bearer(key):
    """The Authorization header for `key`."""
    return {"Authorization": f"Bearer {key}"}


def issue(app, kind, name):
    """Issue a key of `kind` to `name` as the server does; the key."""
    with app.test_request_context():
        return rights.issue_key(kind, name)


def key_id(key):
    """The row id a key carries."""
    return int(key.split(".", 1)[0])


def row(app, number):
    """A key's stored row."""
    with app.app_context():
        return access_keys.get(db.get_db(), number)


def status_with(app, key):
    """The box bridge's status report sent with `key` from the LAN; the response."""
    return device(app, BRIDGE).put("/api/device/status", json=STATUS, headers=bearer(key))


def revoke(client, number, **form):
    """POST the Revoke button of key `number` from `client`; the response."""
    return client.post(f"/club/keys/{number}/revoke", data=form, headers=EN)


def listed(app):
    """{key id: state} of the organiser's list on this computer's club page."""
    page = app.test_client().get("/club", headers=EN).get_data(as_text=True)
    return {int(i): s for i, s in re.findall(r'data-key="(\d+)" data-state="(\w+)"', page)}


def organiser_link(app):
    """The path of the organiser link this computer's club page shows."""
    page = app.test_client().get("/club", headers=EN).get_data(as_text=True)
    link = re.search(r'href="http://[^/]+(/club/organiser/[^"]+)"', page)
    return link.group(1)


def test_two_device_keys_one_revoked_the_other_still_works(app):
    """Item 10: revoking one bridge's key leaves the other's; the revoked one gets 403 and a
    sentence on reads and writes; the list shows both with their state."""
    first, second = issue(app, "device", "Box A"), issue(app, "device", "Box B")
    assert status_with(app, first).status_code == status_with(app, second).status_code == 200
    assert revoke(app.test_client(), key_id(first)).status_code == 303
    refused = status_with(app, first)
    assert refused.status_code == 403 and refused.get_json()["error"] == REVOKED
    read = device(app, BRIDGE).get("/api/device/check", headers=bearer(first))
    assert read.status_code == 403 and read.get_json()["error"] == REVOKED
    assert status_with(app, second).status_code == 200
    states = listed(app)
    assert states[key_id(first)] == "revoked" and states[key_id(second)] == "active"
    page = app.test_client().get("/club", headers=EN).get_data(as_text=True)
    assert "Box A" in page and "Box B" in page and "last seen" in page
    assert row(app, key_id(second)).seen_at is not None  # its use was noted


def test_a_device_let_in_as_organiser_is_revoked_alone(app):
    """Item 10: each browser that takes the organiser link gets its own key; revoking it ends
    its organiser rights, not the others'."""
    link = organiser_link(app)
    eva, jan = device(app, ORGANISER_PHONE), device(app, PHONE)
    assert eva.post(link, data={"name": "Eva's phone"}).status_code == 303
    assert jan.post(link, data={"name": "Jan's tablet"}).status_code == 303
    with eva.session_transaction() as session:
        eva_key = session[rights.ORGANISER_SESSION_KEY]
    assert eva.post("/club/tablets", data={"name": "T1"}).status_code == 303
    page = app.test_client().get("/club", headers=EN).get_data(as_text=True)
    assert "Eva&#39;s phone" in page and "Jan&#39;s tablet" in page
    assert revoke(app.test_client(), eva_key).status_code == 303
    assert eva.post("/club/tablets", data={"name": "T2"}).status_code == 403
    assert jan.post("/club/tablets", data={"name": "T3"}).status_code == 303
    assert listed(app)[eva_key] == "revoked"


def test_an_organiser_key_sent_as_bearer_is_revocable(app):
    """Item 10: an organiser key for a script works until revoked, then 403 with the sentence."""
    key = issue(app, "organiser", "Results script")
    script = device(app, PHONE)
    assert script.post("/club/tablets", data={"name": "T"}, headers=bearer(key)).status_code == 303
    assert revoke(app.test_client(), key_id(key)).status_code == 303
    refused = script.post("/club/tablets", data={"name": "U"}, headers=bearer(key))
    assert refused.status_code == 403 and "revoked this key" in refused.get_data(as_text=True)


def test_revoking_the_key_this_browser_uses_asks_first(app):
    """Item 10: the organiser's own key is revoked only after a confirm page."""
    eva = device(app, ORGANISER_PHONE)
    assert eva.post(organiser_link(app), data={"name": "Eva"}).status_code == 303
    with eva.session_transaction() as session:
        own = session[rights.ORGANISER_SESSION_KEY]
    asked = revoke(eva, own)
    assert asked.status_code == 200 and 'data-testid="revoke-own-key"' in asked.get_data(True)
    assert row(app, own).active
    assert revoke(eva, own, confirm="yes").status_code == 303
    assert not row(app, own).active
    assert eva.post("/club/tablets", data={"name": "T"}).status_code == 403


def test_only_the_organiser_revokes_keys(app):
    """Item 10: a device without organiser rights gets 403 and nothing changes."""
    key = issue(app, "device", "Box A")
    refused = revoke(device(app, PHONE), key_id(key))
    assert refused.status_code == 403
    assert row(app, key_id(key)).active and status_with(app, key).status_code == 200
    bridge = device(app, BRIDGE)  # the box's key is no organiser key either
    assert bridge.post(f"/club/keys/{key_id(key)}/revoke", headers=bearer(key)).status_code == 403


def test_a_bad_key_id_changes_nothing(app):
    """Item 10: an unknown id is 400 with a sentence, a malformed one 404; no row changes."""
    key = issue(app, "device", "Box A")
    local = app.test_client()
    unknown = revoke(local, 999)
    assert unknown.status_code == 400 and "There is no such key." in unknown.get_data(True)
    assert local.post("/club/keys/abc/revoke").status_code == 404
    assert local.post("/club/keys/-1/revoke").status_code == 404
    assert all(state == "active" for state in listed(app).values())
    assert status_with(app, key).status_code == 200
    forged = f"{key_id(key)}.{'A' * 22}"  # its id with a made-up secret part
    assert status_with(app, forged).status_code == 403
    assert row(app, key_id(key)).active


def test_the_keys_from_before_work_until_revoked_as_a_group(app):
    """Item 10: the derived box key and organiser link from before keep working; each group
    is one line of the list, and revoking it stops every copy (the link gets a new key)."""
    with app.test_request_context():
        old_device, old_link = rights.device_key(), rights.organiser_key()
    assert status_with(app, old_device).status_code == 200
    old_browser = device(app, ORGANISER_PHONE)
    with old_browser.session_transaction() as session:
        session[rights.ORGANISER_SESSION_KEY] = True  # as the old link granted it
    assert old_browser.post("/club/tablets", data={"name": "T"}).status_code == 303
    assert set(listed(app)) == {access_keys.LEGACY_DEVICE, access_keys.LEGACY_ORGANISER}
    local = app.test_client()
    assert revoke(local, access_keys.LEGACY_DEVICE).status_code == 303
    assert revoke(local, access_keys.LEGACY_ORGANISER).status_code == 303
    refused = status_with(app, old_device)
    assert refused.status_code == 403 and refused.get_json()["error"] == REVOKED
    assert old_browser.post("/club/tablets", data={"name": "U"}).status_code == 403
    assert device(app, PHONE).get(f"/club/organiser/{old_link}").status_code == 403
    new_link = organiser_link(app)
    assert old_link not in new_link
    newcomer = device(app, PHONE)
    assert newcomer.post(new_link).status_code == 303
    assert newcomer.post("/club/tablets", data={"name": "V"}).status_code == 303


def test_a_revoked_key_counts_as_a_wrong_guess(app):
    """Item 10: presenting a revoked key is slowed like any wrong key (429 past the free ones);
    a key in force never is."""
    app.config.update(KEY_FREE_GUESSES=2, KEY_GUESS_EVERY_S=60)
    kept, gone = issue(app, "device", "Box A"), issue(app, "device", "Box B")
    assert revoke(app.test_client(), key_id(gone)).status_code == 303
    assert [status_with(app, gone).status_code for _ in range(3)] == [403, 403, 429]
    other = device(app, "192.168.1.61")
    for _ in range(4):
        assert other.put("/api/device/status", json=STATUS, headers=bearer(kept)).status_code == 200


def test_companion_device_key_issues_revocable_keys(tmp_path, capsys):
    """Item 10: `companion device key` prints the same key until it is revoked; `--new NAME`
    issues another, and both appear on the organiser's list."""
    from companion_app import create_app

    assert main(["device", "key", "--instance", str(tmp_path)]) == 0
    first = capsys.readouterr().out.strip()
    assert main(["device", "key", "--instance", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == first
    assert main(["device", "key", "--instance", str(tmp_path), "--new", "Box 2"]) == 0
    second = capsys.readouterr().out.strip()
    assert second != first
    app = create_app({"TESTING": True}, instance_path=str(tmp_path))
    assert status_with(app, first).status_code == status_with(app, second).status_code == 200
    assert revoke(app.test_client(), key_id(first)).status_code == 303
    assert status_with(app, first).status_code == 403
    assert main(["device", "key", "--instance", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == second  # the newest one in force


def test_a_revoked_key_s_long_poll_is_refused_at_once(tmp_path):
    """Item 10: the server front does not hold a poll sent with a revoked key: 403 and the
    sentence at once; the key still in force is answered as before."""
    from tests.app.test_room import BRIDGE as LOOPBACK_BRIDGE
    from tests.app.test_room import make_app, request
    from tests.live import served

    app = make_app(tmp_path, DEVICE_LONG_POLL_S=600)  # held, it would outlast the GUARD_S wait
    kept, gone = issue(app, "device", "Box A"), issue(app, "device", "Box B")
    with app.app_context():
        conn = db.get_db()
        with db.write_transaction(conn):
            access_keys.revoke(conn, key_id(gone), "2026-12-06T20:00:00+00:00")
    with served(app) as server:
        status, _, found = request(server.port, LOOPBACK_BRIDGE, "GET", "/api/device")
        assert status == 200
        path = f"/api/device?wait={found['etag']}"
        status, _, refused = request(server.port, LOOPBACK_BRIDGE, "GET", path, None, bearer(gone))
        assert (status, refused["error"]) == (403, REVOKED)
        status, _, _ = request(
            server.port, LOOPBACK_BRIDGE, "GET", "/api/device", None, bearer(kept)
        )
        assert status == 200


def test_the_revoked_key_sentence_is_in_czech_too(app):
    """Item 10: on a page the refusal speaks the device's language (the API's JSON is English,
    as for every refusal made before a view runs)."""
    key = issue(app, "organiser", "Script")
    assert revoke(app.test_client(), key_id(key)).status_code == 303
    refused = device(app, PHONE).get("/club", headers={**bearer(key), "Accept-Language": "cs"})
    assert refused.status_code == 403
    assert "Organizátor klubu tento klíč odvolal; požádejte ho o nový." in refused.get_data(True)


def test_companion_organiser_key_issues_a_script_key(tmp_path, capsys):
    """Item 10: `companion organiser key --name NAME` issues an organiser key for a script,
    listed by its name and revocable on its own."""
    from companion_app import create_app

    assert main(["device", "key", "--instance", str(tmp_path)]) == 0  # a used folder
    capsys.readouterr()
    assert main(["organiser", "key", "--instance", str(tmp_path), "--name", "Results"]) == 0
    key = capsys.readouterr().out.strip()
    app = create_app({"TESTING": True}, instance_path=str(tmp_path))
    script = device(app, PHONE)
    assert script.post("/club/tablets", data={"name": "T"}, headers=bearer(key)).status_code == 303
    assert row(app, key_id(key)).name == "Results"
    assert revoke(app.test_client(), key_id(key)).status_code == 303
    assert script.post("/club/tablets", data={"name": "U"}, headers=bearer(key)).status_code == 403
