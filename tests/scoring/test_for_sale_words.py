"""For Sale refusals say what really happened (issue 14 item 3; RULES.md §2 "Cards")."""

import pytest

from scoring.errors import IllegalMove
from tests.scoring.for_sale_play import lowest_each, play
from tests.scoring.test_for_sale_rules import selling_table


def refusal(state: dict, checks: list[int]) -> str:
    """The sentence a checks entry is refused with."""
    with pytest.raises(IllegalMove) as refused:
        play(state, {"type": "checks", "checks": checks})
    return str(refused.value)


def test_rules_2_three_zero_checks_in_one_entry_are_not_called_already_turned_over():
    """§2 "Cards": two $0 checks exist; none turned over yet, so the entry itself has too many."""
    message = refusal(selling_table(), [0, 0, 0])
    assert message == "The game has only two checks of 0; enter each check once."
    assert "already been turned over" not in message


def test_rules_2_one_check_left_after_an_earlier_round():
    """§2 "Cards": one 15,000 came up in round 1, so round 2 cannot bring two more."""
    state = selling_table()
    state = play(state, {"type": "checks", "checks": [15000, 0, 2000]})
    state = play(state, {"type": "sell", "houses": lowest_each(state)})
    message = refusal(state, [15000, 15000, 3000])
    assert message == "One check of 15,000 was turned over in an earlier round; only one is left."


def test_rules_2_both_checks_used_up_in_earlier_rounds():
    """§2 "Cards": both 0 checks came up in round 1: a third is refused as already turned over."""
    state = selling_table()
    state = play(state, {"type": "checks", "checks": [0, 0, 2000]})
    state = play(state, {"type": "sell", "houses": lowest_each(state)})
    assert refusal(state, [0, 3000, 4000]) == "Both checks of 0 have already been turned over."
