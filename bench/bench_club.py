"""The club's pages with many finished games: a player page and season standings.

Issue 26 item 6: "a player page and the season standings with 2,000 finished games cost at
most a few results pages". Prints ratios measured in the same run, in-process through
Flask's test client (see bench/README.md):

- player page / results page (a person with about a tenth of the games; warm ratings);
- season standings (every game in one season) / results page;
- standings CSV / results page;
- player page after a game ended (ratings extended by one game) / results page;
- player page after an undone end (ratings rebuilt from every game) / results page.

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

from bench.bench_results import finished_games, median_ms
from bench.longest_game import longest_game
from companion_app import create_app
from companion_app.store import db, get_store, roster
from scoring import games as registry

PEOPLE = 40
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


def quick_games(app, count: int) -> str:
    """`count` finished quick games; the id of the last one."""
    rng = random.Random(SEED)
    names = [f"Player {number:02d}" for number in range(PEOPLE)]
    with app.app_context():
        store = get_store()
        for _ in range(count):
            seated = rng.sample(names, rng.randint(3, 5))
            table = store.create_table("quick", {"players": seated})
            ranks = sorted(rng.randint(1, len(seated)) for _ in seated)
            ranks = [1 + sum(other < rank for other in ranks) for rank in ranks]
            rng.shuffle(ranks)
            store.apply_move(table.id, {"ranks": ranks}, table.version)
        return table.id


def timed_once(client, path: str) -> float:
    """One GET of `path` in milliseconds."""
    start = time.perf_counter()
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return (time.perf_counter() - start) * 1000


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
        last = quick_games(app, count)
        built = time.perf_counter() - built
        with app.app_context():
            person = roster.find(db.get_db(), "Player 07")
        form = {"name": "Bench", "kind": "placing", "evening": "1"}
        form |= {f"place_{place}": str(points) for place, points in enumerate([10, 6, 4, 2, 1], 1)}
        assert client.post("/club/seasons/new", data=form).status_code == 303
        results_page = median_ms(client, f"/tables/{razzia}/results")
        player_page = median_ms(client, f"/people/{person}")
        standings = median_ms(client, "/club/seasons/1")
        standings_csv = median_ms(client, "/club/seasons/1/standings.csv")
        ended = []
        undone = []
        for _ in range(3):
            quick_games(app, 1)
            ended.append(timed_once(client, f"/people/{person}"))
            with app.app_context():
                store = get_store()
                ranks = store.get(last).state["ranks"]
                store.undo(last, store.get(last).version)
            undone.append(timed_once(client, f"/people/{person}"))
            with app.app_context():
                store = get_store()
                store.apply_move(last, {"ranks": ranks}, store.get(last).version)
    after_end, after_undo = statistics.median(ended), statistics.median(undone)
    rows = [
        ("player page / results page", player_page),
        ("season standings / results page", standings),
        ("standings CSV / results page", standings_csv),
        ("player page after a game ended / results page", after_end),
        ("player page after an undone end / results page", after_undo),
    ]
    print(f"{count} finished games of {PEOPLE} people, built in {built:.0f} s")
    for label, value in rows:
        ratio = value / results_page
        print(f"{label:<52}{ratio:6.2f}   {value:7.2f} vs {results_page:.2f} ms")


if __name__ == "__main__":
    main()
