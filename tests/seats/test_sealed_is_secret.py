"""Before the last seal, no answer to anyone shows a sealed choice (issue 31 item 2).

Two worlds play the same For Sale game to the same selling reveal; they differ only in the
house Ann sealed on her phone. Every other client (this computer as host, a scorer, a viewer,
the other seats' phones) then asks for every page and API answer there is: tables, history,
box page, results, export, printouts, QR codes, the API's table, history and device feed,
/room, the lists and the live pushes. Each answer, with the table id, keys, times and QR
pictures set aside, must be the same in both worlds: nothing anyone is shown depends on what
Ann sealed. Ann's own seat page is the one answer that does.
"""

import json
import re

import pytest

from companion_app import create_app
from companion_app.server import rights
from companion_app.server.live.pages import ROOM_KEY, render
from companion_app.store import get_store, seats
from tests.lan import device
from tests.seats.helpers import for_sale_at_reveal, houses_of, phone

PAPERS = ("a4", "letter", "80mm", "58mm")
#: Times: ISO text, clock times and the device feed's milliseconds since 1970.
TIMES = re.compile(
    r"\d{4}-\d\d-\d\dT[\d:.]+(\+00:00|Z)?|\b\d{1,2}:\d\d(:\d\d)?\b|\b1\d{12}(\.\d+)?\b"
)
_SVG = re.compile(r"<svg\b.*?</svg>", re.S)


def replay_into(source_app, table_id: str, target_app) -> str:
    """The same table in another app: its completed moves applied in order; the new id."""
    with source_app.app_context():
        store = get_store()
        table = store.get(table_id)
        moves = [entry.move for entry in store.history(table_id) if entry.kind == "move"]
    with target_app.app_context():
        store = get_store()
        copy = store.create_table(table.game, table.setup)
        for move in moves:
            from companion_app.store import reveals as reveal
            from scoring import for_sale

            if for_sale.reveal_seats(copy.state):
                current = reveal.current(copy.id)
                for seat in current.seats:
                    reveal.press(copy.id, current.id, seat)
            copy = store.apply_move(copy.id, move, copy.version)
        assert copy.state == table.state
        return copy.id


def paths(table_id: str) -> list[str]:
    """Every GET a device can make of the table and of the whole room."""
    table = f"/tables/{table_id}"
    return [
        "/",
        "/room",
        "/history",
        "/history.csv",
        "/api/tables",
        f"/api/tables/{table_id}",
        f"/api/tables/{table_id}/history",
        f"/api/tables/{table_id}/device",
        f"/api/tables/{table_id}/device/frame",
        "/api/device",
        "/api/device/table",
        table,
        f"{table}/history",
        f"{table}/box",
        f"{table}/results",
        f"{table}/export.json",
        f"{table}/abandon",
        f"/r/{table_id}",
        *(f"{table}/print/{paper}" for paper in PAPERS),
        *(f"{table}/qr/{kind}.{fmt}" for kind in ("link", "bgstats") for fmt in ("svg", "png")),
    ]


def normalised(app, table_id: str, text: str) -> str:
    """The answer with what differs between any two tables set aside: id, keys, times, QR."""
    with app.test_request_context():
        keys = [rights.table_key(table_id, role) for role in (rights.HOST, rights.SCORER)]
        keys += [
            rights.seat_key(table_id, seat, seats.generation(table_id, seat)) for seat in range(4)
        ]
    for key in keys:
        text = text.replace(key, "KEY")
    text = text.replace(table_id, "TABLE")
    return TIMES.sub("TIME", _SVG.sub("<svg/>", text))


def answers(app, table_id: str, client) -> dict[str, tuple[int, str]]:
    """Every answer this client gets, normalised (binary answers by status alone)."""
    got = {}
    for path in paths(table_id):
        answer = client.get(path)
        binary = not answer.mimetype.startswith(("text/", "application/json"))
        body = "" if binary else normalised(app, table_id, answer.get_data(as_text=True))
        got[path.replace(table_id, "TABLE")] = (answer.status_code, body)
    return got


def live_pushes(app, table_id: str) -> dict[str, tuple]:
    """What the live streams push: every table page and /room, rendered for viewers."""
    got = {}
    for page in ("table", "history", "device", "results"):
        rendered = render(app, table_id, page, "en", "http://127.0.0.1:5000")
        got[page] = (rendered.status, normalised(app, table_id, rendered.html or ""))
    room = render(app, ROOM_KEY, "room", "en", "http://127.0.0.1:5000")
    got["room"] = (room.status, normalised(app, table_id, room.html or ""))
    return got


class World:
    """One app with the table at its reveal, its clients, and Ann's and Bob's seals."""

    def __init__(self, app, table_id: str, anns_house: int, bobs_house: int) -> None:
        self.app, self.table_id = app, table_id
        with app.app_context():
            phones = [phone(app, table_id, seat) for seat in range(4)]
        self.phones = phones
        scorer = device(app, "10.0.0.40")
        with app.test_request_context():
            key = rights.table_key(table_id, rights.SCORER)
        assert scorer.post(f"/tables/{table_id}/join/{key}").status_code == 303
        self.clients = {
            "host": app.test_client(),
            "scorer": scorer,
            "viewer": device(app, "10.0.0.41"),
            "bob's phone": phones[1],
            "cid's phone": phones[2],
            "dee's phone": phones[3],
        }
        for seat, house in ((0, anns_house), (1, bobs_house)):
            answer = phones[seat].post(
                f"/tables/{table_id}/seat/seal", data={"choice": json.dumps(house)}
            )
            assert answer.status_code == 303
        self.clients["dee's phone"].get(f"/tables/{table_id}/seat")

    def everything(self) -> dict:
        """Every answer of every client but Ann's phone, and the live pushes."""
        got = {name: answers(self.app, self.table_id, c) for name, c in self.clients.items()}
        got["seat pages"] = {
            name: normalised(
                self.app,
                self.table_id,
                c.get(f"/tables/{self.table_id}/seat").get_data(as_text=True),
            )
            for name, c in self.clients.items()
            if name.endswith("phone")
        }
        got["live"] = live_pushes(self.app, self.table_id)
        return got


@pytest.fixture
def worlds(tmp_path):
    """Two apps with the same game at the same reveal; Ann seals a different house in each."""
    first = create_app({"TESTING": True, "SECRET_KEY": "test"}, instance_path=str(tmp_path / "a"))
    second = create_app({"TESTING": True, "SECRET_KEY": "test"}, instance_path=str(tmp_path / "b"))
    table = for_sale_at_reveal(first)
    copy = replay_into(first, table.id, second)
    anns = houses_of(first, table.id, 0)
    bobs = houses_of(first, table.id, 1)[0]
    return World(first, table.id, anns[0], bobs), World(second, copy, anns[-1], bobs)


def test_no_answer_to_anyone_depends_on_a_sealed_choice(worlds):
    first, second = worlds
    seen, other = first.everything(), second.everything()
    assert seen.keys() == other.keys()
    for client in seen:
        for path in seen[client]:
            assert seen[client][path] == other[client][path], (client, path)


def test_the_sealing_phone_sees_its_own_choice(worlds):
    """The control: the one answer that differs is Ann's own seat page."""
    first, second = worlds
    pages = [
        world.phones[0].get(f"/tables/{world.table_id}/seat").get_data(as_text=True)
        for world in (first, second)
    ]
    assert normalised(first.app, first.table_id, pages[0]) != normalised(
        second.app, second.table_id, pages[1]
    )


def test_the_store_keeps_the_choice_out_of_the_move_log_until_the_last_seal(worlds):
    first, _second = worlds
    with first.app.app_context():
        history = get_store().history(first.table_id)
        table = get_store().get(first.table_id)
    assert history[-1].move["type"] != "sell" and table.state["phase"] == "reveal"


def test_a_backup_taken_before_the_reveal_holds_no_sealed_choice(worlds, tmp_path):
    """The organiser may download a backup while a game runs: it leaves the seals out."""
    import sqlite3

    from companion_app.store import backup, db

    first, _second = worlds
    with first.app.app_context():
        database = db.database_path(first.app)
    target = str(tmp_path / "backup.sqlite")
    backup.take(database, target)
    copy = sqlite3.connect(target)
    try:
        assert copy.execute("SELECT COUNT(*) FROM sealed_choices").fetchone() == (0,)
        assert copy.execute("SELECT COUNT(*) FROM log").fetchone()[0] > 0
    finally:
        copy.close()
    live = sqlite3.connect(database)
    try:
        assert live.execute("SELECT COUNT(*) FROM sealed_choices").fetchone() == (2,)
    finally:
        live.close()
