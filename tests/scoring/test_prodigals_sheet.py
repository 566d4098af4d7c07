"""The Klub ztroskotanců calculators (SCORESHEETS.md): final, hyde_park, handicaps."""

import copy
import io
import json
import sys

import pytest

from companion_app import cli
from scoring.errors import InvalidSheet
from scoring.sheets import score_sheet

FINAL = {
    "game": "prodigals_club",
    "kind": "final",
    "competitions": ["property", "election", "society"],
    "players": [
        {"name": "A", "property": {"cash": 2, "tiles": [4]}, "election": 9, "society": 5},
        {"name": "B", "property": {"cash": 9, "tiles": []}, "election": 3, "society": 5},
        {"name": "C", "property": {"cash": 0, "tiles": []}, "election": 12, "society": -2},
    ],
}
HYDE_PARK = {
    "game": "prodigals_club",
    "kind": "hyde_park",
    "losses": [4, 2, 1],
    "megaphones": {"A": 4, "B": 4, "C": 3, "D": 1},
}
HANDICAPS = {
    "game": "prodigals_club",
    "kind": "handicaps",
    "competitions": ["election", "society"],
    "order": ["A", "B", "C", "D"],
}


def test_final_example_with_property_end_scoring():
    # RULES.md §5: property at game end = cash + face values + £3 per remaining tile.
    result = score_sheet(FINAL)
    a, b, c = result["players"]
    assert a == {
        "name": "A",
        "scores": {"property": 9, "election": 9, "society": 5},
        "final": 9,
        "rank": 2,
    }
    assert b["scores"] == {"property": 9, "election": 3, "society": 5} and b["final"] == 9
    # A and B tie on 9; B's second-highest (5) beats A's (9).
    assert (b["rank"], c["rank"]) == (1, 3)
    assert result["winners"] == ["B"]
    assert result["game_over"] is True  # C has property 0


def test_final_ties_on_all_scores_share_the_rank():
    sheet = copy.deepcopy(FINAL)
    sheet["players"][1] = {
        "name": "B",
        "property": {"cash": 0, "tiles": [6]},
        "election": 5,
        "society": 9,
    }
    sheet["players"][2] = {
        "name": "C",
        "property": {"cash": 20, "tiles": []},
        "election": 20,
        "society": 1,
    }
    result = score_sheet(sheet)
    assert [p["rank"] for p in result["players"]] == [1, 1, 3]
    assert result["winners"] == ["A", "B"] and result["game_over"] is False


def test_final_with_two_competitions_breaks_ties_on_the_second():
    sheet = {
        "game": "prodigals_club",
        "kind": "final",
        "competitions": ["election", "society"],
        "players": [
            {"name": "A", "election": 7, "society": 3},
            {"name": "B", "election": 2, "society": 7},
        ],
    }
    assert [p["rank"] for p in score_sheet(sheet)["players"]] == [2, 1]


def test_hyde_park_seed_example_2():
    assert score_sheet(HYDE_PARK) == {"votes": {"A": -4, "B": -4, "C": -1, "D": 1}}


def test_hyde_park_seed_example_1():
    sheet = {**HYDE_PARK, "megaphones": {"R": 2, "Y": 2, "B": 2, "G": 2}}
    assert score_sheet(sheet) == {"votes": {"R": 1, "Y": 1, "B": 1, "G": 1}}


def test_hyde_park_tied_seconds_push_the_next_player_to_fourth():
    # RULES.md §5: tied players share a place; the next player is 4th and loses nothing.
    sheet = {
        **HYDE_PARK,
        "losses": [5, 3, 1],
        "megaphones": {"A": 6, "B": 3, "C": 3, "D": 2, "E": 0},
    }
    assert score_sheet(sheet)["votes"] == {"A": -5, "B": -3, "C": -3, "D": 0, "E": 1}


def test_handicaps_seed_example():
    assert score_sheet(HANDICAPS) == {
        "handicaps": {
            "A": {"money": 0, "votes": 2, "society": 1},
            "B": {"money": 0, "votes": 1, "society": 1},
            "C": {"money": 0, "votes": 1, "society": 0},
            "D": {"money": 0, "votes": 0, "society": 0},
        }
    }


def test_handicaps_with_all_three_competitions_cycle_money_votes_society():
    sheet = {
        **HANDICAPS,
        "competitions": ["property", "election", "society"],
        "order": list("ABCDE"),
    }
    result = score_sheet(sheet)["handicaps"]
    assert result["A"] == {"money": 2, "votes": 1, "society": 1}
    assert result["B"] == {"money": 1, "votes": 1, "society": 1}
    assert result["D"] == {"money": 1, "votes": 0, "society": 0}


def test_scoring_does_not_change_the_sheet():
    for sheet in (FINAL, HYDE_PARK, HANDICAPS):
        before = copy.deepcopy(sheet)
        score_sheet(sheet)
        assert sheet == before


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"kind": "middle"}, "kind"),
        ({"kind": None}, "kind"),
        ({"extra": 1}, "unknown key 'extra'"),
        ({"competitions": ["property"]}, "competitions"),
        ({"competitions": ["property", "chess"]}, "competitions"),
        ({"players": "A"}, "players"),
        ({"players": FINAL["players"][:1]}, "2 to 5 players"),
    ],
)
def test_bad_final_sheets_are_rejected(change, fragment):
    with pytest.raises(InvalidSheet, match=fragment):
        score_sheet({**FINAL, **change})


@pytest.mark.parametrize(
    ("player", "fragment"),
    [
        ({"name": "A", "property": {"cash": 2, "tiles": [4]}, "election": 45, "society": 5}, "44"),
        (
            {"name": "A", "property": {"cash": 2, "tiles": [4]}, "election": "9", "society": 5},
            r"players\[0\].election",
        ),
        (
            {"name": "A", "property": {"cash": -2, "tiles": [4]}, "election": 9, "society": 5},
            "below 0",
        ),
        (
            {"name": "A", "property": {"cash": 2, "tiles": [-4]}, "election": 9, "society": 5},
            "tiles",
        ),
        ({"name": "A", "property": {"cash": 2}, "election": 9, "society": 5}, "missing tiles"),
        ({"name": "A", "property": 3, "election": 9, "society": 5}, "property"),
        ({"name": "A", "election": 9, "society": 5}, "missing property"),
        (
            {"name": "A", "property": {"cash": 2, "tiles": []}, "election": 9, "society": 5.5},
            "society",
        ),
        ({"name": "", "property": {"cash": 2, "tiles": []}, "election": 9, "society": 5}, "name"),
        (
            {"name": "B", "property": {"cash": 2, "tiles": []}, "election": 9, "society": 5},
            "same name",
        ),
    ],
)
def test_bad_final_players_are_rejected(player, fragment):
    sheet = copy.deepcopy(FINAL)
    sheet["players"][0] = player
    with pytest.raises(InvalidSheet, match=fragment):
        score_sheet(sheet)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"losses": [4, 2]}, "losses"),
        ({"losses": [4, -2, 1]}, "losses"),
        ({"megaphones": {"A": 1}}, "2 to 5"),
        ({"megaphones": {"A": 1, "B": -1}}, "megaphones.B"),
        ({"megaphones": [1, 2]}, "megaphones"),
        ({"megaphones": None}, "megaphones"),
    ],
)
def test_bad_hyde_park_sheets_are_rejected(change, fragment):
    with pytest.raises(InvalidSheet, match=fragment):
        score_sheet({**HYDE_PARK, **change})


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"order": ["A"]}, "2 to 5"),
        ({"order": ["A", "A"]}, "same name"),
        ({"order": "AB"}, "order"),
        ({"competitions": []}, "competitions"),
    ],
)
def test_bad_handicap_sheets_are_rejected(change, fragment):
    with pytest.raises(InvalidSheet, match=fragment):
        score_sheet({**HANDICAPS, **change})


@pytest.mark.parametrize("sheet", [FINAL, HYDE_PARK, HANDICAPS])
def test_post_api_score_answers_each_kind(client, sheet):
    response = client.post("/api/score", json=sheet)
    assert response.status_code == 200
    assert response.get_json() == score_sheet(sheet)


def test_post_api_score_rejects_a_bad_sheet_with_400_and_one_error(client):
    response = client.post("/api/score", json={**HYDE_PARK, "losses": "x"})
    assert response.status_code == 400
    body = response.get_json()
    assert set(body) == {"error"} and "losses" in body["error"]


def run_score(monkeypatch, capsys, sheet):
    """`companion score` in-process with the sheet on stdin: (status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(sheet)))
    status = cli.main(["score"])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("sheet", [FINAL, HYDE_PARK, HANDICAPS])
def test_companion_score_answers_each_kind(monkeypatch, capsys, sheet):
    status, out, err = run_score(monkeypatch, capsys, sheet)
    assert (status, err) == (0, "")
    assert json.loads(out) == score_sheet(sheet)


def test_companion_score_rejects_a_bad_sheet_with_status_2(monkeypatch, capsys):
    status, out, err = run_score(monkeypatch, capsys, {**HANDICAPS, "order": ["A"]})
    assert status == 2 and out == ""
    assert "order" in json.loads(err)["error"]
