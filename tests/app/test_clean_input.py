"""Clean input (issue 12): bad names, unknown setup and move fields are refused and change
nothing; `companion score` answers every malformed sheet with JSON and exit 2; pages survive
a name an older version stored."""

import io
import json
import os
import sqlite3
import sys
from contextlib import redirect_stderr, redirect_stdout
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion_app import cli, create_app
from scoring import razzia
from tests.results.conftest import play_table
from tests.scoring.prodigals_play import setup as club_setup

JUNK = "x" * 60_000
#: A valid API body of each game (POST /api/tables) and a legal first move.
GAMES = {
    "razzia": ({"players": ["Ann", "Bob"]}, {"type": "deal", "sets": ["A", "B"]}),
    "for_sale": ({"players": ["Ann", "Bob", "Cid"]}, {"type": "start", "seat": 0}),
    "prodigals_club": (club_setup(), {"type": "order", "order": [0, 1, 2]}),
}
#: The second player's name and the refusal's words; the first player is "Zoë".
BAD_NAMES = {
    "lone surrogate": ("B\ud800b", "half of a character"),
    "control character": ("B\x07b", "control character"),
    "zero-width space": ("B\u200bb", "invisible character"),
    "zero-width joiner": ("B\u200db", "invisible character"),
    "bidi override": ("\u202eBob", "invisible character"),
    "bidi isolate": ("Bob\u2066", "invisible character"),
    "byte-order mark": ("\ufeffBob", "invisible character"),
    "private use": ("Bob\ue000", "private-use"),
    "look-alike (NFD)": ("Zoe\u0308", "same name"),
    "look-alike (case)": ("ZOË", "same name"),
    "look-alike (width)": ("Ｚｏë", "same name"),
    "look-alike (variation selector)": ("Zoë\ufe0f", "same name"),
}


def post_json(client, url: str, body: object):
    """POST `body` as JSON text (ASCII escapes, so lone surrogates travel as \\ud800)."""
    return client.post(url, data=json.dumps(body), content_type="application/json")


def table_ids(client) -> list[str]:
    """The ids of every table the API lists."""
    return [table["id"] for table in client.get("/api/tables").get_json()["tables"]]


def refused(response, fragment: str | None, status: int = 400) -> str:
    """The response is a JSON refusal (with `fragment`); its sentence."""
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error"}
    if fragment is not None:
        assert fragment in body["error"], body["error"]
    return body["error"]


# --- names over the API ----------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", BAD_NAMES)
def test_name_refused_over_the_api_creates_nothing(client, game, kind):
    name, fragment = BAD_NAMES[kind]
    setup, _move = GAMES[game]
    players = ["Zoë", name, *setup["players"][2:]]
    before = table_ids(client)
    response = post_json(client, "/api/tables", {"game": game, **setup, "players": players})
    message = refused(response, fragment)
    assert "player" in message.lower()
    assert table_ids(client) == before
    assert client.get("/").status_code == 200


def test_name_with_lone_surrogate_is_refused_and_home_page_still_answers(client):
    raw = '{"game": "razzia", "players": ["\\ud800", "Bob"]}'
    response = client.post("/api/tables", data=raw, content_type="application/json")
    assert "U+D800" in refused(response, "half of a character")
    assert table_ids(client) == []
    assert client.get("/").status_code == 200


def test_names_are_stored_in_nfc(client):
    response = post_json(client, "/api/tables", {"game": "razzia", "players": [" Zoe\u0308", "B"]})
    assert response.status_code == 201
    table = client.get(f"/api/tables/{response.get_json()['id']}").get_json()
    assert table["state"]["players"][0]["name"] == "Zoë"


def test_name_refused_on_the_new_table_form_is_shown_in_czech_and_creates_nothing(client):
    form = {"player": ["Ann", "Bo\u200bb"]}
    response = client.post(
        "/tables/new/razzia", data=form, headers={"Accept-Language": "cs-CZ,cs;q=0.9"}
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Jméno hráče 2" in page and "neviditelný znak" in page
    assert table_ids(client) == []


def test_look_alike_names_refused_on_the_new_table_form(client):
    response = client.post("/tables/new/for_sale", data={"player": ["Zoë", "Zoe\u0308", "Cid"]})
    assert response.status_code == 400
    assert "same name" in response.get_data(as_text=True)
    assert table_ids(client) == []


# --- unknown setup keys and move fields ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("key", "value"), [("colour", "red"), ("notes", JUNK)])
def test_unknown_setup_field_is_refused_over_the_api_and_creates_nothing(client, game, key, value):
    setup, _move = GAMES[game]
    response = post_json(client, "/api/tables", {"game": game, **setup, key: value})
    message = refused(response, f'Unknown setup field "{key}"')
    assert "players" in message and len(message) < 300
    assert table_ids(client) == []


def test_unknown_board_value_is_refused_over_the_api(client):
    setup = club_setup()
    setup["board"]["junk"] = JUNK
    response = post_json(client, "/api/tables", {"game": "prodigals_club", **setup})
    refused(response, 'board: unknown board value "junk"')
    assert table_ids(client) == []


def created(client, game: str) -> dict:
    """A fresh table of `game` with one legal move made (version 1)."""
    setup, move = GAMES[game]
    table = post_json(client, "/api/tables", {"game": game, **setup}).get_json()
    response = post_json(client, f"/api/tables/{table['id']}/moves", {"version": 0, "move": move})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


#: A move of each game that is legal at version 1, to carry an extra field.
NEXT_MOVES = {
    "razzia": {"type": "draw", "seat": 0, "card": "ring"},
    "for_sale": {"type": "houses", "houses": [1, 2, 3]},
    "prodigals_club": {"type": "votes", "seat": 0, "delta": 2},
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("field", "value"), [("comment", JUNK), ("seat ", 0), ("\u202e", 1)])
def test_extra_move_field_is_refused_over_the_api_and_stores_nothing(client, game, field, value):
    table = created(client, game)
    url = f"/api/tables/{table['id']}"
    history = client.get(f"{url}/history").get_json()
    move = {**NEXT_MOVES[game], field: value}
    message = refused(post_json(client, f"{url}/moves", {"version": 1, "move": move}), None)
    assert message.startswith("Unknown field ") and NEXT_MOVES[game]["type"] in message
    message.encode("utf-8")
    assert client.get(url).get_json()["version"] == 1
    assert client.get(f"{url}/history").get_json() == history
    without = post_json(client, f"{url}/moves", {"version": 1, "move": NEXT_MOVES[game]})
    assert without.status_code == 200, without.get_json()


def test_extra_field_in_a_legacy_entry_is_refused_over_the_api(client):
    setup = club_setup(competitions=["legacy", "election"], order=[0, 1, 2])
    table = post_json(client, "/api/tables", {"game": "prodigals_club", **setup}).get_json()
    move = {"type": "legacy", "seat": 0, "action": "spend", "amount": 3, "label": "x"}
    response = post_json(client, f"/api/tables/{table['id']}/moves", {"version": 0, "move": move})
    refused(response, 'Unknown field "label" in a move of type legacy spend')
    assert client.get(f"/api/tables/{table['id']}").get_json()["version"] == 0


# --- the calculator over HTTP ----------------------------------------------------------------

SHEET = {"game": "razzia", "round": 1, "players": [{"name": "Ann"}, {"name": "Bob"}]}


@pytest.mark.parametrize(
    ("sheet", "fragment"),
    [
        ({**SHEET, "players": [{"name": "\ud800"}, {"name": "Bob"}]}, "half of a character"),
        ({**SHEET, "players": [{"name": "Ann"}, {"name": "a\u200bnn"}]}, "invisible"),
        ({**SHEET, "players": [{"name": "Ann"}, {"name": "ANN"}]}, "same name"),
        ({**SHEET, "round": [[[[[[[[1]]]]]]]]}, "nested too deeply"),
        ({**SHEET, "players": [{"name": "Ann", "cars": 10**400}, {"name": "B"}]}, "too large"),
    ],
)
def test_bad_sheet_over_the_api_is_a_400_with_a_sentence(client, sheet, fragment):
    refused(post_json(client, "/api/score", sheet), fragment)


def test_look_alike_names_refused_on_the_calculator_form_next_to_the_name(client):
    form = {"p0.name": "Ann", "p0.checks": "15000", "p1.name": "ann", "p2.name": "Cid"}
    response = client.post("/score/for_sale", data=form)
    assert response.status_code == 400
    assert "same name" in response.get_data(as_text=True)


# --- `companion score` -----------------------------------------------------------------------


def run_cli(data: bytes, *argv: str) -> tuple[int, str, str]:
    """Run `companion score` in-process on `data` as stdin; (status, stdout, stderr)."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    # Strict UTF-8 streams: a lone surrogate printed as is would raise, as on a real pipe.
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", write_through=True)
    with mock.patch.object(sys, "stdin", stdin), redirect_stdout(out), redirect_stderr(err):
        status = cli.main(["score", *argv])
    return status, out_bytes.getvalue().decode("utf-8"), err_bytes.getvalue().decode("utf-8")


def assert_answered(status: int, out: str, err: str) -> None:
    """Exit 0 with a JSON object on stdout, or exit 2 with {"error"} on stderr; nothing else."""
    if status == 0:
        assert err == "" and isinstance(json.loads(out), dict)
    else:
        assert status == cli.EXIT_REJECTED and out == ""
        body = json.loads(err)
        assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"]


def nested(depth: int) -> str:
    """A list `depth` levels deep as JSON text."""
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (
            b'{"game": "razzia", "round": 1, "players": [{"name": "\\ud800"}, {"name": "B"}]}',
            "U+D800",
        ),
        (b"\xff\xfe{}", "not valid UTF-8"),
        (b'{"game": "razzia", "round": 1, "players": [{"name": "\xed\xa0\x80"}]}', "UTF-8"),
        (nested(100_000).encode(), "nested too deeply"),
        (f'{{"game": "razzia", "round": 1, "players": {nested(500)}}}'.encode(), "at most 32"),
        (b'{"game": "razzia", "round": 1e400, "players": []}', "too large"),
        (b'{"game": "razzia", "round": ' + b"9" * 5000 + b', "players": []}', "not valid JSON"),
        (b'{"game": "razzia", "round": 1' + b"0" * 4000 + b', "players": []}', "too large"),
        (b"[]", "sheet"),
        (b'"razzia"', "sheet"),
        (b"null", "sheet"),
        (b"", "not valid JSON"),
        (b'{"game": "\\ud800"}', "Unknown game"),
    ],
)
def test_malformed_sheet_gets_json_error_and_exit_2(data, fragment):
    status, out, err = run_cli(data)
    assert_answered(status, out, err)
    assert status == 2 and fragment in json.loads(err)["error"]


def test_huge_tiles_that_once_overflowed_the_printer_get_exit_2():
    huge = "9" * 4299
    player = f'{{"name": "A", "property": {{"cash": {huge}, "tiles": [{",".join([huge] * 12)}]}}}}'
    other = '{"name": "B", "property": {"cash": 0, "tiles": []}}'
    text = (
        '{"game": "prodigals_club", "kind": "final", "competitions": ["property", "society"],'
        f' "players": [{player[:-1]}, "society": 1}}, {other[:-1]}, "society": 1}}]}}'
    )
    status, out, err = run_cli(text.encode())
    assert_answered(status, out, err)
    assert status == 2 and "too large" in json.loads(err)["error"]


def test_a_sheet_with_a_bom_scores():
    status, out, err = run_cli(b"\xef\xbb\xbf" + json.dumps(SHEET).encode())
    assert status == 0 and json.loads(out)["winners"]


def test_an_unreadable_sheet_file_gets_exit_2(tmp_path):
    status, out, err = run_cli(b"", str(tmp_path))
    assert_answered(status, out, err)
    assert status == 2 and "Cannot read the sheet" in json.loads(err)["error"]


SAMPLES = [
    SHEET,
    {"game": "for_sale", "players": [{"name": n, "coins": 2} for n in ("A", "B", "C")]},
    {
        "game": "prodigals_club",
        "kind": "final",
        "competitions": ["property", "election"],
        "players": [
            {"name": n, "property": {"cash": 2, "tiles": [4]}, "election": 9} for n in "AB"
        ],
    },
    {"game": "prodigals_club", "kind": "hyde_park", "losses": [3, 2, 1], "megaphones": {"A": 1}},
    {
        "game": "prodigals_club",
        "kind": "handicaps",
        "competitions": ["property", "society"],
        "order": ["A", "B", "C"],
    },
]
#: Text with everything JSON can carry: surrogates, controls, bidi marks, private use.
any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(10**60), 10**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | any_text,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(any_text, children, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated_sheets(draw) -> bytes:
    """A sample sheet with one value, somewhere inside it, replaced or added."""
    sheet = json.loads(json.dumps(draw(st.sampled_from(SAMPLES))))
    target = sheet
    for _ in range(draw(st.integers(0, 3))):
        if isinstance(target, dict) and target:
            target = target[draw(st.sampled_from(sorted(target)))]
        elif isinstance(target, list) and target:
            target = target[draw(st.integers(0, len(target) - 1))]
    if isinstance(target, dict):
        keys = [*target, "name", "extra"]
        target[draw(st.sampled_from(keys) | any_text)] = draw(json_values)
    elif isinstance(target, list) and target:
        target[draw(st.integers(0, len(target) - 1))] = draw(json_values)
    return json.dumps(sheet).encode()


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.binary(max_size=64)
    | json_values.map(lambda value: json.dumps(value).encode())
    | mutated_sheets()
    | st.text(max_size=40).map(lambda text: text.encode("utf-8", "surrogatepass"))
)
def test_companion_score_answers_any_input_with_json_and_exit_0_or_2(data):
    assert_answered(*run_cli(data))


# --- pages survive a name an older version stored --------------------------------------------


@pytest.fixture
def old_instance(tmp_path):
    """An instance whose database holds a lone surrogate name (finished and running tables)."""
    config = {"TESTING": True, "SECRET_KEY": "test"}
    app = create_app(config, instance_path=str(tmp_path))
    finished, running = play_table(app), play_table(app, rounds=1)
    with sqlite3.connect(os.path.join(app.instance_path, app.config["DATABASE"])) as conn:
        for table, column in (
            ("tables", "setup_json"),
            ("tables", "state_json"),
            ("log", "state_json"),
        ):
            conn.execute(
                f"UPDATE {table} SET {column} = replace({column}, '\"Dee\"', '\"\\ud800\"')"
            )
    fresh = create_app(config, instance_path=str(tmp_path))  # no cached states
    return fresh, finished, running


def test_pages_survive_a_lone_surrogate_name_stored_by_an_older_version(old_instance):
    app, finished, running = old_instance
    client = app.test_client()
    pages = ["/", "/history", "/history.csv", "/api/tables"]
    for table_id in (finished, running):
        pages += [
            f"/tables/{table_id}",
            f"/tables/{table_id}/history",
            f"/tables/{table_id}/box",
            f"/tables/{table_id}/export.json",
            f"/api/tables/{table_id}",
            f"/api/tables/{table_id}/history",
            f"/api/tables/{table_id}/device",
        ]
    pages += [
        f"/tables/{finished}/results",
        f"/tables/{finished}/print/a4",
        f"/tables/{finished}/qr/bgstats.svg",
        f"/tables/{finished}/qr/bgstats.png",
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
    home = client.get("/").get_data(as_text=True)
    assert "\ufffd" in home
    state = client.get(f"/api/tables/{running}").get_json()["state"]
    assert [player["name"] for player in state["players"]][-1] == "\ufffd"


def test_an_old_table_with_a_lone_surrogate_name_still_takes_moves(old_instance):
    app, _finished, running = old_instance
    client = app.test_client()
    table = client.get(f"/api/tables/{running}").get_json()
    move = razzia.legal_moves(table["state"])[0]
    body = {"version": table["version"], "move": move}
    response = post_json(client, f"/api/tables/{running}/moves", body)
    assert response.status_code == 200, response.get_json()
    assert client.get(f"/tables/{running}").status_code == 200
