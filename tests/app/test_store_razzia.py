"""The store with the real Razzia! rules: whole games, undo anywhere, concurrent writers."""

import random
import threading

import pytest

from companion_app.store import StaleVersion, get_store
from scoring import razzia
from scoring.errors import IllegalMove
from tests.app.helpers import PLAYERS, SETS
from tests.scoring.razzia_random import random_move

UNDO_CHANCE = 0.1
WRITERS = 8


def test_a_whole_random_game_with_undos_replays_to_the_stored_state(store):
    rng = random.Random(7)
    table = store.create_table("razzia", {"players": PLAYERS})
    while not table.finished:
        if table.version and rng.random() < UNDO_CHANCE:
            table = store.undo(table.id, table.version)
        else:
            table = store.apply_move(table.id, random_move(table.state, rng), table.version)
    assert table.state["phase"] == "game_over" and table.state["ranks"]
    assert store.replay(table.id) == table.state == store.get(table.id).state
    history = store.history(table.id)
    assert len(history) == table.version
    undos = [entry for entry in history if entry.kind == "undo"]
    assert undos and all(history[entry.undoes - 1].undone for entry in undos)


def test_every_snapshot_equals_the_fold_of_the_active_moves(store):
    rng = random.Random(11)
    table = store.create_table("razzia", {"players": PLAYERS[:3]})
    expected = [table.state]  # the state of each active prefix
    for _ in range(120):
        if len(expected) > 1 and rng.random() < UNDO_CHANCE * 3:
            table = store.undo(table.id, table.version)
            expected.pop()
        else:
            table = store.apply_move(table.id, random_move(table.state, rng), table.version)
            expected.append(razzia.apply(expected[-1], store.history(table.id)[-1].move))
        assert table.state == expected[-1]


def test_illegal_razzia_move_changes_nothing(store):
    table = store.create_table("razzia", {"players": PLAYERS})
    table = store.apply_move(table.id, {"type": "deal", "sets": SETS}, 0)
    with pytest.raises(IllegalMove, match="It is Ann's turn, not Bob's."):
        store.apply_move(table.id, {"type": "draw", "seat": 1, "card": "ring"}, 1)
    assert store.get(table.id) == table
    assert len(store.history(table.id)) == 1


def test_deal_by_lot_is_stored_and_never_redrawn(store):
    table = store.create_table("razzia", {"players": PLAYERS})
    table = store.apply_move(table.id, {"type": "deal"}, 0)
    (deal,) = store.history(table.id)
    assert sorted(deal.move["sets"]) == SETS and table.state["sets"] == deal.move["sets"]
    assert all(store.replay(table.id) == table.state for _ in range(5))


def test_concurrent_writers_on_one_version_exactly_one_wins(app):
    with app.app_context():
        table = get_store().create_table("razzia", {"players": PLAYERS})
        get_store().apply_move(table.id, {"type": "deal", "sets": SETS}, 0)
    barrier = threading.Barrier(WRITERS)
    outcomes = []

    def write():
        """Draw a ring as Ann at version 1, all at once."""
        with app.app_context():
            barrier.wait()
            try:
                move = {"type": "draw", "seat": 0, "card": "ring"}
                outcomes.append(get_store().apply_move(table.id, move, 1).version)
            except StaleVersion as stale:
                outcomes.append(stale)

    threads = [threading.Thread(target=write) for _ in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count(2) == 1
    assert sum(isinstance(o, StaleVersion) and o.current == 2 for o in outcomes) == WRITERS - 1
    with app.app_context():
        assert get_store().get(table.id).state["row"] == ["ring"]
