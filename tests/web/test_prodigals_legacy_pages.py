"""Klub ztroskotanců pages with the Legacy (Dědictví) combination (RULES.md §5 "Legacy")."""

import copy
import re

import pytest

from companion_app.store import get_store
from tests.web.test_prodigals_pages import NEW, Club, error_in, setup_form


def legacy_form(**changes) -> dict:
    """The new-table form with Legacy and election: no property board values typed."""
    return setup_form(competition=["legacy", "election"], money="", districts="", **changes)


@pytest.fixture
def table(client, app):
    """A 3-player Legacy + election table, turn order Ann, Bob, Cid."""
    return Club(client, app, competition=["legacy", "election"], money="", districts="").ordered()


def test_the_setup_form_offers_legacy_in_place_of_property(client):
    page = client.get(NEW).get_data(as_text=True)
    assert 'data-testid="competition-legacy"' in page
    assert "Legacy (Dědictví) replaces the property competition" in page


def test_a_legacy_table_starts_everyone_with_70_and_asks_no_property_values(client, app):
    state = Club(client, app, competition=["legacy", "election"], money="", districts="").state()
    assert state["competitions"] == ["legacy", "election"]
    assert [p["legacy"]["cash"] for p in state["players"]] == [70, 70, 70]


def test_legacy_with_property_is_refused_next_to_the_competitions(client):
    response = client.post(NEW, data=setup_form(competition=["property", "legacy", "election"]))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Legacy replaces the property competition" in error_in(page, "competitions")
    with client.application.app_context():
        assert get_store().list_tables() == []


def test_the_handicap_checklist_says_nobody_gets_one_and_no_reservation_is_offered(table):
    # Seed: "Na začátku hry nepřidělujte nikomu žádné handicapy"; Last Will sets the order.
    page = table.page()
    assert 'data-testid="no-handicaps"' in page and "nobody gets a handicap" in page
    assert 'data-testid="handicap-0"' not in page
    assert 'id="reserve"' not in page and 'data-testid="reserve-save"' not in page
    assert 'id="property-add"' not in page and 'id="legacy-add"' in page
    assert table.state()["handicaps"] == [{"money": 0, "votes": 0, "society": 0}] * 3


def test_legacy_entries_update_cash_properties_and_the_score(table):
    table.post({"type": "legacy", "action": "spend", "seat": "0", "amount": "30"})
    table.post({"type": "legacy", "action": "add", "seat": "0", "label": "Statek", "value": "12"})
    table.post({"type": "legacy", "action": "add", "seat": "0", "label": "", "value": "5"})
    page = table.page()
    assert 'data-testid="legacy-cash-0">£40<' in page
    assert "Statek £12" in page and "property 2 £5" in page
    assert re.search(r'data-testid="score-0-legacy">57\s', page)
    assert re.search(
        r'<input type="radio" name="property" value="0:1">\s*<span>Ann: Statek \(£12\)', page
    )
    table.post({"type": "legacy", "action": "value", "property": "0:1", "value": "3"})
    assert re.search(r'data-testid="score-0-legacy">48\s', table.page())
    table.post({"type": "legacy", "action": "remove", "property": "0:2"})
    assert table.state()["players"][0]["legacy"] == {
        "cash": 40,
        "properties": [{"id": 1, "label": "Statek", "value": 3}],
        "next": 3,
    }
    assert re.search(r'data-testid="score-0-legacy">43\s', table.page())


@pytest.mark.parametrize(
    ("fields", "area", "fragment"),
    [
        (
            {"type": "legacy", "action": "spend", "seat": "0", "amount": "lots"},
            "legacy-spend",
            "Amount: ",  # the control's name, not the move key "amount"
        ),
        (
            {"type": "legacy", "action": "receive", "seat": "0", "amount": "0"},
            "legacy-receive",
            "at least 1",
        ),
        (
            {"type": "legacy", "action": "set_cash", "seat": "1", "cash": "1.5"},
            "legacy-set_cash",
            "Cash: ",
        ),
        (
            {"type": "legacy", "action": "add", "seat": "0", "label": "Mlýn", "value": "x"},
            "legacy-add",
            "market value",
        ),
        (
            {"type": "legacy", "action": "value", "property": "1:1", "value": "4"},
            "legacy-value",
            "Bob owns no Legacy property 1",
        ),
        (
            {"type": "legacy", "action": "value", "property": "0:1", "value": "-4"},
            "legacy-value",
            "market value",
        ),
        (
            {"type": "legacy", "action": "remove", "property": "0:7"},
            "legacy-remove",
            "Ann owns no Legacy property 7",
        ),
        ({"type": "reserve", "seat": "0", "place": "1"}, "general", "Last Will"),
    ],
)
def test_bad_legacy_entries_are_refused_next_to_their_panel_and_change_nothing(
    table, fields, area, fragment
):
    table.post({"type": "legacy", "action": "add", "seat": "0", "label": "Statek", "value": "9"})
    before = copy.deepcopy(table.state())
    assert table.post(fields).status_code == 303
    assert fragment in error_in(table.page(), area).replace("&#39;", "'")
    assert table.state() == before


def test_a_legacy_score_at_0_ends_the_game_at_the_end_of_the_round(table, client):
    table.post({"type": "legacy", "action": "spend", "seat": "2", "amount": "70"})
    table.post({"type": "end_actions"})
    table.post({"type": "hyde_park", "megaphones": ["1", "1", "1"]})
    state = table.state()
    assert state["phase"] == "game_over" and state["end_reason"] == "zero"
    page = table.page()
    assert 'data-testid="final-2-legacy">0<' in page and "Winner: Cid" in page
    assert "Legacy: cash + the current market value" in page
    results = client.get(f"{table.url}/results").get_data(as_text=True)
    assert "Legacy" in results
    assert client.get(f"{table.url}/print/58mm").status_code == 200


def test_history_describes_legacy_entries(table, client):
    table.post({"type": "legacy", "action": "add", "seat": "1", "label": "Mlýn", "value": "8"})
    table.post({"type": "legacy", "action": "value", "property": "1:1", "value": "6"})
    table.post({"type": "legacy", "action": "remove", "property": "1:1"})
    table.post({"type": "legacy", "action": "spend", "seat": "0", "amount": "4"})
    page = client.get(f"{table.url}/history").get_data(as_text=True)
    assert "Bob got the Legacy property Mlýn worth £8" in page
    assert "Bob&#39;s Legacy property 1 is now worth £6" in page
    assert "Bob no longer owns Legacy property 1" in page
    assert "Ann spent £4 (Legacy)" in page


def test_the_czech_page_uses_the_rulebook_terms(table, client):
    client.post("/lang", data={"lang": "cs", "next": "/"})
    table.post({"type": "legacy", "action": "value", "property": "0:9", "value": "1"})
    page = table.page()
    assert "Dědictví: nová nemovitost" in page and "Tržní hodnota £" in page
    assert "na začátku hry nikdo nedostává žádný handicap" in page
    assert "Ann nevlastní v Dědictví nemovitost 9" in error_in(page, "legacy-value")


def test_the_calculator_page_scores_legacy(client):
    form = {
        "kind": "final",
        "competition": ["legacy", "election"],
        "f0.name": "A",
        "f0.cash": "3",
        "f0.properties": "4 2",
        "f0.election": "8",
        "f1.name": "B",
        "f1.cash": "12",
        "f1.properties": "",
        "f1.election": "3",
    }
    response = client.post("/score/prodigals_club", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 200, page
    assert '<td data-cat="legacy">9</td>' in page and "Winner: A" in page
    assert 'data-testid="final-competition-legacy"' in page


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"f1.properties": "4 x"}, "f1.properties"),
        ({"f0.cash": "many"}, "f0.cash"),
        ({"competition": ["legacy", "property"]}, "final.competitions"),
    ],
)
def test_calculator_legacy_errors_show_next_to_their_field(client, changes, field):
    form = {
        "kind": "final",
        "competition": ["legacy", "election"],
        "f0.name": "A",
        "f0.cash": "3",
        "f0.properties": "4",
        "f0.election": "8",
        "f1.name": "B",
        "f1.cash": "1",
        "f1.properties": "2",
        "f1.election": "3",
        **changes,
    }
    response = client.post("/score/prodigals_club", data=form)
    assert response.status_code == 400
    assert error_in(response.get_data(as_text=True), re.escape(field))


def test_junk_legacy_posts_never_give_a_500(table):
    junk = [
        {"type": "legacy"},
        {"type": "legacy", "action": "add", "seat": "0", "value": "", "label": "x" * 500},
        {"type": "legacy", "action": "value", "property": "", "value": "1"},
        {"type": "legacy", "action": "value", "property": "9:1", "value": "1"},
        {"type": "legacy", "action": "remove", "property": "a:b"},
        {"type": "legacy", "action": "spend", "seat": "x", "amount": "99999999999999999999"},
        {"type": "legacy", "action": "nonsense", "seat": "0"},
        {"type": "reserve", "seat": "0", "place": "1"},
    ]
    before = copy.deepcopy(table.state())
    for fields in junk:
        assert table.post(fields).status_code == 303
        assert table.client.get(table.url).status_code == 200
    assert table.state() == before


def test_a_legacy_table_through_the_json_api(client):
    created = client.post(
        "/api/tables",
        json={
            "game": "prodigals_club",
            "players": ["Ann", "Bob"],
            "competitions": ["legacy", "society"],
            "board": {"messengers": 4, "society_tokens": [2, 3, 4, 5]},
            "order": [1, 0],
        },
    )
    assert created.status_code == 201, created.get_json()
    url, version = created.headers["Location"], created.get_json()["version"]
    move = {"type": "legacy", "seat": 1, "action": "add", "label": "Mlýn", "value": 11}
    moved = client.post(f"{url}/moves", json={"version": version, "move": move})
    assert moved.status_code == 200
    body = moved.get_json()
    assert body["state"]["players"][1]["legacy"]["properties"][0]["value"] == 11
    bad = {"type": "legacy", "seat": 1, "action": "remove", "property": 5}
    refused = client.post(f"{url}/moves", json={"version": body["version"], "move": bad})
    assert (
        refused.status_code == 400
        and "Bob owns no Legacy property 5" in (refused.get_json()["error"])
    )
    assert client.get(url).get_json()["version"] == body["version"]
    both = client.post(
        "/api/tables",
        json={
            "game": "prodigals_club",
            "players": ["Ann", "Bob"],
            "competitions": ["property", "legacy"],
            "board": {"messengers": 4, "money": 10, "districts": 4, "district": 1},
        },
    )
    assert both.status_code == 400 and "Legacy replaces" in both.get_json()["error"]
