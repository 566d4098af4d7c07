"""The Cech zlodějů calculators `robbery` and `final` (SCORESHEETS.md "Cech zlodějů")."""

import io
import json
import sys

import pytest

from companion_app import cli
from scoring.errors import InvalidSheet
from scoring.sheets import score_sheet


def players(*gold: int) -> list[dict]:
    """Players A, B, C ... with the given gold."""
    return [{"name": chr(65 + seat), "gold": amount} for seat, amount in enumerate(gold)]


def robbery(gold: list[int], robber="A", loot=5, target=4, **extra) -> dict:
    """A robbery sheet."""
    sheet = {"game": "thieves_guild", "kind": "robbery", "players": players(*gold)}
    return score_sheet(
        {**sheet, "robber": robber, "loot_roll": loot, "target_roll": target, **extra}
    )


def test_robbery_the_seeds_example_5_then_4_left_robs_the_fourth_player_of_5():
    result = robbery([13] * 7, direction="left")
    assert result["victim"] == "E" and result["stolen"] == 5 and result["fine"] == 0
    assert [p["gold"] for p in result["players"]] == [18, 13, 13, 13, 8, 13, 13]
    assert result["game_over"] is False


def test_robbery_right_counts_the_other_way():
    assert robbery([13] * 7, direction="right")["victim"] == "D"


def test_robbery_a_pauper_gives_all_and_the_robber_pays_1_and_the_game_is_over():
    result = robbery([13, 13, 13, 13, 3, 13, 13], direction="left")
    assert (result["stolen"], result["fine"], result["game_over"]) == (3, 1, True)
    assert [p["gold"] for p in result["players"]][:5] == [15, 13, 13, 13, 0]


def test_robbery_a_distance_equal_to_the_players_lands_on_the_robber():
    result = robbery([13] * 6, target=6, direction="left")
    assert result["victim"] is None and result["stolen"] == 0
    assert [p["gold"] for p in result["players"]] == [13] * 6


@pytest.mark.parametrize(("target", "victim"), [(1, "B"), (2, "B"), (3, "C"), (4, "C"), (6, "D")])
def test_robbery_four_players_seat_rules(target, victim):
    assert robbery([13] * 4, target=target)["victim"] == victim


@pytest.mark.parametrize(("target", "victim"), [(1, "B"), (2, "C"), (5, "B"), (6, "C")])
def test_robbery_three_players_odd_left_even_right(target, victim):
    assert robbery([20] * 3, target=target)["victim"] == victim


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ({"loot": 0, "direction": "left"}, "loot_roll: must be a die roll from 1 to 6"),
        ({"loot": 7, "direction": "left"}, "loot_roll"),
        ({"target": 0, "direction": "left"}, "target_roll: must be a die roll"),
        ({"direction": "up"}, "direction: must be left or right"),
        ({}, "direction: must be left or right"),
        ({"robber": "Z", "direction": "left"}, "robber: must be the name"),
        ({"direction": "left", "dice": 3}, "sheet: unknown key 'dice'"),
    ],
)
def test_robbery_bad_sheets_are_refused_naming_the_field(sheet, message):
    values = {"loot": sheet.pop("loot", 5), "target": sheet.pop("target", 4)}
    with pytest.raises(InvalidSheet, match=message):
        robbery([13] * 7, **values, **sheet)


def test_robbery_five_players_a_six_target_is_refused():
    with pytest.raises(InvalidSheet, match="target_roll: with five players a six is rolled again"):
        robbery([13] * 5, target=6, direction="left")


@pytest.mark.parametrize("count", [3, 4])
def test_robbery_a_direction_with_three_or_four_players_is_refused(count):
    with pytest.raises(InvalidSheet, match=f"direction: with {count} players the seat rules"):
        robbery([13] * count, target=2, direction="left")


def test_robbery_more_gold_than_the_box_holds_is_refused():
    with pytest.raises(InvalidSheet, match="players: 130 gold in all"):
        robbery([13, 13, 13, 13, 13, 13, 13, 13, 26], direction="left")


def test_robbery_a_robber_without_gold_is_refused():
    with pytest.raises(InvalidSheet, match=r"players\[0\].gold: the robber has no gold"):
        robbery([0, 13, 13, 13, 13, 13, 13], direction="left")


def final(*rows: tuple[int, int]) -> dict:
    """A final sheet from (gold, cards) per player."""
    sheet = [{"name": chr(65 + s), "gold": g, "cards": c} for s, (g, c) in enumerate(rows)]
    return score_sheet({"game": "thieves_guild", "kind": "final", "players": sheet})


def test_final_most_gold_wins():
    result = final((20, 1), (14, 5), (0, 3))
    assert [p["rank"] for p in result["players"]] == [1, 2, 3] and result["winners"] == ["A"]
    assert result["players"][0] == {"name": "A", "gold": 20, "cards": 1, "rank": 1}


def test_final_a_tie_of_gold_goes_to_more_cards_then_is_shared():
    result = final((15, 2), (15, 4), (15, 4), (0, 9))
    assert [p["rank"] for p in result["players"]] == [3, 1, 1, 4]
    assert result["winners"] == ["B", "C"]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([(1, 1), (1, 1)], "players: must be a list of 3 to 9"),
        ([(-1, 1), (1, 1), (1, 1)], r"players\[0\].gold: must be a whole number from 0 to 120"),
        ([(1, 51), (1, 1), (1, 1)], r"players\[0\].cards: must be a whole number from 0 to 50"),
        ([(1, 20), (1, 20), (1, 20)], "players: 60 cards in all"),
    ],
)
def test_final_bad_sheets_are_refused_naming_the_field(rows, message):
    with pytest.raises(InvalidSheet, match=message):
        final(*rows)


def test_a_sheet_without_kind_is_refused():
    with pytest.raises(InvalidSheet, match="kind: must be robbery or final"):
        score_sheet({"game": "thieves_guild", "players": players(13, 13, 13)})


def test_final_duplicate_names_are_refused():
    sheet = [{"name": "Eva", "gold": 1, "cards": 1}] * 3
    with pytest.raises(InvalidSheet, match="already the name"):
        score_sheet({"game": "thieves_guild", "kind": "final", "players": sheet})


def test_companion_score_scores_a_robbery_and_refuses_a_bad_one_with_exit_2(monkeypatch, capsys):
    sheet = {
        "game": "thieves_guild",
        "kind": "robbery",
        "players": players(13, 13, 13, 13),
        "robber": "A",
        "loot_roll": 3,
        "target_roll": 3,
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(sheet)))
    assert cli.main(["score"]) == 0
    assert json.loads(capsys.readouterr().out)["victim"] == "C"
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**sheet, "direction": "left"})))
    assert cli.main(["score"]) == 2
    assert "direction: with 4 players" in json.loads(capsys.readouterr().err)["error"]
