"""Klub ztroskotanců pages: setup with board values, refusals by their panel, calculators."""

import copy
import re

import pytest

from companion_app.store import get_store
from tests.scoring.prodigals_play import board

NEW = "/tables/new/prodigals_club"
VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')
PLAYERS = ["Ann", "Bob", "Cid"]


def setup_form(**changes) -> dict:
    """The new-table form filled in as a table would (test numbers, not the real setup table)."""
    form = {
        "player": list(PLAYERS),
        "competition": ["property", "election", "society"],
        "messengers": "4",
        "money": "10",
        "districts": "4",
        "district": "1",
        "votes": "30",
        "token0": "2",
        "token1": "3",
        "token2": "4",
        "token3": "5",
        "society_low": "-10",
        "society_high": "40",
    }
    losses = {1: [3, 2, 1], 2: [3, 2, 1], 3: [4, 2, 1], 4: [4, 2, 1], 5: [5, 3, 1]}
    for round_no, column in losses.items():
        for place, loss in enumerate(column, start=1):
            form[f"hp{round_no}_{place}"] = str(loss)
    form.update(changes)
    return form


class Club:
    """A Klub table driven through its forms with the test client."""

    def __init__(self, client, app, **changes) -> None:
        self.client, self.app = client, app
        response = client.post(NEW, data=setup_form(**changes))
        assert response.status_code == 303, response.get_data(as_text=True)
        self.url = response.headers["Location"]

    def page(self) -> str:
        """The table page's HTML."""
        return self.client.get(self.url).get_data(as_text=True)

    def post(self, fields: dict):
        """Post a move form at the page's current version."""
        version = VERSION_FIELD.search(self.page()).group(1)
        return self.client.post(f"{self.url}/moves", data={**fields, "version": version})

    def state(self) -> dict:
        """The stored state."""
        with self.app.app_context():
            return get_store().get(self.url.rsplit("/", 1)[1]).state

    def ordered(self) -> "Club":
        """Enter the turn order Ann, Bob, Cid by hand."""
        response = self.post({"type": "order", "how": "by_hand", "order": ["0", "1", "2"]})
        assert response.headers["Location"] == self.url
        return self


def error_in(page: str, area: str) -> str:
    """The refusal shown in an area of the page (empty if none)."""
    found = re.search(rf'data-error="{area}">(.*?)</p>', page, re.S)
    return found.group(1).strip() if found else ""


@pytest.fixture
def club(client, app):
    """A 3-player Klub table with all three competitions, turn order entered."""
    return Club(client, app).ordered()


# --- new table ---


def test_the_setup_form_asks_for_board_values_and_does_not_invent_them(client):
    page = client.get(NEW).get_data(as_text=True)
    assert 'name="money" value=""' in page and 'name="hp4_1" value=""' in page
    assert 'data-testid="competition-society"' in page


def test_setup_remembers_the_last_used_board_values(client, app):
    Club(client, app, money="17", hp4_1="9")
    page = client.get(f"{NEW}?players=3").get_data(as_text=True)
    assert 'name="money" value="17"' in page and 'name="hp4_1" value="9"' in page
    assert 'name="society_low" value="-10"' in page


def test_rules_5_setup_prefills_only_from_the_last_table_with_as_many_players(client, app):
    """RULES.md §5: starting money, votes and messengers are per player count, so the form
    fills in the values of the last Klub table with the same number of players only."""
    Club(client, app, money="17")
    Club(client, app, player=["Ann", "Bob"], money="12")
    page = client.get(NEW).get_data(as_text=True)
    assert 'name="money" value=""' in page  # the count is not known yet: nothing copied
    assert 'data-testid="prefill-2"' in page and 'data-testid="prefill-3"' in page
    assert 'data-testid="prefill-4"' not in page  # no 4-player table to copy from
    assert 'name="money" value="17"' in client.get(f"{NEW}?players=3").get_data(as_text=True)
    assert 'name="money" value="12"' in client.get(f"{NEW}?players=2").get_data(as_text=True)
    assert 'name="money" value=""' in client.get(f"{NEW}?players=4").get_data(as_text=True)
    assert 'name="money" value=""' in client.get(f"{NEW}?players=x").get_data(as_text=True)


def test_rules_5_the_district_marker_is_drawn_at_random_so_never_prefilled(client, app):
    """RULES.md §5 (seed: the marker starts on a randomly chosen district): not copied."""
    Club(client, app, district="3")
    page = client.get(f"{NEW}?players=3").get_data(as_text=True)
    assert 'name="districts" value="4"' in page and 'name="district" value=""' in page


def test_rules_5_messengers_may_be_left_empty(client, app):
    """RULES.md §5: no scoring rule uses the messengers, so the field is optional."""
    table = Club(client, app, messengers="")
    assert "messengers" not in table.state()["board"]
    assert 'name="messengers" value=""' in client.get(f"{NEW}?players=3").get_data(as_text=True)


@pytest.mark.parametrize(
    ("changes", "area", "fragment"),
    [
        # The field in the form's words, not its key (issue 14: no "money:", "hyde_park:").
        ({"money": "ten"}, "money", "Property: starting money (£): "),
        ({"money": ""}, "money", "Property: starting money (£): "),
        ({"hp3_2": "x"}, "hyde_park", "Hyde Park: "),
        ({"token2": ""}, "society_tokens", "Society: chart values under the 4 tokens"),
        ({"competition": ["society"]}, "competitions", "two or three"),
        ({"district": "9"}, "district", "Property: district marker starts at: "),
        ({"player": ["Ann"]}, "players", "2 to 5"),
    ],
)
def test_a_bad_setup_is_refused_next_to_its_field(client, changes, area, fragment):
    response = client.post(NEW, data=setup_form(**changes))
    assert response.status_code == 400
    shown = error_in(response.get_data(as_text=True), area)
    assert fragment in shown and f"{area}:" not in shown
    with client.application.app_context():
        assert get_store().list_tables() == []


def test_only_the_board_values_of_the_competitions_in_play_are_needed(client, app):
    table = Club(client, app, competition=["election", "society"], money="", districts="")
    assert table.state()["competitions"] == ["election", "society"]


# --- the table page ---


def test_the_order_by_lot_gives_handicaps_shown_as_a_checklist(client, app):
    table = Club(client, app)
    assert 'data-testid="order-draw"' in table.page()
    table.post({"type": "order"})
    state = table.state()
    assert sorted(state["order"]) == [0, 1, 2]
    first = state["order"][0]
    page = table.page()
    assert 'data-testid="handicaps"' in page
    line = re.search(rf'data-testid="handicap-{first}">(.*?)</li>', page, re.S).group(1)
    assert "+£1" in line and "+1 vote" in line and "+1 votes" not in line


def test_property_entries_update_cash_and_tiles(club):
    club.post({"type": "property", "action": "add", "seat": "0", "tiles": "5/1 4/2"})
    club.post({"type": "property", "action": "sell", "seat": "0", "tile": "5/1", "discount": ""})
    player = club.state()["players"][0]
    assert player["cash"] == 11 + 4 and player["tiles"] == [{"value": 4, "district": 2}]
    assert 'data-testid="cash-0">£15<' in club.page()


@pytest.mark.parametrize(
    ("fields", "area", "fragment"),
    [
        ({"type": "votes", "seat": "0", "delta": "abc"}, "votes", "whole number"),
        ({"type": "votes", "seat": "0", "delta": ""}, "votes", "whole number"),
        (
            {"type": "property", "action": "sell", "seat": "1", "tile": "5/1"},
            "property-sell",
            "Bob owns no £5 tile of district 1",
        ),
        (
            {"type": "property", "action": "sell", "seat": "0", "tile": "five"},
            "property-sell",
            "tile",
        ),
        (
            {"type": "property", "action": "set_cash", "seat": "0", "cash": "-3"},
            "property-set_cash",
            "cannot go below £0",
        ),
        (
            {"type": "property", "action": "spend", "seat": "0", "amount": "x"},
            "property-spend",
            "Amount: ",  # the control's name, not the move key "amount"
        ),
        ({"type": "society", "seat": "0", "tokens": ["1", "2", "x", "4"]}, "society", "tokens"),
        ({"type": "hyde_park", "megaphones": ["1", "2", "3"]}, "general", "not possible"),
        ({"type": "reserve", "seat": "0", "place": "9"}, "reserve", "place"),
    ],
)
def test_bad_entries_are_refused_next_to_their_panel_and_change_nothing(
    club, fields, area, fragment
):
    club.post({"type": "property", "action": "add", "seat": "0", "tiles": "5/1"})
    before = copy.deepcopy(club.state())
    response = club.post(fields)
    assert response.status_code == 303
    assert fragment in error_in(club.page(), area).replace("&#39;", "'")
    assert club.state() == before


def test_votes_above_44_are_capped_with_a_visible_notice(club):
    club.post({"type": "votes", "seat": "1", "delta": "20"})
    assert club.state()["players"][1]["votes"] == 44
    assert "Votes capped at 44: Bob would have had 50." in club.page()


def test_spending_more_than_you_have_while_owning_property_spends_all_with_a_notice(club):
    club.post({"type": "property", "action": "add", "seat": "2", "tiles": "3/2"})
    club.post({"type": "property", "action": "spend", "seat": "2", "amount": "25"})
    assert club.state()["players"][2]["cash"] == 0
    assert "Cid had only £10 of £25, so spent all their cash." in club.page()


def test_hyde_park_before_all_megaphones_are_entered_is_refused(club):
    club.post({"type": "end_actions"})
    page = club.page()
    assert 'data-testid="loss-1">−3<' in page  # round 1's column, shown to check against the board
    before = copy.deepcopy(club.state())
    club.post({"type": "hyde_park", "megaphones": ["2", "", "1"]})
    assert "every player's megaphones" in error_in(club.page(), "hyde_park").replace("&#39;", "'")
    assert club.state() == before


def test_history_describes_the_entries(club, client):
    club.post({"type": "votes", "seat": "0", "delta": "-3"})
    club.post({"type": "reserve", "seat": "2", "place": "1"})
    page = client.get(f"{club.url}/history").get_data(as_text=True)
    assert "Turn order: Ann, Bob, Cid" in page and "Ann: votes \u22123" in page  # a true minus sign
    assert "Cid reserved place 1" in page


def test_junk_posts_never_give_a_500(club):
    junk = [
        {"type": "property"},
        {
            "type": "property",
            "action": "exchange",
            "seat": "0",
            "give": "",
            "take": "1/1",
            "limit": "z",
        },
        {"type": "society", "seat": "x"},
        {"type": "hyde_park"},
        {"type": "old_lady", "exempt": ["x"]},
        {"type": "order", "how": "by_hand", "order": ["0", "0", "a"]},
        {"type": "votes", "seat": "99", "delta": "1"},
        {"type": ""},
    ]
    for fields in junk:
        assert club.post(fields).status_code == 303
        assert club.client.get(club.url).status_code == 200


# --- the calculators (SCORESHEETS.md) ---


def test_the_calculator_page_ranks_a_final_sheet(client):
    form = {
        "kind": "final",
        "competition": ["property", "election", "society"],
        "f0.name": "A",
        "f0.cash": "2",
        "f0.tiles": "4",
        "f0.election": "9",
        "f0.society": "5",
        "f1.name": "B",
        "f1.cash": "9",
        "f1.tiles": "",
        "f1.election": "3",
        "f1.society": "5",
    }
    response = client.post("/score/prodigals_club", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "Winner: B" in page
    assert '<td data-cat="property">9</td>' in page


def test_the_calculator_page_applies_hyde_park_and_handicaps(client):
    form = {"kind": "hyde_park", "loss0": "4", "loss1": "2", "loss2": "1"}
    for index, (name, count) in enumerate([("A", 4), ("B", 4), ("C", 3), ("D", 1)]):
        form[f"h{index}.name"], form[f"h{index}.megaphones"] = name, str(count)
    page = client.post("/score/prodigals_club", data=form).get_data(as_text=True)
    # Changes carry a true minus sign (U+2212), read back here as "-".
    shown = re.findall(r'data-name="(\w)">\w: ([+\u2212]?\d)', page)
    assert [(name, change.replace("\u2212", "-")) for name, change in shown] == [
        ("A", "-4"),
        ("B", "-4"),
        ("C", "-1"),
        ("D", "+1"),
    ]
    form = {"kind": "handicaps", "hcompetition": ["election", "society"]}
    form.update({f"order{i}": name for i, name in enumerate("ABCD")})
    page = client.post("/score/prodigals_club", data=form).get_data(as_text=True)
    assert "A: +£0, +2 votes, society token 1 up" in page


@pytest.mark.parametrize(
    ("form", "field"),
    [
        (
            {
                "kind": "final",
                "competition": ["property", "election"],
                "f0.name": "A",
                "f0.cash": "x",
                "f0.election": "3",
                "f1.name": "B",
                "f1.cash": "1",
                "f1.election": "2",
            },
            "f0.cash",
        ),
        (
            {
                "kind": "final",
                "competition": ["property", "election"],
                "f0.name": "A",
                "f0.cash": "1",
                "f0.election": "50",
                "f1.name": "B",
                "f1.cash": "1",
                "f1.election": "2",
            },
            "f0.election",
        ),
        (
            {
                "kind": "hyde_park",
                "loss0": "4",
                "loss1": "2",
                "loss2": "z",
                "h0.name": "A",
                "h0.megaphones": "1",
                "h1.name": "B",
                "h1.megaphones": "2",
            },
            "hyde_park.losses",
        ),
        (
            {"kind": "handicaps", "hcompetition": ["election"], "order0": "A", "order1": "B"},
            "handicaps.competitions",
        ),
    ],
)
def test_calculator_errors_show_next_to_their_field(client, form, field):
    response = client.post("/score/prodigals_club", data=form)
    assert response.status_code == 400
    assert error_in(response.get_data(as_text=True), re.escape(field))


# --- the JSON API (docs/games/prodigals_club.md moves) ---


def test_a_table_through_the_json_api(client):
    created = client.post(
        "/api/tables",
        json={
            "game": "prodigals_club",
            "players": PLAYERS,
            "competitions": ["election", "society"],
            "board": board(),
        },
    )
    assert created.status_code == 201
    table = created.get_json()
    url = created.headers["Location"]
    moved = client.post(
        f"{url}/moves", json={"version": table["version"], "move": {"type": "order"}}
    )
    assert moved.status_code == 200
    body = moved.get_json()
    assert sorted(body["state"]["order"]) == [0, 1, 2]
    refused = client.post(
        f"{url}/moves",
        json={"version": body["version"], "move": {"type": "votes", "seat": 0, "delta": "x"}},
    )
    assert refused.status_code == 400 and "delta" in refused.get_json()["error"]
    assert client.get(url).get_json()["version"] == body["version"]
    bad = client.post(
        "/api/tables",
        json={"game": "prodigals_club", "players": PLAYERS, "competitions": ["society"]},
    )
    assert bad.status_code == 400 and "competitions" in bad.get_json()["error"]


def test_rules_5_a_society_form_with_tokens_and_a_different_sum_is_refused(club):
    """RULES.md §5 "Society": the sum typed beside the tokens is checked, not dropped."""
    fields = {"type": "society", "seat": "0", "tokens": ["1", "2", "3", "4"]}
    club.post({**fields, "sum": "9"})
    assert "Society score: the 4 token values add up to 10" in error_in(club.page(), "society")
    assert club.state()["players"][0]["society"] == 14
    assert club.post({**fields, "sum": "10"}).status_code == 303
    assert club.state()["players"][0]["society"] == 10
