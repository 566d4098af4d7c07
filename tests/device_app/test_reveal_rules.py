"""scoring.reveal: arm, press, duplicate, stale ids and seats that may not press."""

import pytest

from scoring import reveal
from scoring.errors import RuleError

SEATS = 4


def armed(seats=(0, 1, 2, 3), last_id=0) -> dict:
    """A freshly armed reveal."""
    return reveal.arm(last_id, list(seats), SEATS)


def test_arming_takes_the_next_id_and_sorts_the_seats():
    """Ids count up per table from 1; nobody is locked yet."""
    assert reveal.arm(0, [3, 0, 2], SEATS) == {
        "id": 1,
        "seats": [0, 2, 3],
        "locked": [],
        "revealed": False,
    }
    assert reveal.arm(7, [1], SEATS)["id"] == 8


@pytest.mark.parametrize(
    "seats", [[], None, "0,1", [0, 0], [4], [-1], [True], [1.0], ["1"], {"0": 1}]
)
def test_arming_refuses_anything_but_distinct_seats_at_the_table(seats):
    """Empty, not a list, repeated, out of range or not whole numbers: a sentence."""
    with pytest.raises(reveal.RevealRefused) as refused:
        reveal.arm(0, seats, SEATS)
    assert str(refused.value).endswith(".")


def test_reveal_ids_stop_at_what_the_wire_can_carry():
    """The protocol's ARM id is 1..65535."""
    with pytest.raises(reveal.RevealRefused):
        reveal.arm(reveal.MAX_ID, [0], SEATS)


def test_a_press_locks_the_seat():
    """The seat joins `locked`; not revealed while others still choose."""
    after, duplicate = reveal.press(armed(), 1, 2, SEATS)
    assert (after["locked"], after["revealed"], duplicate) == ([2], False, False)


def test_pressing_again_changes_nothing():
    """A locked seat pressing again is a duplicate, never counted twice."""
    once, _ = reveal.press(armed(), 1, 2, SEATS)
    twice, duplicate = reveal.press(once, 1, 2, SEATS)
    assert duplicate and twice == once


def test_the_last_seat_reveals():
    """When every armed seat has locked in, the reveal is revealed."""
    state = armed(seats=(1, 3))
    state, _ = reveal.press(state, 1, 3, SEATS)
    state, _ = reveal.press(state, 1, 1, SEATS)
    assert state["locked"] == [1, 3] and state["revealed"]


def test_the_input_is_not_changed():
    """Pure: the reveal passed in stays as it was."""
    state = armed()
    reveal.press(state, 1, 0, SEATS)
    assert state["locked"] == []


@pytest.mark.parametrize(("current", "sent"), [(None, 1), ("armed", 2), ("armed", 9)])
def test_a_press_for_a_reveal_that_is_not_current_is_stale(current, sent):
    """An old, disarmed or unknown reveal id: StaleReveal (the API answers 409)."""
    with pytest.raises(reveal.StaleReveal):
        reveal.press(armed() if current else None, sent, 0, SEATS)


@pytest.mark.parametrize(
    ("reveal_id", "seat"), [(1, 5), (1, -1), (1, True), (1, "0"), (0, 0), (True, 0), ("1", 0)]
)
def test_a_press_with_a_bad_seat_or_id_is_refused(reveal_id, seat):
    """Seat out of range or not a number, id not 1..65535: RevealRefused, a 400."""
    with pytest.raises(reveal.RevealRefused):
        reveal.press(armed(), reveal_id, seat, SEATS)


def test_a_seat_that_is_not_armed_may_not_press():
    """Only armed seats choose in this reveal."""
    with pytest.raises(reveal.RevealRefused, match="not armed"):
        reveal.press(armed(seats=(0, 1)), 1, 3, SEATS)


def test_refusals_are_rule_errors_with_a_template():
    """The web layer can translate them like every rule error."""
    with pytest.raises(RuleError) as refused:
        reveal.press(armed(seats=(0,)), 1, 2, SEATS)
    assert refused.value.template == "Seat {seat} is not armed in this reveal."
