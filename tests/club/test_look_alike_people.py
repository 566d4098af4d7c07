"""Issue 30 item 7 through the app: a look-alike spelling is the same person in the roster,
two look-alike seats are refused with both seats named, a name of marks alone is refused.
"""

import pytest

from companion_app.games.adel_verpflichtet.setup import NAME_REFUSALS
from companion_app.store import db, roster
from scoring import names
from tests.scoring.test_look_alike_names import LOOK_ALIKES, MARKS_ONLY


def people(app) -> dict[str, roster.Person]:
    """Everyone in the roster by name."""
    with app.app_context():
        return {person.name: person for person in roster.everyone(db.get_db())}


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_a_seat_typed_with_the_look_alike_joins_the_same_person(app, club, first, second):
    club.play([first, "Bob"], [1, 2])
    club.play([second, "Bob"], [2, 1])
    everyone = people(app)
    assert set(everyone) == {first, "Bob"}
    assert everyone[first].tables == 2
    with app.app_context():
        assert roster.find(db.get_db(), second) == everyone[first].id


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_a_person_known_by_the_look_alike_is_found_by_the_plain_spelling(app, club, first, second):
    club.play([second, "Bob"], [1, 2])
    club.play([first, "Bob"], [2, 1])
    assert set(people(app)) == {second, "Bob"}


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_two_look_alike_seats_are_refused_over_the_api_naming_both(client, first, second):
    response = client.post(
        "/api/tables", json={"game": "razzia", "players": [first, "Bob", second]}
    )
    assert response.status_code == 400
    body = response.get_json()
    assert set(body) == {"error"}
    assert body["error"].startswith(
        f'Players 1 and 3 have the same name ("{first}" and "{second}")'
    )
    assert client.get("/api/tables").get_json() == {"tables": []}


@pytest.mark.parametrize("name", MARKS_ONLY)
def test_a_name_of_marks_alone_is_refused_over_the_api(client, name):
    response = client.post("/api/tables", json={"game": "razzia", "players": ["Ann", name]})
    assert response.status_code == 400
    assert "The name of player 2" in response.get_json()["error"]
    assert "has no letter" in response.get_json()["error"]
    assert client.get("/api/tables").get_json() == {"tables": []}


def test_a_name_of_marks_alone_is_refused_on_the_form_in_czech(client):
    response = client.post(
        "/tables/new/razzia",
        data={"player": ["Ann", "\u0301\u0301"]},
        headers={"Accept-Language": "cs-CZ,cs;q=0.9"},
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Jméno hráče 2" in page and "nemá žádné písmeno" in page and "U+0301" in page
    assert client.get("/api/tables").get_json() == {"tables": []}


def test_a_rename_to_marks_alone_is_refused_and_nothing_changes(app, client, club):
    club.play(["Ann", "Bob"], [1, 2])
    ann = people(app)["Ann"].id
    response = client.post(f"/people/{ann}/rename", data={"name": "\u0308"}, follow_redirects=True)
    assert "has no letter, only marks such as U+0308" in response.get_data(as_text=True)
    assert "Ann" in people(app)


def test_the_adel_form_shows_the_refusal_by_the_names():
    assert names.SEAT_MESSAGES[names.NO_LETTER] in NAME_REFUSALS
