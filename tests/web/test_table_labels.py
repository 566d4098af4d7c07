"""Issue 32 item 6: each table's short label, set at setup (web form and API), shown on its
tablet and its room tile; "Table 1", "Table 2", ... the lowest number free among the tables in
play when the host types none; a label too long or not text is refused, nothing created."""

import random

import pytest

from companion_app.store import get_store
from companion_app.store.labels import MAX_LABEL, InvalidLabel, clean_label
from companion_app.web.room_tiles import short_name, short_names
from tests.web import room_tables as seed

PLAYERS = ["Ann", "Bob", "Cid"]


def create(client, label=None, game="razzia"):
    """POST /api/tables with an optional label: (status, body)."""
    body = {"game": game, "players": PLAYERS}
    if label is not None:
        body["label"] = label
    response = client.post("/api/tables", json=body)
    return response.status_code, response.get_json()


def test_tables_take_the_lowest_free_number_and_a_finished_one_gives_it_back(app, client):
    first, second = create(client)[1], create(client)[1]
    assert (first["label"], second["label"]) == ("Table 1", "Table 2")
    assert create(client, "By the window")[1]["label"] == "By the window"
    with app.app_context():
        seed.play_on(first["id"], 100_000, random.Random(1))  # to its end
    assert create(client)[1]["label"] == "Table 1"  # the finished table's number is free again
    assert create(client)[1]["label"] == "Table 3"
    listed = {row["id"]: row["label"] for row in client.get("/api/tables").get_json()["tables"]}
    assert listed[second["id"]] == "Table 2"


def test_a_label_is_checked_and_a_refused_one_creates_nothing(app, client):
    assert clean_label("  U   okna\t") == "U okna"
    assert clean_label("   ") is None
    with pytest.raises(InvalidLabel):
        clean_label(7)
    status, body = create(client, "x" * (MAX_LABEL + 1))
    assert status == 400 and "at most 24 characters" in body["error"]
    status, body = create(client, ["Bar"])
    assert status == 400 and "must be text" in body["error"]
    with app.app_context():
        assert get_store().list_tables() == []


def test_the_form_sets_the_label_and_says_a_refusal_next_to_its_field(client):
    form = client.get("/tables/new/razzia", headers={"Accept-Language": "cs"}).get_data(True)
    assert 'placeholder="Stůl 1"' in form and "Označení stolu" in form
    data = {"player": PLAYERS, "label": "y" * 30}
    refused = client.post("/tables/new/razzia", data=data, headers={"Accept-Language": "cs"})
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert 'data-error="label"' in page and "nejvýš 24 znaků" in page
    made = client.post("/tables/new/razzia", data={"player": PLAYERS, "label": "Bar"})
    assert made.status_code == 303
    tablet = client.get(made.headers["Location"]).get_data(as_text=True)
    assert 'data-testid="table-label">Bar<' in tablet
    room = client.get("/room").get_data(as_text=True)
    assert 'data-testid="room-table-label">Bar<' in room


def test_short_names_for_a_tile_of_many_players():
    assert short_name("František Novotný") == "František N."
    assert short_name("Anna Marie Veselá") == "Anna M. V."
    assert short_name("Ann") == "Ann"
    # Two short forms that would read the same keep their full names.
    assert short_names(["Jan Novák", "Jan Nový", "Eva Malá"]) == ["Jan Novák", "Jan Nový", "Eva M."]
