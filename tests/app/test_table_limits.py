"""New tables with limits (issue 24, item 4): a per-device rate limit with a 429 sentence, the
home page in pages, and tables nobody moved on for a day falling out of it (kept, restorable
by their host). Devices on the LAN are test clients with a LAN address; this computer
(loopback) is never limited."""

import re
from datetime import UTC, datetime, timedelta

from companion_app.store import db

PLAYERS = ["Ann", "Bob", "Cid"]
STRANGER, HOST, PHONE = "192.168.1.66", "192.168.1.20", "192.168.1.31"


def from_address(app, address):
    """A test client that comes from `address` on the LAN and keeps its cookies."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def create(client, players=PLAYERS):
    """POST /api/tables; the response."""
    return client.post("/api/tables", json={"game": "razzia", "players": list(players)})


def count_tables(app) -> int:
    """Tables in the database, read as this computer."""
    return len(app.test_client().get("/api/tables").get_json()["tables"])


def test_a_device_past_its_share_of_new_tables_gets_429_and_nothing_is_made(app):
    """The eleventh table within an hour from one device: 429 with a sentence saying when it
    may start another and Retry-After; no table is made. Another device still starts one."""
    stranger = from_address(app, STRANGER)
    assert [create(stranger).status_code for _ in range(10)] == [201] * 10
    refused = create(stranger)
    assert refused.status_code == 429
    sentence = refused.get_json()["error"]
    assert "10 tables within an hour" in sentence
    assert re.search(r"start another at \d\d:\d\d", sentence)
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert set(refused.get_json()) == {"error"}
    assert count_tables(app) == 10
    assert create(from_address(app, HOST)).status_code == 201
    assert create(app.test_client()).status_code == 201  # this computer is never limited


def test_the_limit_is_counted_per_ipv6_network(app):
    """Two privacy addresses of one phone (one /64) share its limit."""
    app.config["TABLES_PER_DEVICE"] = 2
    assert create(from_address(app, "2001:db8:1:2::a")).status_code == 201
    assert create(from_address(app, "2001:db8:1:2::b")).status_code == 201
    assert create(from_address(app, "2001:db8:1:2::c")).status_code == 429
    assert create(from_address(app, "2001:db8:1:3::a")).status_code == 201


def test_the_new_table_form_shows_the_limit_next_to_the_names_in_czech(app):
    """The web form refuses with 429 and the translated sentence next to the names."""
    app.config["TABLES_PER_DEVICE"] = 1
    tablet = from_address(app, HOST)
    form = {"player": PLAYERS}
    assert tablet.post("/tables/new/razzia", data=form).status_code == 303
    tablet.post("/lang", data={"lang": "cs", "next": "/"})
    page = tablet.post("/tables/new/razzia", data=form)
    assert page.status_code == 429
    html = page.get_data(as_text=True)
    assert 'data-error="players"' in html and "Toto zařízení založilo během hodiny" in html
    assert count_tables(app) == 1


def age(app, table_id: str, days: float) -> None:
    """Make a table look untouched for `days`."""
    moment = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="microseconds")
    with app.app_context():
        conn = db.get_db()
        conn.execute(
            "UPDATE tables SET created_at = ?, updated_at = ? WHERE id = ?",
            (moment, moment, table_id),
        )


def listed(client) -> set[str]:
    """Table ids the home page lists under "Resume a game"."""
    page = client.get("/").get_data(as_text=True)
    playing = (
        page.split('data-testid="playing"', 1)[1].split("</ul>", 1)[0]
        if ('data-testid="playing"' in page)
        else ""
    )
    return set(re.findall(r'data-table="(\w+)"', playing))


def test_a_day_old_table_nobody_moved_on_leaves_home_and_its_host_restores_it(app):
    """A table never moved for a day is not listed (it is kept: its page still opens); its
    host sees it under "Put aside" and restores it; a viewer cannot."""
    host, phone = from_address(app, HOST), from_address(app, PHONE)
    spam = create(host).get_json()
    kept = create(host).get_json()
    moved = host.post(
        f"/api/tables/{kept['id']}/moves",
        json={"version": 0, "move": {"type": "deal", "sets": ["A", "B", "C"]}},
    )
    assert moved.status_code == 200
    age(app, spam["id"], 1.5)
    age(app, kept["id"], 3)  # old too, but it got a move: it stays
    assert listed(phone) == {kept["id"]}
    assert phone.get(f"/tables/{spam['id']}").status_code == 200  # kept
    home = host.get("/").get_data(as_text=True)
    assert 'data-testid="aside"' in home and spam["id"] in home.split('data-testid="aside"')[1]
    assert 'data-testid="aside"' not in phone.get("/").get_data(as_text=True)
    assert phone.post(f"/tables/{spam['id']}/restore").status_code == 403
    assert host.post(f"/tables/{spam['id']}/restore").status_code == 303
    assert listed(phone) == {kept["id"], spam["id"]}


def test_the_api_restores_for_the_host_only(app):
    """POST /api/tables/<id>/restore is host-only, like abandon."""
    host = from_address(app, HOST)
    table = create(host).get_json()
    age(app, table["id"], 2)
    refused = from_address(app, PHONE).post(f"/api/tables/{table['id']}/restore", json={})
    assert refused.status_code == 403 and refused.get_json()["error"]
    restored = host.post(
        f"/api/tables/{table['id']}/restore",
        json={},
        headers={"Authorization": f"Bearer {table['edit_key']}"},
    )
    assert restored.status_code == 200
    assert listed(from_address(app, PHONE)) == {table["id"]}


def test_home_lists_tables_in_pages(app):
    """45 tables in play: three pages of at most 20, newest first, with links between them;
    a page past the last shows the last, and nonsense shows the first."""
    for _ in range(45):
        assert create(app.test_client()).status_code == 201
    phone = from_address(app, PHONE)
    first, second, third = (
        listed(phone),
        *(
            set(
                re.findall(
                    r'data-table="(\w+)"',
                    phone.get(f"/?page={n}")
                    .get_data(as_text=True)
                    .split('data-testid="playing"')[1]
                    .split("</ul>")[0],
                )
            )
            for n in (2, 3)
        ),
    )
    assert (len(first), len(second), len(third)) == (20, 20, 5)
    assert not (first & second) and not (second & third)
    page = phone.get("/?page=2").get_data(as_text=True)
    assert "Page 2 of 3" in page and 'rel="prev"' in page and 'rel="next"' in page
    assert "Page 3 of 3" in phone.get("/?page=99").get_data(as_text=True)
    assert "Page 1 of 3" in phone.get("/?page=x%00").get_data(as_text=True)


def test_the_devices_together_are_bounded_too_but_this_computer_and_the_organiser_never(app):
    """Issue 33 item 5: many addresses, each within its own share, stop at the server's share
    (429, a sentence and Retry-After; nothing made); this computer and the organiser start
    tables all the same, and their tables take nothing of the devices' share."""
    from companion_app.server import rights

    app.config["TABLES_PER_SERVER"] = 3
    phones = [from_address(app, f"192.168.1.{40 + number}") for number in range(4)]
    assert [create(phone).status_code for phone in phones[:3]] == [201] * 3
    refused = create(phones[3])
    assert refused.status_code == 429
    sentence = refused.get_json()["error"]
    assert "The devices in the room have started 3 tables within an hour" in sentence
    assert re.search(r"can start at \d\d:\d\d", sentence)
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert count_tables(app) == 3
    assert create(app.test_client()).status_code == 201  # this computer
    with app.test_request_context():
        key = rights.organiser_key()
    organiser = from_address(app, "192.168.1.99")
    made = organiser.post(
        "/api/tables",
        json={"game": "razzia", "players": PLAYERS},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert made.status_code == 201
    assert create(phones[3]).status_code == 429  # still full for the devices
    phones[3].post("/lang", data={"lang": "cs", "next": "/"})
    page = phones[3].post("/tables/new/razzia", data={"player": PLAYERS})
    assert page.status_code == 429
    assert "Zařízení v sále založila během hodiny tolik stolů: 3" in page.get_data(as_text=True)


def test_the_table_list_of_the_api_comes_in_pages(app, monkeypatch):
    """Issue 33 item 5: `GET /api/tables?page=N`, a fixed number a page, the next page named
    in a Link header; a page that is not a whole number from 1 is a 400 with a sentence."""
    from companion_app.api import tables as api_tables

    monkeypatch.setattr(api_tables, "API_PAGE_SIZE", 2)
    client = app.test_client()
    made = [create(client).get_json()["id"] for _ in range(5)]
    seen, link, page = [], None, 1
    while True:
        answer = client.get(f"/api/tables?page={page}")
        assert answer.status_code == 200 and len(answer.get_json()["tables"]) <= 2
        seen += [row["id"] for row in answer.get_json()["tables"]]
        link = answer.headers.get("Link")
        if link is None:
            break
        assert link == f'</api/tables?page={page + 1}>; rel="next"'
        page += 1
    assert page == 3 and seen == made[::-1]  # most recent first, each once
    assert (
        client.get("/api/tables").get_json()["tables"]
        == client.get("/api/tables?page=1").get_json()["tables"]
    )
    for bad in ("0", "x", "-1", "9999999"):
        refused = client.get(f"/api/tables?page={bad}")
        assert (
            refused.status_code == 400
            and "page must be a whole number" in refused.get_json()["error"]
        )
    assert client.get("/api/tables?page=9").get_json() == {"tables": []}
