"""For Sale through the store: whole random games with undos, reveals pressed, replay equal."""

import random

import pytest

from companion_app.store import get_store
from companion_app.store import reveals as reveal
from scoring import for_sale
from tests.scoring.for_sale_random import random_move

UNDO_CHANCE = 0.1


@pytest.fixture
def store(app):
    """The app's store, inside an app context."""
    with app.app_context():
        yield get_store()


def lock_everyone(table) -> None:
    """Every seat of the pending choice presses its button (the current reveal)."""
    current = reveal.current(table.id)
    for seat in current.seats:
        reveal.press(table.id, current.id, seat)


@pytest.mark.parametrize(("count", "variant"), [(3, False), (4, True), (5, True), (6, False)])
def test_random_games_with_undos_replay_to_the_stored_state(store, count, variant):
    """Undo anywhere; the stored state equals the replay, the start draw is never redrawn."""
    rng = random.Random(count)
    setup = {"players": [f"P{i}" for i in range(count)], "variant": variant}
    table = store.create_table("for_sale", setup)
    while not table.finished:
        if table.version and rng.random() < UNDO_CHANCE:
            table = store.undo(table.id, table.version)
            continue
        if for_sale.reveal_seats(table.state):
            lock_everyone(table)
        table = store.apply_move(table.id, random_move(table.state, rng), table.version)
    assert table.state["phase"] == "game_over" and table.state["ranks"]
    assert store.replay(table.id) == table.state == store.get(table.id).state
    starts = [e.move for e in store.history(table.id) if e.move and not e.undone]
    assert starts[0]["type"] == "start" and starts[0]["seat"] == table.state["start_player"]
