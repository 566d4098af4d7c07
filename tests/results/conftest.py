"""Fixtures for the results pages: tables played through the store with the scripted game."""

import pytest

from companion_app.store import get_store
from tests.web import game_script as g

#: The scripted game's seats renamed: Czech diacritics and markup in a name.
NAMES = ["Čeněk Šťastný", "<b>Bob</b> & Co", "Žofie", "Dee"]


def rules_move(step: tuple) -> dict:
    """A scripted step as a move for the store."""
    move = g.as_form(step)
    if move["type"] == "bid":
        move["check"] = int(move["check"])
    return move


def play_table(app, names=NAMES, rounds: int = 3) -> str:
    """A Razzia! table dealt A-D and played through `rounds` rounds of the script; its id."""
    with app.app_context():
        store = get_store()
        table = store.create_table("razzia", {"players": list(names)})
        table = store.apply_move(table.id, {"type": "deal", "sets": g.SETS}, table.version)
        for number, (steps, _scores, _totals) in enumerate(g.ROUNDS[:rounds], start=1):
            for step in steps:
                table = store.apply_move(table.id, rules_move(step), table.version)
            if number < 3 and number < rounds:
                table = store.apply_move(table.id, {"type": "next_round"}, table.version)
        return table.id


@pytest.fixture
def finished(app) -> str:
    """The id of a finished 4-player game (Čeněk wins with 6)."""
    return play_table(app)


@pytest.fixture
def unfinished(app) -> str:
    """The id of a game still in round 2."""
    return play_table(app, rounds=1)
