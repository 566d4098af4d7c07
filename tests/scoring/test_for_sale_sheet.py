"""The For Sale score-sheet calculator (SCORESHEETS.md "For Sale") and its three doors."""

import io
import json
import sys

import pytest

from companion_app import cli
from scoring.errors import InvalidSheet
from scoring.sheets import score_sheet

SHEET = {
    "game": "for_sale",
    "players": [
        {"name": "Filip", "checks": [15000, 0, 7000], "coins": 3},
        {"name": "Valerie", "checks": [14000, 9000], "coins": 2},
        {"name": "Jiří", "checks": [13000, 12000], "coins": 0},
    ],
}


def test_money_is_checks_plus_coins_times_1000():
    """§2 "End": money = checks + coins x $1,000; the richest wins."""
    result = score_sheet(SHEET)
    assert [(p["name"], p["money"], p["coins"], p["rank"]) for p in result["players"]] == [
        ("Filip", 25000, 3, 1),
        ("Valerie", 25000, 2, 2),
        ("Jiří", 25000, 0, 3),
    ]
    assert result["winners"] == ["Filip"]


def test_a_tie_of_money_and_coins_is_shared():
    """§2 "End": still tied after coins -> shared win; ranks 1, 1, 3."""
    sheet = {
        "game": "for_sale",
        "players": [
            {"name": "A", "checks": [10000], "coins": 2},
            {"name": "B", "checks": [5000, 5000], "coins": 2},
            {"name": "C", "checks": [2000], "coins": 0},
        ],
    }
    result = score_sheet(sheet)
    assert [p["rank"] for p in result["players"]] == [1, 1, 3]
    assert result["winners"] == ["A", "B"]


def test_missing_checks_and_coins_mean_none():
    """SCORESHEETS.md: missing counts mean 0."""
    sheet = {"game": "for_sale", "players": [{"name": n} for n in "ABC"]}
    assert [p["money"] for p in score_sheet(sheet)["players"]] == [0, 0, 0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": SHEET["players"][:2]}, "list of 3 to 6 players"),
        ({"players": SHEET["players"] * 3}, "list of 3 to 6 players"),
        ({"round": 1}, "unknown key 'round'"),
        ({"players": [*SHEET["players"][:2], {"name": "X", "checks": [1000]}]}, "checks\\[0\\]"),
        (
            {"players": [*SHEET["players"][:2], {"name": "X", "checks": [15000, 15000]}]},
            "a third check",
        ),
        ({"players": [*SHEET["players"][:2], {"name": "X", "coins": -1}]}, "0 or more"),
        ({"players": [*SHEET["players"][:2], {"name": "X", "coins": 29}]}, "only 28 coins"),
        ({"players": [*SHEET["players"][:2], {"name": "X", "coins": True}]}, "0 or more"),
        ({"players": [*SHEET["players"][:2], {"name": "Filip"}]}, "already the name"),
        ({"players": [*SHEET["players"][:2], {"name": "X", "house": 3}]}, "unknown key"),
        ({"players": [*SHEET["players"][:2], {"name": "X", "checks": 3000}]}, "list of check"),
    ],
)
def test_impossible_sheets_are_refused_naming_the_field(change, message):
    """SCORESHEETS.md "Errors": one sentence naming the field and what is wrong."""
    with pytest.raises(InvalidSheet, match=message):
        score_sheet({**SHEET, **change})


def test_coins_are_limited_by_the_player_count():
    """§2 "Coins per player": 6 players are dealt 14 each, so 15 is impossible."""
    players = [{"name": f"P{i}", "coins": 14} for i in range(6)]
    assert score_sheet({"game": "for_sale", "players": players})["winners"] == [
        f"P{i}" for i in range(6)
    ]
    players[5]["coins"] = 15
    with pytest.raises(InvalidSheet, match="players\\[5\\].coins"):
        score_sheet({"game": "for_sale", "players": players})


def test_post_api_score(client):
    """POST /api/score answers the sheet, and 400 with an error for a bad one."""
    response = client.post("/api/score", json=SHEET)
    assert response.status_code == 200
    assert response.get_json() == score_sheet(SHEET)
    bad = client.post("/api/score", json={**SHEET, "players": []})
    assert bad.status_code == 400
    assert "players" in bad.get_json()["error"]


def test_companion_score_on_the_command_line(monkeypatch, capsys):
    """`companion score` reads the sheet on stdin; a bad one exits 2 with the error JSON."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(SHEET)))
    assert cli.main(["score"]) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == ["Filip"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**SHEET, "players": 3})))
    assert cli.main(["score"]) == 2
    assert "players" in json.loads(capsys.readouterr().err)["error"]
