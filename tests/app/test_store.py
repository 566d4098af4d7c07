"""The event-sourced store against the fake counter game: versions, undo, replay, refusals."""

import pytest

from companion_app.store import StaleVersion, TableNotFound
from scoring.errors import IllegalMove, InvalidSetup, RuleError

PLAYERS = {"players": ["Ann", "Bob"]}


def add(seat, n=1):
    """A counter move."""
    return {"type": "add", "seat": seat, "n": n}


def test_create_starts_at_version_zero(store, counter):
    table = store.create_table("counter", PLAYERS)
    assert table.version == 0
    assert table.state == {"players": ["Ann", "Bob"], "turn": 0, "total": 0, "moves": 0}
    assert table.finished is False
    assert store.get(table.id) == table
    assert store.history(table.id) == []


def test_table_ids_are_short_url_safe_and_distinct(store, counter):
    ids = {store.create_table("counter", PLAYERS).id for _ in range(20)}
    assert len(ids) == 20
    assert all(len(i) == 8 and i.isalnum() and i.islower() for i in ids)


def test_unknown_game_and_bad_setup_are_rule_errors(store, counter):
    with pytest.raises(InvalidSetup, match="Unknown game 'chess'"):
        store.create_table("chess", PLAYERS)
    with pytest.raises(InvalidSetup, match="at least 2"):
        store.create_table("counter", {"players": ["Ann"]})
    assert store.list_tables() == []


def test_each_move_bumps_the_version(store, counter):
    table = store.create_table("counter", PLAYERS)
    table = store.apply_move(table.id, add(0, 2), 0)
    table = store.apply_move(table.id, add(1, 3), 1)
    assert (table.version, table.state["total"], table.state["turn"]) == (2, 5, 0)
    assert store.get(table.id).state == table.state


def test_stale_version_is_refused_with_both_numbers(store, counter):
    table = store.create_table("counter", PLAYERS)
    store.apply_move(table.id, add(0), 0)
    with pytest.raises(StaleVersion) as refused:
        store.apply_move(table.id, add(1), 0)
    assert str(refused.value) == (
        "This table changed since you loaded it (version 1, you sent 0); reload and try again."
    )
    assert (refused.value.current, refused.value.sent) == (1, 0)
    assert store.get(table.id).version == 1


def test_illegal_move_leaves_log_and_state_unchanged(store, counter):
    table = store.apply_move(store.create_table("counter", PLAYERS).id, add(0), 0)
    with pytest.raises(IllegalMove, match="seat 1's turn"):
        store.apply_move(table.id, add(0), 1)
    with pytest.raises(IllegalMove, match="must be an object"):
        store.apply_move(table.id, ["add"], 1)
    assert store.get(table.id) == table
    assert len(store.history(table.id)) == 1


def test_unknown_table(store, counter):
    for call in (
        lambda: store.get("nope"),
        lambda: store.apply_move("nope", add(0), 0),
        lambda: store.undo("nope", 0),
        lambda: store.history("nope"),
        lambda: store.replay("nope"),
    ):
        with pytest.raises(TableNotFound, match="There is no table with id nope."):
            call()


def test_version_must_be_an_int(store, counter):
    table = store.create_table("counter", PLAYERS)
    with pytest.raises(TypeError):
        store.apply_move(table.id, add(0), True)


def test_undo_restores_the_previous_state_and_keeps_history(store, counter):
    table = store.create_table("counter", PLAYERS)
    first = store.apply_move(table.id, add(0, 1), 0)
    store.apply_move(table.id, add(1, 3), 1)
    undone = store.undo(table.id, 2)
    assert undone.version == 3
    assert undone.state == first.state
    history = store.history(table.id)
    assert [(e.seq, e.kind, e.undone, e.undoes) for e in history] == [
        (1, "move", False, None),
        (2, "move", True, None),
        (3, "undo", False, 2),
    ]
    assert history[1].move == add(1, 3)


def test_repeated_undo_walks_back_to_the_start_then_refuses(store, counter):
    table = store.create_table("counter", PLAYERS)
    store.apply_move(table.id, add(0), 0)
    store.apply_move(table.id, add(1), 1)
    store.undo(table.id, 2)
    store.apply_move(table.id, add(1, 2), 3)
    assert store.undo(table.id, 4).state["total"] == 1
    fresh = store.undo(table.id, 5)
    assert fresh.state == table.state
    with pytest.raises(RuleError, match="Nothing to undo."):
        store.undo(table.id, 6)
    assert store.get(table.id).version == 6
    assert store.replay(table.id) == table.state


def test_undo_of_a_fresh_table_refuses(store, counter):
    table = store.create_table("counter", PLAYERS)
    with pytest.raises(RuleError, match="Nothing to undo."):
        store.undo(table.id, 0)
    assert store.get(table.id).version == 0


def test_undo_checks_the_version_too(store, counter):
    table = store.create_table("counter", PLAYERS)
    store.apply_move(table.id, add(0), 0)
    with pytest.raises(StaleVersion):
        store.undo(table.id, 0)


def test_random_outcome_is_recorded_and_never_rerolled(store, counter):
    table = store.create_table("counter", PLAYERS)
    rolled = store.apply_move(table.id, {"type": "roll", "seat": 0}, 0)
    (entry,) = store.history(table.id)
    assert 1 <= entry.move["value"] <= counter.DIE_SIDES
    assert rolled.state["total"] == entry.move["value"]
    assert all(store.replay(table.id) == rolled.state for _ in range(5))


def test_finished_flag_follows_the_game_summary(store, counter):
    table = store.create_table("counter", PLAYERS)
    version = 0
    while not table.finished:
        table = store.apply_move(table.id, add(table.state["turn"], 3), version)
        version += 1
    assert table.state["total"] >= counter.TARGET
    assert store.get(table.id).finished
    assert not store.undo(table.id, version).finished


def test_replay_equals_stored_state_with_a_cold_cache(app, counter):
    from companion_app.store import Store, get_store

    with app.app_context():
        store = get_store()
        table = store.create_table("counter", PLAYERS)
        moves = [add(0, 1), add(1, 2), add(0, 3)]
        for version, move in enumerate(moves):
            table = store.apply_move(table.id, move, version)
        store.undo(table.id, 3)
        cold = Store()
        assert cold.get(table.id).state == store.get(table.id).state == store.replay(table.id)


def test_list_tables_newest_activity_first(store, counter):
    old = store.create_table("counter", PLAYERS)
    new = store.create_table("counter", PLAYERS)
    assert [t.id for t in store.list_tables()] == [new.id, old.id]
    store.apply_move(old.id, add(0), 0)
    assert [t.id for t in store.list_tables()] == [old.id, new.id]


def test_data_survives_a_new_app_on_the_same_instance(tmp_path, counter):
    from companion_app import create_app
    from companion_app.store import get_store

    first = create_app({"TESTING": True}, instance_path=str(tmp_path))
    with first.app_context():
        table = get_store().create_table("counter", PLAYERS)
        get_store().apply_move(table.id, add(0, 2), 0)
    second = create_app({"TESTING": True}, instance_path=str(tmp_path))
    with second.app_context():
        assert get_store().get(table.id).state["total"] == 2
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
