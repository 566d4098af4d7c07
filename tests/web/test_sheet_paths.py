"""Placing calculator refusals on the forms: the path each message starts with."""

import pytest

from companion_app.games import sheet_paths


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("players[1].jewelry.ring: must be ...", (7, "jewelry.ring")),
        ("players[0].checks[2]: 5 is not ...", (3, "checks")),
        ("players[1]: must be an object", (7, "")),
        ("players[2].cars: beyond the form's columns", None),
        ("round: must be 1, 2 or 3", None),
    ],
)
def test_player_fields_map_to_form_columns(message, expected):
    """Sheet player 0 and 1 sit in form columns 3 and 7 (blank columns are left out)."""
    assert sheet_paths.player_field(message, [3, 7]) == expected


@pytest.mark.parametrize(
    ("message", "key", "short"),
    [
        ("round: must be 1, 2 or 3.", "round", "Must be 1, 2 or 3."),
        ("order[1]: list every seat once.", "order", "List every seat once."),
        ("megaphones.Čeněk Šťastný: not a number.", "megaphones", "Not a number."),
        ("players[0].checks[2]: not in play.", None, "Not in play."),
        ("Unknown game 'x'; this calculator scores: razzia.", None, None),
    ],
)
def test_top_keys_and_messages_without_their_path(message, key, short):
    """A message with no path keeps its whole text (a colon inside it is not a path)."""
    assert sheet_paths.top_key(message) == key
    assert sheet_paths.without_path(message) == (short or message)
