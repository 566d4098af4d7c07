"""The JSON API: every bad input gets a 4xx with a clear sentence, and changes nothing."""

import json

import pytest

from tests.app.helpers import PLAYERS


@pytest.fixture
def table(api):
    """A dealt 4-player Razzia table: Ann (seat 0, holding 13,000) to act."""
    return api.dealt()


def assert_unchanged(api, table):
    """The table is still exactly as it was."""
    status, now = api.table(table["id"])
    assert status == 200
    assert (now["version"], now["state"]) == (table["version"], table["state"])


def refused(response_pair, status, fragment):
    """Check a (status, json) pair is the expected error and return its sentence."""
    got_status, body = response_pair
    assert got_status == status, body
    assert set(body) == {"error"}
    assert fragment in body["error"], body["error"]
    return body["error"]


def test_create_returns_201_with_state_and_actions(client):
    response = client.post("/api/tables", json={"game": "razzia", "players": PLAYERS})
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"].endswith(f"/api/tables/{body['id']}")
    assert body["version"] == 0 and body["game"] == "razzia"
    assert body["state"]["phase"] == "deal"
    assert body["actions"]["phase"] == "deal"
    assert [p["name"] for p in body["state"]["players"]] == PLAYERS


def test_get_move_undo_history_round_trip(api, table):
    status, after = api.move(table["id"], {"type": "draw", "seat": 0, "card": "ring"}, 1)
    assert status == 200 and after["version"] == 2
    assert after["state"]["row"] == ["ring"]
    assert "standings" in after and after["actions"]["actor"] == 1
    status, undone = api.undo(table["id"], 2)
    assert status == 200 and undone["version"] == 3 and undone["state"] == table["state"]
    status, history = api.history(table["id"])
    assert status == 200 and history["version"] == 3
    assert [(e["kind"], e["undone"], e["undoes"]) for e in history["history"]] == [
        ("move", False, None),
        ("move", True, None),
        ("undo", False, 2),
    ]
    assert history["history"][1]["move"] == {"type": "draw", "seat": 0, "card": "ring"}


def test_deal_without_sets_is_drawn_by_lot_and_recorded(api):
    _, table = api.create()
    status, dealt = api.move(table["id"], {"type": "deal"}, 0)
    assert status == 200
    _, history = api.history(table["id"])
    assert sorted(history["history"][0]["move"]["sets"]) == ["A", "B", "C", "D"]
    assert dealt["state"]["sets"] == history["history"][0]["move"]["sets"]


def test_list_tables(api, client, table):
    body = client.get("/api/tables").get_json()
    assert [t["id"] for t in body["tables"]] == [table["id"]]
    assert body["tables"][0]["summary"]["players"] == PLAYERS


def test_unknown_game(api, client):
    refused(api.create(game="chess"), 400, "Unknown game 'chess'; known games: ")
    assert "razzia" in api.create(game="chess")[1]["error"]
    refused(api.create(game=["razzia"]), 400, "Unknown game")
    response = client.post("/api/tables", json={"players": PLAYERS})
    refused((response.status_code, response.get_json()), 400, "game: missing")
    assert client.get("/api/tables").get_json() == {"tables": []}


@pytest.mark.parametrize(
    ("players", "fragment"),
    [
        ("Ann", "players must be a list of names"),
        (["Ann", 7], "players must be a list of names"),
        (None, "players must be a list of names"),
        (["Ann"], "2 to 5 players, not 1"),
        (["Ann", "ann"], "same name"),
        (["Ann", " "], "needs a name"),
    ],
)
def test_bad_players(api, client, players, fragment):
    refused(api.create(players=players), 400, fragment)
    assert client.get("/api/tables").get_json() == {"tables": []}


def test_a_setup_refused_for_several_parts_lists_every_sentence(client):
    """Issue 14 item 3: a setup with bad parts answers every sentence in its one "error",
    the first first, and seats no table (Cech zlodějů: too few players, bad card costs)."""
    setup = {"game": "thieves_guild", "players": ["Ann", "Bob"], "card_costs": [2, 1]}
    response = client.post("/api/tables", json=setup)
    body = response.get_json()
    assert response.status_code == 400 and set(body) == {"error"}
    error = body["error"]
    assert error.index("3 to 9 players, not 2") < error.index("first card costs 1 gold")
    assert "card 2 costs 1" in error
    assert client.get("/api/tables").get_json() == {"tables": []}


def test_html_in_a_player_name_comes_back_as_data(api):
    name = '<script>alert("x")</script>'
    status, table = api.create(players=[name, "Bob"])
    assert status == 201
    assert table["state"]["players"][0]["name"] == name
    assert api.table(table["id"])[1]["state"]["players"][0]["name"] == name


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ("{", "The body is not valid JSON: Expecting property name"),
        ("", "The body is not valid JSON"),
        ('{"version": NaN}', "NaN is not a JSON value"),
        ("[" * 100_000 + "]" * 100_000, "413"),
        ("[" * 20_000 + "]" * 20_000, "nested too deeply"),
        (b"\xff\xfe{", "not valid JSON"),
        ("[1, 2]", "The body must be a JSON object, not a list."),
        ('"move"', "The body must be a JSON object, not a string."),
    ],
)
def test_malformed_bodies(api, client, table, data, fragment):
    response = client.post(
        f"/api/tables/{table['id']}/moves", data=data, content_type="application/json"
    )
    if fragment == "413":
        assert response.status_code == 413
        assert "larger than the limit" in response.get_json()["error"]
    else:
        refused((response.status_code, response.get_json()), 400, fragment)
    assert_unchanged(api, table)


def test_wrong_content_type(api, client, table):
    body = json.dumps({"version": 1, "move": {"type": "draw", "seat": 0, "card": "ring"}})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        response = client.post(
            f"/api/tables/{table['id']}/moves", data=body, content_type=content_type
        )
        refused((response.status_code, response.get_json()), 415, "Content-Type: application/json")
    assert_unchanged(api, table)


def test_oversize_body(app, api, client, table):
    limit = app.config["MAX_CONTENT_LENGTH"]
    move = {"type": "draw", "seat": 0, "card": "ring", "pad": "x" * limit}
    response = client.post(f"/api/tables/{table['id']}/moves", json={"version": 1, "move": move})
    refused((response.status_code, response.get_json()), 413, f"limit of {limit} bytes")
    assert_unchanged(api, table)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"move": {"type": "pass", "seat": 1}}, "version: missing"),
        ({"version": True, "move": {}}, "version must be a whole number, not true/false."),
        ({"version": "1", "move": {}}, "version must be a whole number, not a string."),
        ({"version": 1.0, "move": {}}, "version must be a whole number, not a number."),
        ({"version": 1}, "move must be an object"),
        ({"version": 1, "move": "draw"}, "move must be an object"),
        ({"version": 1, "move": {"type": "teleport"}}, "Unknown move type 'teleport'"),
        ({"version": 1, "move": {"type": "draw", "seat": 0, "card": "joker"}}, "Unknown card"),
        ({"version": 1, "move": {"type": "draw", "seat": -1, "card": "ring"}}, "seat must be"),
        (
            {"version": 1, "move": {"type": "draw", "seat": 1, "card": "ring"}},
            "It is Ann's turn, not Bob's.",
        ),
        (
            {"version": 1, "move": {"type": "thief", "seat": 0, "take": ["ring"]}},
            "Ann has no thief",
        ),
        (
            {"version": 1, "move": {"type": "bid", "seat": 0, "check": 13000}},
            "There is no auction running.",
        ),
        (
            {"version": 1, "move": {"type": "deal", "sets": ["A", "B", "C", "D"]}},
            "already been dealt",
        ),
    ],
)
def test_bad_moves(api, table, body, fragment):
    response = api._client.post(f"/api/tables/{table['id']}/moves", json=body)
    refused((response.status_code, response.get_json()), 400, fragment)
    assert_unchanged(api, table)


@pytest.fixture
def auction(api, table):
    """Ann drew police; Bob (seat 1) bid 7,000; Cid (seat 2) is next to bid or pass."""
    tid = table["id"]
    assert api.move(tid, {"type": "draw", "seat": 0, "card": "police"}, 1)[0] == 200
    status, state = api.move(tid, {"type": "bid", "seat": 1, "check": 7000}, 2)
    assert status == 200, state
    return state


@pytest.mark.parametrize(
    ("move", "fragment"),
    [
        ({"type": "bid", "seat": 2, "check": 2000}, "Cid holds no face-up 2,000 check"),
        ({"type": "bid", "seat": 2, "check": -4000}, "Cid holds no face-up"),
        (
            {"type": "bid", "seat": 2, "check": 4000},
            "A bid must beat the current 7,000 check; 4,000 is not higher.",
        ),
        ({"type": "bid", "seat": 3, "check": 9000}, "It is Cid's turn to bid or pass, not Dee's."),
        ({"type": "pass", "seat": 0}, "It is Cid's turn to bid or pass, not Ann's."),
        ({"type": "draw", "seat": 2, "card": "ring"}, "Finish the auction first"),
    ],
)
def test_bad_bids(api, auction, move, fragment):
    refused(api.move(auction["id"], move, auction["version"]), 400, fragment)
    assert_unchanged(api, auction)


def test_stale_version(api, table):
    move = {"type": "draw", "seat": 0, "card": "ring"}
    assert api.move(table["id"], move, 1)[0] == 200
    _, now = api.table(table["id"])
    second = {"type": "draw", "seat": 1, "card": "car"}
    refused(
        api.move(table["id"], second, 1),
        409,
        "This table changed since you loaded it (version 2, you sent 1); reload and try again.",
    )
    refused(api.undo(table["id"], 1), 409, "(version 2, you sent 1)")
    assert_unchanged(api, now)


def test_undo_of_nothing(api):
    _, table = api.create()
    refused(api.undo(table["id"], 0), 400, "Nothing to undo.")
    assert_unchanged(api, table)


def test_unknown_table(api):
    refused(api.table("nope"), 404, "There is no table with id nope.")
    refused(api.move("nope", {"type": "deal"}, 0), 404, "There is no table")
    refused(api.undo("nope", 0), 404, "There is no table")
    refused(api.history("nope"), 404, "There is no table")


def test_wrong_method_and_unknown_path(client, table):
    response = client.get(f"/api/tables/{table['id']}/moves")
    refused((response.status_code, response.get_json()), 405, "GET is not allowed")
    assert "POST" in response.headers["Allow"]
    response = client.delete("/api/tables")
    refused((response.status_code, response.get_json()), 405, "use GET or POST")
    response = client.get("/api/nothing/here")
    refused((response.status_code, response.get_json()), 404, "There is nothing at /api/nothing")
