"""The Legacy (Dědictví) combination of Klub ztroskotanců (RULES.md §5 "Legacy combination")."""

import copy
import io
import json
import sys

import pytest

from companion_app import cli
from scoring import prodigals_club as club
from scoring.errors import IllegalMove, InvalidSetup, InvalidSheet
from scoring.sheets import score_sheet
from tests.scoring.prodigals_play import finish_round, play, setup, started

LEGACY_ELECTION = ["legacy", "election"]


def legacy(seat, action, **fields):
    """A Legacy move."""
    return {"type": "legacy", "seat": seat, "action": action, **fields}


def refused(state, move, fragment):
    """The move is refused with a message containing `fragment` and the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove, match=fragment):
        club.apply(state, move)
    assert state == before


def legacy_score(state, seat):
    """The player's Legacy score on the live scoreboard."""
    return club.live_standings(state)[seat]["scores"]["legacy"]


# --- setup ---


@pytest.mark.parametrize("others", [["election"], ["society"], ["election", "society"]])
def test_legacy_combines_with_election_society_or_both_and_everyone_starts_with_70(others):
    # RULES.md §5 "Legacy combination": start £70; seed: combine with election, society or both.
    state = club.new_table(setup(competitions=["legacy", *others], money=None, districts=None))
    assert state["competitions"] == ["legacy", *others]
    assert [p["legacy"]["cash"] for p in state["players"]] == [70, 70, 70]
    assert all(p["cash"] is None and p["legacy"]["properties"] == [] for p in state["players"])


def test_legacy_hands_out_no_handicaps_at_the_start():
    # Seed: "Na začátku hry nepřidělujte nikomu žádné handicapy."
    state = play(
        club.new_table(setup(competitions=["legacy", "election", "society"])),
        {"type": "order", "order": [2, 0, 1]},
    )
    assert state["handicaps"] == [{"money": 0, "votes": 0, "society": 0}] * 3
    assert [p["votes"] for p in state["players"]] == [30, 30, 30]
    assert [p["legacy"]["cash"] for p in state["players"]] == [70, 70, 70]


@pytest.mark.parametrize(
    ("competitions", "fragment"),
    [
        (["property", "legacy"], "Legacy replaces the property competition"),
        (["property", "legacy", "election"], "Legacy replaces the property competition"),
        (["legacy"], "two or three"),
        (["legacy", "legacy"], "two or three"),
    ],
)
def test_legacy_replaces_property_and_still_needs_two_or_three_competitions(competitions, fragment):
    with pytest.raises(InvalidSetup, match=fragment):
        club.new_table(setup(competitions=competitions))


def test_with_legacy_the_last_will_rules_set_the_order_so_nothing_is_reserved():
    # Seed: the central board's turn-order space is not used; Last Will decides the order.
    state = started(competitions=LEGACY_ELECTION)
    options = club.actions(state)
    assert options["legacy"] and options["places"] == [] and options["reserving"] == []
    assert not [m for m in club.legal_moves(state) if m["type"] == "reserve"]
    refused(state, {"type": "reserve", "seat": 0, "place": 1}, "Last Will")


# --- the Legacy track ---


def test_legacy_score_is_cash_plus_current_market_values():
    # Seed: "skóre v Dědictví je dáno součtem peněz a aktuální tržní hodnoty nemovitostí".
    state = play(
        started(competitions=LEGACY_ELECTION),
        legacy(0, "spend", amount=20),
        legacy(0, "add", label="Statek", value=12),
        legacy(0, "add", value=7),
        legacy(1, "receive", amount=5),
    )
    ann = state["players"][0]["legacy"]
    assert ann["cash"] == 50
    assert ann["properties"] == [
        {"id": 1, "label": "Statek", "value": 12},
        {"id": 2, "label": "", "value": 7},
    ]
    assert legacy_score(state, 0) == 50 + 12 + 7 and legacy_score(state, 1) == 75


def test_a_property_value_update_changes_the_score():
    state = play(started(competitions=LEGACY_ELECTION), legacy(0, "add", value=12))
    state = play(state, legacy(0, "value", property=1, value=4))
    assert state["players"][0]["legacy"]["properties"][0]["value"] == 4
    assert legacy_score(state, 0) == 74
    assert state["changes"][0][-1] == {
        "round": 1,
        "competition": "legacy",
        "what": "legacy:value",
        "before": 82,
        "after": 74,
    }


def test_removing_a_property_drops_its_value_from_the_score():
    state = play(
        started(competitions=LEGACY_ELECTION),
        legacy(2, "add", label="A", value=10),
        legacy(2, "add", label="B", value=6),
        legacy(2, "remove", property=1),
    )
    assert [p["label"] for p in state["players"][2]["legacy"]["properties"]] == ["B"]
    assert legacy_score(state, 2) == 76
    # Ids are not reused, so a later property never takes a removed one's place.
    state = play(state, legacy(2, "add", value=1))
    assert [p["id"] for p in state["players"][2]["legacy"]["properties"]] == [2, 3]


def test_legacy_cash_is_not_floored_the_table_enters_what_happened():
    # Our sources are silent on Legacy debt: the app accepts what the table enters.
    state = play(started(competitions=LEGACY_ELECTION), legacy(0, "add", value=9))
    state = play(state, legacy(0, "spend", amount=75), legacy(1, "set_cash", cash=-3))
    assert state["players"][0]["legacy"]["cash"] == -5 and legacy_score(state, 0) == 4
    assert state["players"][1]["legacy"]["cash"] == -3


def test_legacy_has_no_tile_penalty_at_the_game_end():
    # The £3 per tile belongs to the property competition (RULES.md §5 "Property").
    state = play(started(competitions=LEGACY_ELECTION), legacy(0, "add", value=8))
    result = club.results(state)
    assert result["players"][0]["breakdown"]["legacy"] == 78
    assert result["categories"] == ["legacy", "election"]


@pytest.mark.parametrize(
    ("move", "fragment"),
    [
        (legacy(0, "spend", amount="ten"), "amount"),
        (legacy(0, "spend", amount=0), "amount"),
        (legacy(0, "receive", amount=2.5), "amount"),
        (legacy(0, "set_cash", cash="x"), "cash"),
        (legacy(0, "add", value="x"), "value"),
        (legacy(0, "add", value=-1), "value"),
        (legacy(0, "add", value=3, label="x" * 41), "label"),
        (legacy(0, "add", value=3, label=5), "label"),
        (legacy(0, "value", property=9, value=3), "Ann owns no Legacy property 9"),
        (legacy(1, "value", property=1, value=3), "Bob owns no Legacy property 1"),
        (legacy(0, "value", property=1, value="high"), "value"),
        (legacy(0, "remove", property="1"), "owns no Legacy property"),
        (legacy(0, "remove", property=None), "owns no Legacy property"),
        (legacy(0, "sell"), "unknown Legacy entry"),
        (legacy(5, "spend", amount=1), "seat"),
        ({"type": "property", "seat": 0, "action": "spend", "amount": 1}, "not in play"),
    ],
)
def test_bad_legacy_entries_are_refused_and_change_nothing(move, fragment):
    state = play(started(competitions=LEGACY_ELECTION), legacy(0, "add", value=5))
    refused(state, move, fragment)


def test_legacy_entries_are_refused_where_legacy_is_not_played_or_not_now():
    refused(started(), legacy(0, "spend", amount=1), "Legacy combination is not in play")
    state = play(started(competitions=["legacy", "society"]), {"type": "end_actions"})
    assert state["phase"] == "old_lady"
    refused(state, legacy(0, "spend", amount=1), "not possible at this step")


# --- end of round, end of game ---


def test_a_legacy_score_at_0_or_below_at_the_end_of_a_round_ends_the_game():
    # RULES.md §5 "End of game" (seed: still applies with Legacy).
    state = play(started(competitions=LEGACY_ELECTION), legacy(1, "spend", amount=70))
    state = finish_round(state, megaphones=[1, 1, 1])
    assert state["phase"] == "game_over" and state["end_reason"] == "zero"
    assert state["rounds"][-1]["scores"][1] == {"legacy": 0, "election": 31}
    # Bob's highest competition (31 votes) is the final score; everyone else is at 70+.
    assert state["ranks"] == [2, 1, 2]
    assert club.results(state)["players"][1]["winner"] is True


def test_a_legacy_score_that_dips_to_0_mid_round_and_rises_does_not_end_the_game():
    state = play(
        started(competitions=LEGACY_ELECTION),
        legacy(0, "spend", amount=70),
        legacy(0, "add", value=3),
    )
    state = finish_round(state, megaphones=[1, 1, 1])
    assert state["phase"] == "round_end"
    assert state["rounds"][-1]["scores"][0]["legacy"] == 3


def test_round_five_ends_a_legacy_game_and_final_is_the_highest_competition():
    state = started(competitions=["legacy", "society"])
    state = play(state, legacy(0, "spend", amount=60), {"type": "society", "seat": 0, "sum": 12})
    for _ in range(5):
        state = finish_round(state)
        if state["phase"] == "round_end":
            state = club.apply(state, {"type": "end_round"})
    assert state["phase"] == "game_over" and state["end_reason"] == "rounds"
    result = club.results(state)
    assert [p["score"] for p in result["players"]] == [12, 70, 70]
    assert [p["rank"] for p in result["players"]] == [1, 2, 2]
    assert [entry["cumulative"][0] for entry in result["rounds"]] == [12] * 5


def test_summary_and_device_display_follow_a_legacy_game():
    state = play(started(competitions=LEGACY_ELECTION), legacy(0, "spend", amount=50))
    assert club.summary(state)["totals"] == [30, 70, 70]
    assert club.device_display(state) == {
        "police": 1,
        "limit": 5,
        "round": 1,
        "rounds": 5,
        "seats": 3,
    }


# --- the calculator (documented extension of SCORESHEETS.md) ---

LEGACY_SHEET = {
    "game": "prodigals_club",
    "kind": "final",
    "competitions": ["legacy", "election", "society"],
    "players": [
        {"name": "A", "legacy": {"cash": 3, "properties": [4, 2]}, "election": 8, "society": 5},
        {"name": "B", "legacy": {"cash": 12, "properties": []}, "election": 3, "society": 9},
        {"name": "C", "legacy": {"cash": -4, "properties": [4]}, "election": 20, "society": 2},
    ],
}


def test_the_final_calculator_scores_legacy_as_cash_plus_market_values():
    result = score_sheet(LEGACY_SHEET)
    a, b, c = result["players"]
    assert a["scores"] == {"legacy": 9, "election": 8, "society": 5} and a["final"] == 9
    assert b["scores"]["legacy"] == 12 and b["final"] == 12
    assert c["scores"]["legacy"] == 0 and c["final"] == 20
    assert [p["rank"] for p in result["players"]] == [1, 2, 3]
    assert result["winners"] == ["A"] and result["game_over"] is True


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"competitions": ["property", "legacy"]}, "Legacy replaces the property competition"),
        ({"competitions": ["legacy"]}, "two or three"),
    ],
)
def test_legacy_calculator_sheets_need_a_valid_set_of_competitions(change, fragment):
    with pytest.raises(InvalidSheet, match=fragment):
        score_sheet({**LEGACY_SHEET, **change})


@pytest.mark.parametrize(
    ("legacy_entry", "fragment"),
    [
        ({"cash": "3", "properties": []}, r"players\[0\].legacy.cash"),
        ({"cash": 3, "properties": [-1]}, r"players\[0\].legacy.properties\[0\]"),
        ({"cash": 3, "properties": ["x"]}, r"legacy.properties\[0\]"),
        ({"cash": 3, "properties": 4}, "list of market values"),
        ({"cash": 3}, "missing properties"),
        ({"cash": 3, "properties": [], "tiles": []}, "unknown key 'tiles'"),
        (7, "cash and properties"),
    ],
)
def test_bad_legacy_calculator_entries_are_refused(legacy_entry, fragment):
    sheet = copy.deepcopy(LEGACY_SHEET)
    sheet["players"][0]["legacy"] = legacy_entry
    before = copy.deepcopy(sheet)
    with pytest.raises(InvalidSheet, match=fragment):
        score_sheet(sheet)
    assert sheet == before


def test_the_handicap_calculator_gives_nothing_with_legacy():
    sheet = {
        "game": "prodigals_club",
        "kind": "handicaps",
        "competitions": ["legacy", "election"],
        "order": ["A", "B", "C"],
    }
    zero = {"money": 0, "votes": 0, "society": 0}
    assert score_sheet(sheet) == {"handicaps": {"A": zero, "B": zero, "C": zero}}


def test_post_api_score_takes_a_legacy_sheet(client):
    response = client.post("/api/score", json=LEGACY_SHEET)
    assert response.status_code == 200
    assert response.get_json()["players"][0]["scores"]["legacy"] == 9
    bad = copy.deepcopy(LEGACY_SHEET)
    bad["players"][1]["legacy"]["properties"] = ["x"]
    refused_response = client.post("/api/score", json=bad)
    assert refused_response.status_code == 400
    assert "players[1].legacy.properties[0]" in refused_response.get_json()["error"]


def test_companion_score_takes_a_legacy_sheet(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(LEGACY_SHEET)))
    assert cli.main(["score"]) == 0
    assert json.loads(capsys.readouterr().out) == score_sheet(LEGACY_SHEET)
    bad = copy.deepcopy(LEGACY_SHEET)
    bad["players"][0]["legacy"]["cash"] = "lots"
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(bad)))
    assert cli.main(["score"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "players[0].legacy.cash" in json.loads(err)["error"]
