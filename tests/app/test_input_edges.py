"""Input edges (issue 24, item 5) through the API: JSON nested too deep, look-alike and blank
names, stacked accents. Each refusal is a 400 with its sentence and nothing changes. The
server front's own answers and chunked bodies are tested over real sockets in test_room.py."""

import json
import logging

import pytest

from companion_app.server.jsonio import MAX_DEPTH

DEAL = {"type": "deal", "sets": ["A", "B", "C"]}


def post(client, path: str, text: str):
    """POST raw JSON text."""
    return client.post(path, data=text, content_type="application/json")


def test_a_move_nested_deeper_than_the_limit_is_a_400_with_one_log_line(client, caplog):
    """A move field nested 500-980 deep once overflowed deepcopy (a 500 and a 3,000-line
    traceback per request); now it is refused with a sentence, and logged in one line at
    most however often it comes."""
    table = client.post("/api/tables", json={"game": "razzia", "players": ["A", "B", "C"]})
    table_id = table.get_json()["id"]
    caplog.set_level(logging.INFO)
    for depth in (MAX_DEPTH + 1, 500, 980, 5000):
        field = "[" * depth + "]" * depth
        body = f'{{"version": 0, "move": {{"type": "deal", "sets": {field}}}}}'
        response = post(client, f"/api/tables/{table_id}/moves", body)
        assert response.status_code == 400
        assert response.get_json() == {
            "error": f"The body is nested too deeply: lists and objects may nest at most"
            f" {MAX_DEPTH} levels deep."
        }
    assert client.get(f"/api/tables/{table_id}").get_json()["version"] == 0
    lines = [record for record in caplog.records if record.levelno >= logging.INFO]
    assert len(lines) <= 1 and all("\n" not in record.getMessage() for record in lines)


def test_json_at_the_depth_limit_is_read(client):
    """Nesting up to the limit is fine (the companion's own documents are 5 deep)."""
    table_id = client.post(
        "/api/tables", json={"game": "razzia", "players": ["A", "B", "C"]}
    ).get_json()["id"]
    nested = "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)
    body = f'{{"version": 0, "move": {{"type": "deal", "sets": {nested}}}}}'
    response = post(client, f"/api/tables/{table_id}/moves", body)
    assert response.status_code == 400 and "nested too deeply" not in response.get_json()["error"]
    brackets_in_strings = json.dumps({"version": 0, "move": {**DEAL, "note": "[" * 100}})
    response = post(client, f"/api/tables/{table_id}/moves", brackets_in_strings)
    assert "nested" not in response.get_json().get("error", "")


@pytest.mark.parametrize(
    ("players", "fragment"),
    [
        (["Ann", "\u0410nn", "Bob"], "same name"),  # Cyrillic A
        (["Ann", "\u0391nn", "Bob"], "same name"),  # Greek Alpha
        (["Ann", "Ann\u2800", "Bob"], "same name"),  # braille blank
        (["\u2800", "Ann", "Bob"], "needs a name"),
        (["Ann", "Bob", "A" + "\u0301" * 39], "stacks 39 accents"),
    ],
)
def test_look_alike_blank_and_stacked_names_are_refused_over_the_api(client, players, fragment):
    """Issue 24: each refusal a 400 with its sentence; no table is made."""
    response = client.post("/api/tables", json={"game": "razzia", "players": players})
    assert response.status_code == 400 and fragment in response.get_json()["error"]
    assert client.get("/api/tables").get_json() == {"tables": []}
