"""Setups and moves carry only the fields their game takes: anything else is refused by name."""

import copy

import pytest

from scoring import for_sale, razzia
from scoring import prodigals_club as club
from scoring.errors import IllegalMove, InvalidSetup
from scoring.prodigals_club import legacy as legacy_rules
from scoring.prodigals_club import property as property_rules
from tests.scoring.prodigals_play import setup as club_setup
from tests.scoring.prodigals_play import started as club_started

JUNK = "x" * 60_000
#: A valid setup and the first state's rules module of each game.
GAMES = {
    "razzia": (razzia, {"players": ["Ann", "Bob"]}, ["players"]),
    "for_sale": (for_sale, {"players": ["Ann", "Bob", "Cid"]}, ["players", "variant", "refund"]),
    "prodigals_club": (club, club_setup(), ["players", "competitions", "board", "order"]),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("field", "value"), [("colour", "red"), ("junk", JUNK), ("", 1)])
def test_unknown_setup_field_is_refused_by_name(game, field, value):
    rules, setup, accepted = GAMES[game]
    with pytest.raises(InvalidSetup) as caught:
        rules.new_table({**setup, field: value})
    message = str(caught.value)
    assert f'Unknown setup field "{field}"' in message
    assert message.endswith(f"this game takes: {', '.join(accepted)}.")
    assert len(message) < 300


def test_unknown_setup_field_with_hidden_characters_is_shown_escaped():
    with pytest.raises(InvalidSetup, match=r'"pla\[U\+200B\]yers"'):
        razzia.new_table({"players": ["Ann", "Bob"], "pla\u200byers": ["Cid"]})


def test_unknown_board_value_is_refused_by_name():
    setup = club_setup()
    setup["board"]["colour"] = "red"
    with pytest.raises(InvalidSetup, match='board: unknown board value "colour"; .*messengers'):
        club.new_table(setup)


@pytest.mark.parametrize("value", [JUNK, {"a": 1}, [[["deep"]]], True, 1.5])
def test_board_value_of_a_competition_not_in_play_is_refused_unless_empty_or_numbers(value):
    setup = club_setup(competitions=["election", "society"], money=value)
    with pytest.raises(InvalidSetup, match="^money: not used by the competitions in play"):
        club.new_table(setup)


@pytest.mark.parametrize("value", [None, "", 12, [["", 3, ""]] * 5])
def test_board_value_of_a_competition_not_in_play_may_be_empty_or_numbers(value):
    # The setup form sends every board field, blank ("") or a number, whatever is in play.
    no_property = club_setup(competitions=["election", "society"], money=value, district=value)
    assert "money" not in club.new_table(no_property)["board"]
    no_election = club_setup(competitions=["property", "society"], votes=value, hyde_park=value)
    assert "votes" not in club.new_table(no_election)["board"]


def _first_states() -> dict:
    """A state of each game early enough that any move type is checked against its fields."""
    return {
        "razzia": razzia.new_table({"players": ["Ann", "Bob"]}),
        "for_sale": for_sale.new_table({"players": ["Ann", "Bob", "Cid"]}),
        "prodigals_club": club_started(competitions=["property", "election", "society"]),
    }


MOVE_TYPES = [
    (game, kind)
    for game, rules in (("razzia", razzia), ("for_sale", for_sale), ("prodigals_club", club))
    for kind, fields in rules.moves.MOVE_FIELDS.items()
    if fields is not None
]


@pytest.mark.parametrize(("game", "kind"), MOVE_TYPES)
def test_extra_move_field_is_refused_by_name(game, kind):
    state = _first_states()[game]
    rules = GAMES[game][0]
    before = copy.deepcopy(state)
    for extra, shown in ({"note": JUNK}, '"note"'), ({JUNK: 1}, f'"{"x" * 40}..."'):
        with pytest.raises(IllegalMove) as caught:
            rules.apply(state, {"type": kind, **extra})
        message = str(caught.value)
        assert message.startswith(f"Unknown field {shown} in a move of type {kind}; it takes: type")
        assert len(message) < 300
    assert state == before


@pytest.mark.parametrize(("game", "kind"), MOVE_TYPES)
def test_every_field_a_move_type_takes_passes_the_field_check(game, kind):
    state = _first_states()[game]
    rules = GAMES[game][0]
    fields = rules.moves.MOVE_FIELDS[kind]
    try:
        rules.apply(state, dict.fromkeys(fields, 0) | {"type": kind})
    except IllegalMove as refused:
        assert "Unknown field" not in str(refused)


ENTRIES = [("property", action) for action in property_rules.ACTION_FIELDS] + [
    ("legacy", action) for action in legacy_rules.ACTION_FIELDS
]


@pytest.mark.parametrize(("kind", "action"), ENTRIES)
def test_extra_field_in_a_property_or_legacy_entry_is_refused_by_name(kind, action):
    playing = ["property", "election"] if kind == "property" else ["legacy", "election"]
    state = club_started(competitions=playing)
    move = {"type": kind, "seat": 0, "action": action, "colour": "red"}
    expected = f'Unknown field "colour" in a move of type {kind} {action}; it takes'
    with pytest.raises(IllegalMove, match=expected):
        club.apply(state, move)
