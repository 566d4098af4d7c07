"""Adel Verpflichtet pages through the test client: setup, a turn's panels, refusals, calculator."""

import pytest

from tests.web.adel_pages import AdelPages, setup_form


@pytest.fixture
def av(client) -> AdelPages:
    """Adel pages against the test client, in English."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    return AdelPages(client)


def test_setup_form_asks_the_board_values_with_number_fields_and_no_dropdowns(client, av):
    page = client.get("/tables/new/adel_verpflichtet").get_data(as_text=True)
    assert 'name="banquet"' in page and 'name="top0"' in page and 'name="p0.check0"' in page
    assert "<select" not in page
    assert page.count('inputmode="numeric"') > 100


def test_setup_refuses_two_equal_check_values_next_to_the_board_values(client, av):
    data = {**setup_form(), "p1.check3": "11"}
    response = client.post("/tables/new/adel_verpflichtet", data=data)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'data-error="board"' in page and "11 is entered twice" in page


def test_a_whole_turn_through_the_panels(av):
    av.create()
    assert 'data-testid="location-panel"' in av.page()
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    assert av.state()["phase"] == "action"
    av.lock_in()
    page = av.post({"type": "actions", "act0": "check:11", "act1": "thief:3", "act2": "exhibit"})
    assert av.state()["phase"] == "buy", page.get_data(as_text=True)[:3000]
    av.post({"type": "buy", "pile": "0", "next.letter": "B", "next.new": "1591"})
    state = av.state()
    assert state["phase"] == "exhibit"
    page = av.page()
    assert 'data-testid="show2-C1556"' in page and "checked" in page
    av.post(
        {
            "type": "exhibitions",
            "shows0": "0",
            "shows1": "0",
            "shows2": "1",
            "show2": ["C:1556", "D:1563", "E:1570", "F:1577"],
        }
    )
    assert av.state()["phase"] == "steal"
    av.post({"type": "steal", "thief": "3", "steal0": "", "steal1": "", "steal2": ["", "F:1577"]})
    state = av.state()
    assert state["phase"] == "review"
    page = av.page()
    assert "Cid&#39;s exhibition" in page or "Cid's exhibition" in page
    av.post({"type": "next"})
    assert av.state()["turn"] == 2


def test_acting_before_everyone_has_locked_in_is_refused_and_nothing_changes(av):
    av.create()
    before = av.api()["version"]
    page = av.post(
        {"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"}
    )
    assert "Not everyone has locked in yet: waiting for Ann, Bob, Cid." in page.get_data(
        as_text=True
    )
    assert av.api()["version"] == before
