"""For Sale and Klub ztroskotanců reach the same results pages through their results(state)."""

import json
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from companion_app.games import view_for
from companion_app.store import get_store
from companion_app.store import reveals as reveal
from scoring.games import get_game
from tests.results.qr_decode import decode_png
from tests.scoring import for_sale_random, prodigals_play, prodigals_random

MAX_STEPS = 2000


def play_to_the_end(app, game: str, setup: dict, random_move, seed: int) -> tuple[str, dict]:
    """A random legal game played through the store until it is over: (table id, results)."""
    rng = random.Random(seed)
    with app.app_context():
        store = get_store()
        table = store.create_table(game, setup)
        for _step in range(MAX_STEPS):
            if table.state["phase"] == "game_over":
                break
            rules = get_game(game)
            if getattr(rules, "reveal_seats", None) and rules.reveal_seats(table.state):
                lock_everyone(table.id)  # a simultaneous choice: every seat presses first
            table = store.apply_move(table.id, random_move(table.state, rng), table.version)
        final = get_game(game).results(table.state)
    assert final["finished"], "the random game did not end"
    return table.id, final


def lock_everyone(table_id: str) -> None:
    """Every seat of the pending reveal presses its button."""
    current = reveal.current(table_id)
    for seat in current.seats:
        reveal.press(table_id, current.id, seat)


def bgstats_game(client, table_id: str) -> dict:
    """The game object of the BG Stats QR code."""
    url = decode_png(client.get(f"/tables/{table_id}/qr/bgstats.png").data)
    return json.loads(parse_qs(urlsplit(url).query)["data"][0])["game"]


def ranking_on_page(html: str) -> list[tuple[int, int, int]]:
    """(seat, rank, score) of the ranking, as listed."""
    found = re.findall(r'data-seat="(\d)" data-rank="(\d)" data-score="(-?\d+)"', html)
    return [(int(seat), int(rank), int(score)) for seat, rank, score in found]


def expected_ranking(final: dict) -> list[tuple[int, int, int]]:
    """The results' players best first (ties by seat)."""
    rows = sorted(final["players"], key=lambda p: (p["rank"], p["seat"]))
    return [(p["seat"], p["rank"], p["score"]) for p in rows]


@pytest.mark.parametrize("seed", [1, 2])
def test_for_sale_results_page(app, client, seed):
    """For Sale: the ranking of its results, its title and categories, BGG id 172."""
    names = ["Čeněk", "Bob", "Cid", "Dee"]
    table_id, final = play_to_the_end(
        app, "for_sale", {"players": names}, for_sale_random.random_move, seed
    )
    html = client.get(f"/tables/{table_id}/results").get_data(as_text=True)
    assert ranking_on_page(html) == expected_ranking(final)
    assert "For Sale" in html
    with app.test_request_context():
        labels = [str(label) for label in view_for("for_sale").CATEGORY_LABELS.values()]
    assert all(label in html for label in labels)  # the view module labels the categories
    game = bgstats_game(client, table_id)
    assert game["bggId"] == 172 and game["highestWins"] is True


@pytest.mark.parametrize("seed", [3, 4])
def test_klub_ztroskotancu_results_page(app, client, seed):
    """Klub ztroskotanců: lowest score wins, and BG Stats is told so."""
    setup = prodigals_play.setup(["Čeněk", "Bob", "Cid"])
    table_id, final = play_to_the_end(
        app, "prodigals_club", setup, prodigals_random.random_move, seed
    )
    html = client.get(f"/tables/{table_id}/results").get_data(as_text=True)
    assert ranking_on_page(html) == expected_ranking(final)
    game = bgstats_game(client, table_id)
    assert game["highestWins"] is False and game["name"] == "The Prodigals Club"
    assert client.get(f"/tables/{table_id}/print/58mm").status_code == 200


def test_rules_5_results_and_bg_stats_mark_round_one_s_first_player_as_start_player(app, client):
    """RULES.md §5: Cid starts round 1; Bob reserves place 1 and starts round 2, when the game
    ends. The results page and BG Stats name Cid, who started the game, as start player."""
    setup = prodigals_play.setup(["Ann", "Bob", "Cid"], order=[2, 0, 1])
    moves = [
        {"type": "reserve", "seat": 1, "place": 1},
        {"type": "end_actions"},
        {"type": "hyde_park", "megaphones": [0, 0, 0]},
        {"type": "old_lady", "exempt": []},
        {"type": "end_round"},
        {"type": "society", "seat": 1, "sum": 0},
        {"type": "end_actions"},
        {"type": "hyde_park", "megaphones": [0, 0, 0]},
        {"type": "old_lady", "exempt": []},
    ]
    with app.app_context():
        store = get_store()
        table = store.create_table("prodigals_club", setup)
        for move in moves:
            table = store.apply_move(table.id, move, table.version)
        assert table.state["phase"] == "game_over" and table.state["order"][0] == 1
    url = decode_png(client.get(f"/tables/{table.id}/qr/bgstats.png").data)
    players = json.loads(parse_qs(urlsplit(url).query)["data"][0])["players"]
    assert [p.get("startPlayer", False) for p in players] == [False, False, True]
    html = client.get(f"/tables/{table.id}/results").get_data(as_text=True)
    assert html.count('class="tag"') == 1
    assert re.search(r"Cid</[^>]*>\s*<span class=\"tag\"", html), html
