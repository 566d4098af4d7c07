"""Tables of every game played some random legal moves through the store, for the room tests.

Each move goes through `Store.apply_move` as a tablet's would; a simultaneous choice (For
Sale's sale, Adel's locations and action cards) is locked in on its reveal first, as the box's
seat buttons would.
"""

import random

from companion_app.store import get_store, reveals
from companion_app.store.reveal_gate import pending_seats
from scoring.games import get_game
from tests.scoring import (
    adel_random,
    for_sale_random,
    prodigals_random,
    razzia_random,
    thieves_guild_random,
)
from tests.scoring.adel_play import Table as AdelTable
from tests.scoring.prodigals_play import setup as prodigals_setup

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
#: Random moves each game's generator makes: game -> (state, rng) -> move.
MOVES = {
    "razzia": razzia_random.random_move,
    "for_sale": for_sale_random.random_move,
    "thieves_guild": thieves_guild_random.random_move,
    "prodigals_club": prodigals_random.random_move,
    "adel_verpflichtet": adel_random.random_move,
}


def setup_for(game: str, count: int, rng: random.Random) -> tuple[dict, AdelTable | None]:
    """A valid setup of `game` for `count` players (and Adel's hidden piles as a local table)."""
    names = NAMES[:count]
    if game == "thieves_guild":
        return {"players": names, "card_costs": [1, 2, 4]}, None
    if game == "prodigals_club":
        return prodigals_setup(players=names, order=range(count)), None
    if game == "adel_verpflichtet":
        values, piles = adel_random.random_setup(count, rng)
        return values, AdelTable(values, piles)
    return {"players": names}, None


def lock_in(table_id: str, state: dict, rules) -> None:
    """Press every seat of a pending secret choice, as the box's buttons would."""
    if not pending_seats(rules, state):
        return
    reveal = reveals.current(table_id)
    for seat in reveal.seats:
        if seat not in reveal.locked:
            reveals.press(table_id, reveal.id, seat)


def play_on(
    table_id: str, moves: int, rng: random.Random, adel: AdelTable | None = None, stop=None
):
    """Play up to `moves` random legal moves (fewer if the game ends, or once `stop(state)`
    holds); the table after them."""
    store = get_store()
    table = store.get(table_id)
    rules = get_game(table.game)
    for _ in range(moves):
        if rules.summary(table.state)["finished"] or (stop is not None and stop(table.state)):
            break
        # Random outcomes drawn here, from `rng`, so a seed always plays the same game.
        move = rules.complete_move(table.state, MOVES[table.game](table.state, rng), rng)
        if adel is not None:
            if move["type"] == "buy":
                pile = adel.hidden[move["pile"]]
                move = {**move, "next": pile[0] if pile else None}
            adel.play(move)
        lock_in(table_id, table.state, rules)
        table = store.apply_move(table_id, move, table.version)
    return table


def seeded(game: str, count: int, moves: int, seed: int = 1, stop=None):
    """A new table of `game` with `count` players after up to `moves` random moves, or until
    `stop(state)` holds (in an app context)."""
    rng = random.Random(seed)
    setup, adel = setup_for(game, count, rng)
    table = get_store().create_table(game, setup)
    return play_on(table.id, moves, rng, adel, stop)


def finished(game: str, count: int, seed: int = 1):
    """A table of `game` played to its end (app context)."""
    return seeded(game, count, 100_000, seed)
