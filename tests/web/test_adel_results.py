"""A random Adel Verpflichtet game through the store reaches the shared results pages."""

import json
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from companion_app.store import get_store
from companion_app.store import reveals as reveal
from scoring import adel_verpflichtet as adel
from tests.results.qr_decode import decode_png
from tests.scoring.adel_random import random_move, random_setup

MAX_STEPS = 3000


def play_to_the_end(app, count: int, seed: int, variant=None) -> tuple[str, dict]:
    """A random legal game through the store, every secret choice locked in first."""
    rng = random.Random(seed)
    values, piles = random_setup(count, rng, variant)
    hidden = [list(pile[1:]) for pile in piles]
    with app.app_context():
        store = get_store()
        table = store.create_table("adel_verpflichtet", values)
        for _step in range(MAX_STEPS):
            if table.state["phase"] == "game_over":
                break
            if adel.reveal_seats(table.state):
                current = reveal.current(table.id)
                for seat in current.seats:
                    reveal.press(table.id, current.id, seat)
            move = random_move(table.state, rng)
            if move["type"] == "buy":
                pile = hidden[move["pile"]]
                move["next"] = pile.pop(0) if pile else None
            table = store.apply_move(table.id, move, table.version)
        final = adel.results(table.state)
    assert final["finished"], "the random game did not end"
    return table.id, final


@pytest.mark.parametrize(("count", "seed", "variant"), [(3, 1, None), (2, 2, "conflict")])
def test_results_page_ranking_bg_stats_and_printout(app, client, count, seed, variant):
    table_id, final = play_to_the_end(app, count, seed, variant)
    html = client.get(f"/tables/{table_id}/results").get_data(as_text=True)
    found = re.findall(r'data-seat="(\d)" data-rank="(\d)" data-score="(-?\d+)"', html)
    shown = [(int(seat), int(rank), int(score)) for seat, rank, score in found]
    rows = sorted(final["players"], key=lambda p: (p["rank"], p["seat"]))
    assert shown == [(p["seat"], p["rank"], p["score"]) for p in rows]
    assert "Adel Verpflichtet" in html
    url = decode_png(client.get(f"/tables/{table_id}/qr/bgstats.png").data)
    game = json.loads(parse_qs(urlsplit(url).query)["data"][0])["game"]
    assert game["name"] == "Adel Verpflichtet" and game["highestWins"] is True
    assert client.get(f"/tables/{table_id}/print/58mm").status_code == 200
