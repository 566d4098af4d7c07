"""Results and history pages: what a finished game costs to show, and how history scales.

Prints ratios measured in the same run (see bench/README.md), in-process through Flask's
test client so only the app's own work is timed:

- results page / table page of the same finished game (the chart, two QR codes, the code);
- printout (80 mm) / results page;
- history page with N finished games / with N/4 games, per game (1.0 = linear), the first
  request of a fresh app process (cold: every game's log is read for its verification code);
- history page, later requests / the first (the codes are memoised per table version);
- history page with N games (warm) / one results page.
"""

import argparse
import statistics
import tempfile
import time

from bench.longest_game import PLAYERS, longest_game
from companion_app import create_app
from companion_app.store import get_store

REPEATS = 7


def median_ms(client, path: str, repeats: int = REPEATS) -> float:
    """The median time of GET `path` in milliseconds (each answer must be a 200)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return statistics.median(times)


def cold_ms(instance: str, path: str) -> float:
    """The first GET of `path` by a fresh app on the same database, in milliseconds."""
    client = create_app({"SECRET_KEY": "bench"}, instance_path=instance).test_client()
    start = time.perf_counter()
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return (time.perf_counter() - start) * 1000


def finished_games(app, count: int, moves: list[dict]) -> list[str]:
    """`count` finished 5-player games (the long game), their table ids."""
    ids = []
    with app.app_context():
        store = get_store()
        for _ in range(count):
            table = store.create_table("razzia", {"players": list(PLAYERS)})
            for move in moves:
                table = store.apply_move(table.id, move, table.version)
            ids.append(table.id)
    return ids


def main() -> None:
    """Build the games, time the pages, print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="finished games in the history")
    games = parser.parse_args().games
    moves = longest_game()
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"SECRET_KEY": "bench"}, instance_path=instance)
        client = app.test_client()
        few = finished_games(app, max(1, games // 4), moves)
        cold_few = min(cold_ms(instance, "/history") for _ in range(3))
        ids = few + finished_games(app, games - len(few), moves)
        one = ids[0]
        table_page = median_ms(client, f"/tables/{one}")
        results_page = median_ms(client, f"/tables/{one}/results")
        receipt = median_ms(client, f"/tables/{one}/print/80mm")
        cold_all = min(cold_ms(instance, "/history") for _ in range(3))
        history_all = median_ms(client, "/history")
    per_game = (cold_all / len(ids)) / (cold_few / len(few))
    rows = [
        ("results page / table page", results_page / table_page, results_page, table_page),
        ("receipt 80 mm / results page", receipt / results_page, receipt, results_page),
        (f"history per game, {len(ids)} / {len(few)} games (cold)", per_game, cold_all, cold_few),
        ("history, warm / cold", history_all / cold_all, history_all, cold_all),
        (
            f"history of {len(ids)} games / results page",
            history_all / results_page,
            history_all,
            results_page,
        ),
    ]
    print(f"{len(ids)} finished 5-player games of {len(moves)} moves each")
    print(f"{'measure':44} {'ratio':>7}   raw (ms)")
    for label, ratio, mine, base in rows:
        print(f"{label:44} {ratio:7.2f}   {mine:.1f} vs {base:.1f}")


if __name__ == "__main__":
    main()
