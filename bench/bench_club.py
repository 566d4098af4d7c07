"""The club's pages with many finished games: a player page and season standings.

Issue 26 item 6: "a player page and the season standings with 2,000 finished games cost at
most a few results pages". Prints ratios measured in the same run, in-process through
Flask's test client (see bench/README.md):

- player page / results page (a person with about a tenth of the games; warm ratings);
- season standings (every game in one season) / results page, kept between games, and after a
  game ended (computed again from every game's placings);
- standings CSV / results page;
- player page after a game ended (ratings extended by one game) / results page;
- player page after an undone end (ratings rebuilt from every game) / results page.

Each club page is timed in turns with the results page, and each figure is the ratio of the
two medians, so a machine busy with other work slows both alike.

The results page is the long Razzia! game's (bench/longest_game.py). The 2,000 games are of a
made-up one-move game registered for the run (as the club's tests do), dealt to 40 people,
3-5 a table, with random ranks: what the club's pages read of a game is its placings, the
same rows for every game.
"""

import argparse
import random
import statistics
import tempfile
import time
from types import SimpleNamespace

from bench.bench_results import finished_games
from bench.longest_game import longest_game
from companion_app import create_app
from companion_app.store import db, get_store, roster
from scoring import games as registry

PEOPLE = 40
REPEATS = 7
SEED = 26


def _quick_game() -> SimpleNamespace:
    """A game that ends with its first move, which gives every seat its rank."""

    def results(state: dict) -> dict:
        ranks = state["ranks"] or [1] * len(state["players"])
        return {
            "finished": state["ranks"] is not None,
            "highest_wins": True,
            "players": [
                {"seat": s, "name": n, "score": -r, "rank": r, "winner": r == 1}
                for s, (n, r) in enumerate(zip(state["players"], ranks, strict=True))
            ],
            "categories": [],
            "rounds": [],
        }

    return SimpleNamespace(
        new_table=lambda setup: {"players": list(setup["players"]), "ranks": None},
        complete_move=lambda state, move, rng: dict(move),
        apply=lambda state, move: {**state, "ranks": list(move["ranks"])},
        summary=lambda state: {
            "players": state["players"],
            "finished": state["ranks"] is not None,
        },
        results=results,
    )


def quick_games(app, count: int) -> list[str]:
    """`count` finished quick games; their ids."""
    rng = random.Random(SEED)
    names = [f"Player {number:02d}" for number in range(PEOPLE)]
    ids = []
    with app.app_context():
        store = get_store()
        for _ in range(count):
            seated = rng.sample(names, rng.randint(3, 5))
            table = store.create_table("quick", {"players": seated})
            ranks = sorted(rng.randint(1, len(seated)) for _ in seated)
            ranks = [1 + sum(other < rank for other in ranks) for rank in ranks]
            rng.shuffle(ranks)
            store.apply_move(table.id, {"ranks": ranks}, table.version)
            ids.append(table.id)
        return ids


def timed_once(client, path: str) -> float:
    """One GET of `path` in milliseconds."""
    start = time.perf_counter()
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return (time.perf_counter() - start) * 1000


def paired(client, baseline: str, path: str, before=None) -> tuple[float, float]:
    """Median ms of `path` and of the baseline, timed in turns (a busy machine slows both).

    `before`, when given, runs before each timing of `path` (e.g. a game ends) untimed.
    """
    base, timed = [], []
    for _ in range(REPEATS):
        base.append(timed_once(client, baseline))
        if before is not None:
            before()
        timed.append(timed_once(client, path))
    return statistics.median(timed), statistics.median(base)


def main() -> None:
    """Build the games, time the pages, print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="finished games in the club")
    count = parser.parse_args().games
    registry._GAMES["quick"] = _quick_game
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"SECRET_KEY": "bench"}, instance_path=instance)
        client = app.test_client()
        (razzia,) = finished_games(app, 1, longest_game())
        built = time.perf_counter()
        undoable = quick_games(app, count)[-REPEATS:]
        built = time.perf_counter() - built
        with app.app_context():
            person = roster.find(db.get_db(), "Player 07")
        form = {"name": "Bench", "kind": "placing", "evening": "1"}
        form |= {f"place_{place}": str(points) for place, points in enumerate([10, 6, 4, 2, 1], 1)}
        assert client.post("/club/seasons/new", data=form).status_code == 303
        results = f"/tables/{razzia}/results"
        page = f"/people/{person}"
        timed_once(client, page)  # the ratings are built once per process
        rows = [
            ("player page / results page", *paired(client, results, page)),
            ("season standings / results page", *paired(client, results, "/club/seasons/1")),
            (
                "season standings after a game ended / results page",
                *paired(client, results, "/club/seasons/1", before=lambda: quick_games(app, 1)),
            ),
            (
                "standings CSV / results page",
                *paired(client, results, "/club/seasons/1/standings.csv"),
            ),
            (
                "player page after a game ended / results page",
                *paired(client, results, page, before=lambda: quick_games(app, 1)),
            ),
            (
                "player page after an undone end / results page",
                *paired(client, results, page, before=lambda: _undo_end(app, undoable.pop())),
            ),
        ]
    print(f"{count} finished games of {PEOPLE} people, built in {built:.0f} s")
    for label, value, baseline in rows:
        print(f"{label:<52}{value / baseline:6.2f}   {value:7.2f} vs {baseline:.2f} ms")


def _undo_end(app, table_id: str) -> None:
    """Undo the end of one of the latest games (the ratings are then rebuilt from all)."""
    with app.app_context():
        store = get_store()
        store.undo(table_id, store.get(table_id).version)


if __name__ == "__main__":
    main()
