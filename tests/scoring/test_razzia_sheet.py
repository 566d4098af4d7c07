"""The Razzia! score sheet (SCORESHEETS.md "Razzia!", "Errors" and "Ranks")."""

import copy
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import InvalidSheet
from scoring.names import clean, lone_mark, look_key, refused_character, same_name_key
from scoring.razzia.cards import (
    BUSINESSES,
    CARD_COUNTS,
    CHECK_SETS,
    JEWELRY,
    MAX_PLAYERS,
    MIN_PLAYERS,
    checks_in_play,
)
from scoring.razzia.score import CATEGORIES
from scoring.sheets import calculator_names, score_sheet

#: The player of the SCORESHEETS.md example sheet.
FELIX = {
    "name": "Felix",
    "cars": 1,
    "drivers": 3,
    "gold": 0,
    "thieves": 0,
    "bodyguards": 4,
    "jewelry": {"ring": 2, "watch": 2, "necklace": 3},
    "businesses": {"restaurant": 4, "casino": 3, "film": 1},
    "checks": [2000, 9000, 13000],
}


def example_table() -> dict:
    """The SCORESHEETS.md example player at a legal 4-player round-3 table (centre: 12,000)."""
    return {
        "game": "razzia",
        "round": 3,
        "players": [
            copy.deepcopy(FELIX),
            {
                "name": "Elke",
                "cars": 5,
                "thieves": 2,
                "bodyguards": 4,
                "jewelry": {"brooch": 2, "ring": 1},
                "checks": [3000, 7000, 11000],
            },
            {
                "name": "Miriam",
                "drivers": 2,
                "gold": 2,
                "bodyguards": 2,
                "checks": [1000, 6000, 10000],
            },
            {
                "name": "Denis",
                "cars": 3,
                "drivers": 1,
                "bodyguards": 1,
                "jewelry": {"diamond": 1},
                "businesses": {
                    "transport": 4,
                    "nightclub": 3,
                    "horse_racing": 1,
                    "real_estate": 1,
                    "film": 1,
                },
                "checks": [4000, 5000, 8000],
            },
        ],
    }


def round_one_table() -> dict:
    """A small legal round-1 sheet without checks."""
    return {
        "game": "razzia",
        "round": 1,
        "players": [{"name": "Ann", "cars": 2, "drivers": 1}, {"name": "Bob", "bodyguards": 1}],
    }


def rejected(sheet: object, field: str) -> str:
    """Score a sheet that must be rejected; return the message, which names `field` first."""
    with pytest.raises(InvalidSheet) as caught:
        score_sheet(sheet)
    message = str(caught.value)
    assert message.startswith(f"{field}:"), message
    assert message.endswith("."), message
    return message


# --- The example sheet ------------------------------------------------------------------


def test_example_sheet_round_trips_with_contract_keys_and_values():
    """SCORESHEETS.md: output players with name, points (7 categories), total, rank; winners."""
    result = score_sheet(example_table())
    assert result["game"] == "razzia"
    assert result["round"] == 3
    assert [set(player) >= {"name", "points", "total", "rank"} for player in result["players"]]
    felix, elke, miriam, denis = result["players"]
    assert felix == {
        "name": "Felix",
        "points": {
            "cars_drivers": 4,
            "jewelry": 5,
            "gold": 0,
            "thieves": 0,
            "bodyguards": 5,
            "businesses": 18,
            "checks": 5,
        },
        "total": 37,
        "rank": 1,
    }
    assert elke["points"] == {
        "cars_drivers": 0,
        "jewelry": 0,
        "gold": 0,
        "thieves": 4,
        "bodyguards": 5,
        "businesses": 0,
        "checks": 0,
    }
    assert miriam["points"] == {
        "cars_drivers": 2,
        "jewelry": -5,
        "gold": 6,
        "thieves": 0,
        "bodyguards": 0,
        "businesses": 0,
        "checks": -5,
    }
    assert denis["points"]["businesses"] == 20
    assert [p["total"] for p in result["players"]] == [37, 9, -2, 17]
    assert [p["rank"] for p in result["players"]] == [1, 3, 4, 2]
    assert result["winners"] == ["Felix"]


def test_example_sheet_as_printed_has_too_few_players():
    """The printed example lists one player; a Razzia! sheet needs 2 to 5 players."""
    sheet = {"game": "razzia", "round": 3, "players": [copy.deepcopy(FELIX)]}
    assert "2 to 5" in rejected(sheet, "players")


def test_rounds_1_and_2_score_businesses_and_checks_zero():
    """SCORESHEETS.md: in rounds 1-2 businesses and checks are 0 (checks still validated)."""
    for round_no in (1, 2):
        sheet = example_table() | {"round": round_no}
        for player in score_sheet(sheet)["players"]:
            assert player["points"]["businesses"] == 0
            assert player["points"]["checks"] == 0


def test_rounds_1_and_2_checks_are_optional():
    """`checks` is required only in round 3."""
    result = score_sheet(round_one_table())
    assert [p["total"] for p in result["players"]] == [3 - 5 - 2, -5 + 5]


def test_missing_counts_mean_zero():
    """SCORESHEETS.md: missing counts mean 0."""
    sheet = {"game": "razzia", "round": 2, "players": [{"name": "A"}, {"name": "B"}]}
    result = score_sheet(sheet)
    assert result["winners"] == ["A", "B"]
    assert [p["rank"] for p in result["players"]] == [1, 1]
    assert all(p["total"] == -5 for p in result["players"])


def test_ties_share_rank_and_all_rank_1_players_win():
    """Ranks: 1 + players strictly better, so ties share (1, 1, 3); winners in input order."""
    sheet = {
        "game": "razzia",
        "round": 1,
        "players": [
            {"name": "A", "gold": 1},
            {"name": "B"},
            {"name": "C", "gold": 1},
        ],
    }
    result = score_sheet(sheet)
    assert [p["rank"] for p in result["players"]] == [1, 3, 1]
    assert result["winners"] == ["A", "C"]


def test_scoring_does_not_change_the_sheet():
    """The calculator only reads the sheet."""
    sheet = example_table()
    before = copy.deepcopy(sheet)
    score_sheet(sheet)
    assert sheet == before


# --- Errors: unknown game and malformed sheets ------------------------------------------


@pytest.mark.parametrize("game", ["x", "Razzia", "chess"])
def test_unknown_game_is_rejected_with_the_games_scored(game):
    """A game without a calculator is named in the error, with the games that have one."""
    with pytest.raises(InvalidSheet) as caught:
        score_sheet({"game": game, "players": []})
    scored = ", ".join(calculator_names())
    assert "razzia" in calculator_names()
    assert str(caught.value) == f"Unknown game '{game}'; this calculator scores: {scored}."


def test_non_string_game_is_rejected():
    """An unhashable or non-text game is an unknown game, not a crash."""
    with pytest.raises(InvalidSheet, match="Unknown game"):
        score_sheet({"game": ["razzia"]})


def test_missing_game_is_rejected():
    """The sheet must say which game it scores."""
    rejected({"round": 1, "players": []}, "game")


def test_sheet_that_is_not_an_object_is_rejected():
    """A sheet is a JSON object."""
    rejected([example_table()], "sheet")


def test_unknown_top_level_key_is_rejected():
    """Unknown keys are rejected."""
    assert "'rounds'" in rejected(example_table() | {"rounds": 3}, "sheet")


def test_unknown_player_key_is_rejected():
    """Unknown player keys are rejected."""
    sheet = example_table()
    sheet["players"][2]["diamonds"] = 1
    assert "'diamonds'" in rejected(sheet, "players[2]")


def test_player_that_is_not_an_object_is_rejected():
    """Each player entry is an object."""
    sheet = example_table()
    sheet["players"][1] = "Elke"
    rejected(sheet, "players[1]")


@pytest.mark.parametrize("round_no", [True, False, 0, 4, "3", 3.0, None])
def test_round_must_be_1_2_or_3(round_no):
    """round: 1, 2 or 3; booleans and other values are rejected."""
    rejected(example_table() | {"round": round_no}, "round")


def test_missing_round_is_rejected():
    """round is required."""
    sheet = example_table()
    del sheet["round"]
    rejected(sheet, "round")


# --- Errors: players ------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 6])
def test_wrong_number_of_players_is_rejected(count):
    """Razzia! is played by 2 to 5 players."""
    players = [{"name": f"P{i}"} for i in range(count)]
    message = rejected({"game": "razzia", "round": 1, "players": players}, "players")
    assert f"{count} given" in message


def test_players_must_be_a_list():
    """players is a list."""
    rejected({"game": "razzia", "round": 1, "players": {"name": "A"}}, "players")


def test_missing_players_is_rejected():
    """players is required."""
    rejected({"game": "razzia", "round": 1}, "players")


@pytest.mark.parametrize("name", ["", "   ", 7, None])
def test_name_must_be_non_empty_text(name):
    """Each player has a non-empty name."""
    sheet = round_one_table()
    sheet["players"][1]["name"] = name
    rejected(sheet, "players[1].name")


def test_missing_name_is_rejected():
    """Each player has a name."""
    sheet = round_one_table()
    del sheet["players"][0]["name"]
    rejected(sheet, "players[0].name")


def test_duplicate_name_is_rejected():
    """Names are unique."""
    sheet = round_one_table()
    sheet["players"][1]["name"] = "Ann"
    assert "players[0]" in rejected(sheet, "players[1].name")


# --- Errors: counts ------------------------------------------------------------------


@pytest.mark.parametrize("value", [-1, 1.5, 2.0, "2", True, None, [1]])
def test_counts_must_be_whole_numbers_of_0_or_more(value):
    """Negative or non-integer counts are rejected; a bool is not a count."""
    sheet = round_one_table()
    sheet["players"][0]["drivers"] = value
    rejected(sheet, "players[0].drivers")


@pytest.mark.parametrize("value", [-2, 0.5, False])
def test_jewelry_counts_must_be_whole_numbers_of_0_or_more(value):
    """The same holds inside jewelry."""
    sheet = example_table()
    sheet["players"][3]["jewelry"]["diamond"] = value
    rejected(sheet, "players[3].jewelry.diamond")


def test_negative_business_count_is_rejected():
    """The same holds inside businesses."""
    sheet = example_table()
    sheet["players"][0]["businesses"]["casino"] = -3
    rejected(sheet, "players[0].businesses.casino")


def test_unknown_jewelry_kind_is_rejected():
    """Jewelry kinds: ring, watch, brooch, necklace, diamond."""
    sheet = example_table()
    sheet["players"][1]["jewelry"]["emerald"] = 1
    assert "ring, watch, brooch, necklace or diamond" in rejected(
        sheet, "players[1].jewelry.emerald"
    )


def test_unknown_business_kind_is_rejected():
    """Business kinds are the seven of the game (horse_racing with an underscore)."""
    sheet = example_table()
    sheet["players"][0]["businesses"]["horse racing"] = 1
    rejected(sheet, "players[0].businesses.horse racing")


@pytest.mark.parametrize("field", ["jewelry", "businesses"])
def test_jewelry_and_businesses_must_be_objects(field):
    """jewelry and businesses are {kind: count} objects."""
    sheet = example_table()
    sheet["players"][2][field] = ["ring"]
    rejected(sheet, f"players[2].{field}")


def test_five_rings_across_the_table_is_rejected():
    """More rings at the table than the game's 4 is impossible."""
    sheet = example_table()
    sheet["players"][1]["jewelry"]["ring"] = 3
    message = rejected(sheet, "players[1].jewelry.ring")
    assert message == "players[1].jewelry.ring: 5 rings at the table, but the game has only 4."


def test_seventeen_cars_across_the_table_is_rejected():
    """The game has 16 cars."""
    sheet = example_table()
    sheet["players"][3]["cars"] = 11
    message = rejected(sheet, "players[3].cars")
    assert "17 cars" in message and "only 16" in message


def test_one_player_with_too_many_cards_is_rejected():
    """The limit also holds for a single player: 4 gold coins where the game has 3."""
    sheet = round_one_table()
    sheet["players"][1]["gold"] = 4
    assert "4 gold coins" in rejected(sheet, "players[1].gold")


def test_five_of_a_business_across_the_table_is_rejected():
    """Each business kind has 4 cards."""
    sheet = example_table()
    sheet["players"][1]["businesses"] = {"restaurant": 1}
    assert "5 restaurant cards" in rejected(sheet, "players[1].businesses.restaurant")


def test_every_card_count_limit_is_enforced():
    """Each loot kind is limited to its CARD_COUNTS across the table."""
    for kind in JEWELRY + BUSINESSES:
        field = "jewelry" if kind in JEWELRY else "businesses"
        sheet = round_one_table()
        sheet["players"][0][field] = {kind: CARD_COUNTS[kind]}
        sheet["players"][1][field] = {kind: 1}
        rejected(sheet, f"players[1].{field}.{kind}")


# --- Errors: checks -------------------------------------------------------------------


def test_checks_missing_in_round_3_is_rejected():
    """checks is required in round 3."""
    sheet = example_table()
    del sheet["players"][2]["checks"]
    rejected(sheet, "players[2].checks")


def test_checks_must_be_a_list():
    """checks is a list of values."""
    sheet = example_table()
    sheet["players"][2]["checks"] = 17000
    rejected(sheet, "players[2].checks")


def test_check_value_not_in_play_for_four_players_is_rejected():
    """With 4 players the checks in play are 1,000 to 13,000."""
    sheet = example_table()
    sheet["players"][3]["checks"][2] = 14000
    assert "14000" in rejected(sheet, "players[3].checks[2]")


def test_check_value_not_in_play_for_two_players_is_rejected():
    """With 2 players the checks in play are 1,000 to 9,000 (checked in round 1 too)."""
    sheet = round_one_table()
    sheet["players"][0]["checks"] = [2000, 10000]
    rejected(sheet, "players[0].checks[1]")


@pytest.mark.parametrize("value", [1500, 0, -2000, "2000", 2000.0, True, None])
def test_check_value_must_be_a_check_of_the_game(value):
    """Check values are whole thousands of the sets; other values are rejected."""
    sheet = round_one_table()
    sheet["players"][1]["checks"] = [value]
    rejected(sheet, "players[1].checks[0]")


def test_duplicate_check_across_the_table_is_rejected():
    """Each check exists once."""
    sheet = example_table()
    sheet["players"][2]["checks"][0] = 9000
    message = rejected(sheet, "players[2].checks[0]")
    assert "players[0].checks[1]" in message


def test_duplicate_check_of_one_player_is_rejected():
    """Each check exists once, also within one player's checks (round 1 included)."""
    sheet = round_one_table()
    sheet["players"][0]["checks"] = [5000, 5000]
    rejected(sheet, "players[0].checks[1]")


def test_too_few_checks_in_round_3_is_rejected():
    """Everyone ends the game with as many checks as they were dealt (3 with 4 players)."""
    sheet = example_table()
    sheet["players"][1]["checks"] = [3000, 7000]
    assert "2 checks" in rejected(sheet, "players[1].checks")


def test_too_many_checks_in_round_3_is_rejected():
    """A player cannot hold the centre check as well as all of theirs."""
    sheet = example_table()
    sheet["players"][1]["checks"].append(12000)
    assert "4 checks" in rejected(sheet, "players[1].checks")


def test_three_players_end_with_four_checks_each():
    """RULES.md §1: 4 checks each with 3 players (the seed's translation slip)."""
    players = [
        {"name": "A", "checks": [1000, 2000, 3000, 4000]},
        {"name": "B", "checks": [5000, 6000, 7000, 8000]},
        {"name": "C", "checks": [9000, 10000, 11000, 12000]},
    ]
    result = score_sheet({"game": "razzia", "round": 3, "players": players})
    assert [p["points"]["checks"] for p in result["players"]] == [-5, 0, 5]
    players[2]["checks"].pop()
    rejected({"game": "razzia", "round": 3, "players": players}, "players[2].checks")


def test_error_messages_are_single_sentences():
    """Errors carry one sentence naming the field and what is wrong."""
    sheet = example_table()
    sheet["players"][1]["jewelry"]["ring"] = 9
    message = rejected(sheet, "players[1].jewelry.ring")
    assert len(re.findall(r"\.\s", message + " ")) == 1


# --- Property: any valid sheet scores consistently -------------------------------------


@st.composite
def valid_sheets(draw) -> dict:
    """Random legal Razzia! sheets: card counts within the box, checks fitting the sets."""
    count = draw(st.integers(MIN_PLAYERS, MAX_PLAYERS))
    round_no = draw(st.integers(1, 3))
    names = draw(
        st.lists(
            st.text(min_size=1, max_size=6)
            .filter(lambda text: refused_character(text) is None)
            .map(clean)
            .filter(lambda name: same_name_key(name) and lone_mark(name) is None),
            min_size=count,
            max_size=count,
            unique_by=(same_name_key, look_key),  # one name when either comparison says so
        )
    )
    players = [{"name": name} for name in names]
    kinds = {"cars": "car", "drivers": "driver", "gold": "gold", "thieves": "thief"}
    kinds |= {"bodyguards": "bodyguard"} | {kind: kind for kind in JEWELRY + BUSINESSES}
    for field, kind in kinds.items():
        left = CARD_COUNTS[kind]
        for player in players:
            held = min(draw(st.integers(0, CARD_COUNTS[kind])), left)
            left -= held
            if held or draw(st.booleans()):
                group = "jewelry" if kind in JEWELRY else "businesses" if kind in BUSINESSES else ""
                target = player.setdefault(group, {}) if group else player
                target[field] = held
    if round_no == 3 or draw(st.booleans()):
        values = draw(st.permutations(sorted(checks_in_play(count))))
        dealt = len(CHECK_SETS[count][0])
        for index, player in enumerate(players):
            player["checks"] = list(values[index * dealt : (index + 1) * dealt])
    return {"game": "razzia", "round": round_no, "players": players}


@settings(max_examples=150)
@given(valid_sheets())
def test_valid_sheets_score_consistently(sheet):
    """total = sum of points; rank = 1 + players strictly better; winners = rank 1."""
    before = copy.deepcopy(sheet)
    result = score_sheet(sheet)
    assert sheet == before
    players = result["players"]
    assert [p["name"] for p in players] == [p["name"] for p in sheet["players"]]
    totals = [p["total"] for p in players]
    for player in players:
        assert tuple(player["points"]) == CATEGORIES
        assert player["total"] == sum(player["points"].values())
        assert player["rank"] == 1 + sum(1 for total in totals if total > player["total"])
        if sheet["round"] != 3:
            assert player["points"]["businesses"] == player["points"]["checks"] == 0
    assert result["winners"] == [p["name"] for p in players if p["rank"] == 1]
    assert result["winners"]
    assert score_sheet(sheet) == result
