"""The verification code: same log -> same code; any changed, added or removed move -> new code."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.results.verify import active_moves, digest_text, verification_code
from companion_app.store.model import LogEntry

SETUP = {"players": ["Ann", "Bob", "Čeněk"]}
MOVES = [
    {"type": "deal", "sets": ["A", "B", "C"]},
    {"type": "draw", "seat": 2, "card": "ring"},
    {"type": "bid", "seat": 0, "check": 9000},
]
CODE = re.compile(r"^[A-Z2-7]{5}-[A-Z2-7]{5}$")


def code(moves=MOVES, setup=SETUP, game="razzia") -> str:
    """The code of a log."""
    return verification_code(game, setup, moves)


def test_code_is_short_base32_in_two_groups():
    """The code is 10 base32 characters shown as ABCDE-FGHIJ."""
    assert CODE.match(code())


def test_same_log_same_code():
    """Same game, setup and moves (even rebuilt dicts in another key order) -> same code."""
    reordered = [dict(reversed(list(move.items()))) for move in MOVES]
    assert code(reordered) == code()
    assert code() == code()


@pytest.mark.parametrize(
    "changed",
    [
        MOVES[:-1],  # a move removed
        [*MOVES, {"type": "pass", "seat": 1}],  # a move added
        [MOVES[0], {**MOVES[1], "card": "watch"}, MOVES[2]],  # a move changed
        [MOVES[0], MOVES[2], MOVES[1]],  # two moves swapped
        [MOVES[0], MOVES[1], {**MOVES[2], "check": 9001}],  # one number changed
    ],
)
def test_any_change_of_a_move_changes_the_code(changed):
    """Any changed, added, removed or reordered move gives another code."""
    assert code(changed) != code()


def test_setup_and_game_are_part_of_the_code():
    """Another player name or another game gives another code."""
    assert code(setup={"players": ["Ann", "Bob", "Ceněk"]}) != code()
    assert code(game="for_sale") != code()


def test_digest_text_keeps_diacritics_as_utf8():
    """Czech names are digested as UTF-8 text, not as escapes."""
    assert "Čeněk" in digest_text("razzia", SETUP, MOVES)


def _entry(seq, kind, move=None, undone=False, undoes=None):
    """A history entry as the store returns it."""
    return LogEntry(seq, kind, move, undone, undoes, None)


def test_undone_moves_are_left_out():
    """An undone move and its undo entry do not count: the code is that of the active log."""
    entries = [
        _entry(1, "move", MOVES[0]),
        _entry(2, "move", {"type": "draw", "seat": 0, "card": "car"}, undone=True),
        _entry(3, "undo", undoes=2),
        _entry(4, "move", MOVES[1]),
        _entry(5, "move", MOVES[2]),
    ]
    assert active_moves(entries) == MOVES
    assert code(active_moves(entries)) == code()


@given(
    st.lists(st.dictionaries(st.sampled_from("abc"), st.integers(-3, 3), min_size=1), min_size=1),
    st.data(),
)
def test_random_logs_one_changed_move_changes_the_code(moves, data):
    """Property: changing any one move's value changes the code."""
    index = data.draw(st.integers(0, len(moves) - 1))
    key = data.draw(st.sampled_from(sorted(moves[index])))
    changed = [dict(move) for move in moves]
    changed[index][key] += data.draw(st.sampled_from([-1, 1]))
    assert code(changed) != code(moves)
    assert code([dict(move) for move in moves]) == code(moves)
