"""Every calculator's sheet is refused when nested too deeply or holding a huge number."""

import pytest

from scoring.errors import InvalidSheet
from scoring.sheets import MAX_DEPTH, MAX_NUMBER, score_sheet

FINAL = {
    "game": "prodigals_club",
    "kind": "final",
    "competitions": ["property", "society"],
    "players": [
        {"name": "Ann", "property": {"cash": 2, "tiles": [4]}, "society": 5},
        {"name": "Bob", "property": {"cash": 0, "tiles": []}, "society": 3},
    ],
}


def nested(depth: int) -> object:
    """A list `depth` levels deep."""
    value: object = 0
    for _ in range(depth):
        value = [value]
    return value


def with_society(value: object) -> dict:
    """The final sheet with Ann's society score replaced."""
    players = [dict(player) for player in FINAL["players"]]
    players[0]["society"] = value
    return {**FINAL, "players": players}


def test_the_deepest_legitimate_sheet_scores():
    assert score_sheet(FINAL)["winners"] == ["Bob"]


@pytest.mark.parametrize("depth", [MAX_DEPTH, 50, 900])
def test_sheet_nested_too_deeply_is_refused_at_its_path(depth):
    with pytest.raises(InvalidSheet, match=r"^players\[0\]\.society(\[0\])*: nested too deeply"):
        score_sheet(with_society(nested(depth)))


@pytest.mark.parametrize("value", [MAX_NUMBER + 1, -MAX_NUMBER - 1, 10**4299, 1e300])
def test_number_beyond_a_billion_is_refused_at_its_path(value):
    with pytest.raises(InvalidSheet) as caught:
        score_sheet(with_society(value))
    message = str(caught.value)
    assert message.startswith("players[0].society: ") and "too large" in message
    assert len(message) < 200


def test_a_billion_is_still_a_number():
    assert score_sheet(with_society(MAX_NUMBER))["players"][0]["scores"]["society"] == MAX_NUMBER


def test_many_huge_tiles_cannot_make_a_score_too_long_to_print():
    # Twelve 4,299-digit tiles once summed to more digits than Python prints: a traceback.
    huge = 10**4299 - 1
    players = [dict(player) for player in FINAL["players"]]
    players[0]["property"] = {"cash": huge, "tiles": [huge] * 12}
    with pytest.raises(InvalidSheet, match="too large"):
        score_sheet({**FINAL, "players": players})


def test_an_odd_key_is_shown_as_a_placeholder_in_the_path():
    sheet = {**FINAL, "x\ud800": [[[[[[[1]]]]]]]}
    with pytest.raises(InvalidSheet, match=r"^\[\?\]\[0\]"):
        score_sheet(sheet)
