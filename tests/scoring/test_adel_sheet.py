"""The Adel Verpflichtet calculators: auction, castle, final (SCORESHEETS.md)."""

import io
import json
import sys

import pytest

from companion_app import cli
from scoring.errors import InvalidSheet
from scoring.sheets import score_sheet
from tests.scoring.adel_play import hand

GAME = "adel_verpflichtet"
CASTLE = {
    "game": GAME,
    "kind": "castle",
    "players": ["A", "B", "C", "D"],
    "positions": {"A": 12, "B": 9, "C": 9, "D": 4},
    "fraction": [4, 2],
    "exhibitions": {"A": hand("B 1700", "C 1720", "D 1650")},
    "thieves": {"C": 5},
    "detectives": ["D"],
    "jail": [{"owner": "B", "number": 3}],
}


def auction(checks: dict, thieves: list) -> dict:
    """The auction calculator's answer."""
    return score_sheet({"game": GAME, "kind": "auction", "checks": checks, "thieves": thieves})


def test_auction_highest_check_buys_lone_thief_takes_it():
    assert auction({"A": 8, "B": 12}, ["C"]) == {"buyer": "B", "check": 12, "stolen_by": "C"}


def test_auction_two_thieves_take_nothing_no_check_nothing_happens():
    assert auction({"A": 8}, ["B", "C"])["stolen_by"] is None
    assert auction({}, ["C"]) == {"buyer": None, "check": None, "stolen_by": None}


def test_auction_two_equal_check_values_are_an_error():
    with pytest.raises(InvalidSheet, match="checks: A and B both have 8"):
        auction({"A": 8, "B": 8}, [])


def test_castle_example_of_the_contract():
    result = score_sheet(CASTLE)
    assert result["valid"] == {"A": True}
    assert (result["best"], result["second"]) == ("A", None)
    # A +4 (top); D's detective catches C's thief: D is 4th after the exhibition, moves 4.
    assert result["advance"] == {"A": 4, "B": 0, "C": 0, "D": 4}
    assert result["positions"] == {"A": 16, "B": 9, "C": 9, "D": 8}
    assert result["jail"] == [{"owner": "C", "number": 5}, {"owner": "B", "number": 3}]
    assert result["released"] == []


def test_castle_invalid_exhibition_is_reported_and_does_not_advance():
    sheet = {**CASTLE, "exhibitions": {"A": hand("A 1700", "C 1720", "D 1650")}}
    result = score_sheet(sheet)
    assert result["valid"] == {"A": False} and result["best"] is None
    assert result["advance"]["A"] == 0


def test_castle_full_jail_releases_the_last_thief():
    sheet = {
        **CASTLE,
        "players": ["A", "B"],
        "positions": {"A": 3, "B": 1},
        "exhibitions": {},
        "thieves": {"A": 7},
        "detectives": ["B"],
        "jail": [{"owner": "B", "number": 3}, {"owner": "A", "number": 8}],
    }
    result = score_sheet(sheet)
    assert result["jail"] == [{"owner": "A", "number": 7}, {"owner": "B", "number": 3}]
    assert result["released"] == [{"owner": "A", "number": 8}]
    assert result["advance"] == {"A": 0, "B": 2}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fraction": None}, "fraction: enter the top and bottom"),
        ({"fraction": [1, 3]}, "fraction: two whole numbers"),
        ({"detectives": ["A"]}, "detectives: A is also in exhibitions"),
        ({"thieves": {"Z": 5}}, "thieves: Z is not one of the players"),
        ({"jail": [{"owner": "B", "number": 5}]}, r"jail\[0\]: thief 5 is twice"),
        ({"positions": {"A": 1}}, "positions: B is missing"),
        ({"players": ["A"]}, "players: 2 to 5 players"),
        ({"kind": "banquet"}, "kind: must be auction, castle or final"),
        ({"colour": "red"}, '"colour": unknown key'),
    ],
)
def test_castle_impossible_sheets_are_refused_naming_the_field(change, message):
    with pytest.raises(InvalidSheet, match=message):
        score_sheet({**CASTLE, **change})


def test_final_best_plus_8_second_plus_4_ties_by_the_final_exhibition():
    sheet = {
        "game": GAME,
        "kind": "final",
        "positions": {"A": 40, "B": 38, "C": 44},
        "hands": {
            "A": hand("A 1700", "B 1710", "C 1720", "F 1600"),
            "B": hand("C 1650", "D 1800", "E 1810", "F 1820"),
            "C": hand("A 1500", "E 1501"),
        },
    }
    result = score_sheet(sheet)
    rows = {row["name"]: row for row in result["players"]}
    assert rows["B"]["advance"] == 8 and rows["B"]["position"] == 46
    assert rows["A"]["advance"] == 4 and rows["A"]["position"] == 44
    assert rows["A"]["exhibition"] == hand("A 1700", "B 1710", "C 1720")
    assert rows["C"]["exhibition"] == [] and rows["C"]["position"] == 44
    # A and C tie at 44: A's final exhibition is better.
    assert [rows[n]["rank"] for n in "ABC"] == [2, 1, 3]
    assert result["winners"] == ["B"]


def test_post_api_score(client):
    response = client.post("/api/score", json=CASTLE)
    assert response.status_code == 200
    assert response.get_json() == score_sheet(CASTLE)
    bad = client.post("/api/score", json={**CASTLE, "fraction": None})
    assert bad.status_code == 400
    assert "fraction" in bad.get_json()["error"]


def test_companion_score_on_the_command_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(CASTLE)))
    assert cli.main(["score"]) == 0
    assert json.loads(capsys.readouterr().out)["best"] == "A"
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**CASTLE, "jail": 3})))
    assert cli.main(["score"]) == 2
    assert "jail" in json.loads(capsys.readouterr().err)["error"]
