"""The results pages through the test client: results, printouts, QR downloads, exports, history.

Bad input never gives a 500: unfinished tables get a clear 409 page, unknown ids a 404,
HTML in names stays text everywhere.
"""

import csv
import io
import json
import re
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest

from companion_app.results import verify
from companion_app.store import get_store
from scoring import games
from tests.results.conftest import NAMES, play_table
from tests.results.qr_decode import decode_png, decode_svg
from tests.web import game_script as g

EVIL = NAMES[1]  # "<b>Bob</b> & Co"
ESCAPED = "&lt;b&gt;Bob&lt;/b&gt; &amp; Co"
LAN = "http://192.168.1.20:8000"


def page(client, path: str, status: int = 200) -> str:
    """A page's HTML, checking its status."""
    response = client.get(path)
    assert response.status_code == status, (path, response.status_code)
    return response.get_data(as_text=True)


def bgstats_play(url: str) -> dict:
    """The play JSON inside a BG Stats createPlay link."""
    parts = urlsplit(url)
    assert parts.netloc == "app.bgstatsapp.com" and parts.path == "/createPlay.html"
    return json.loads(parse_qs(parts.query)["data"][0])


def test_results_page_ranks_with_scores_and_breakdowns(client, finished):
    """Ranking best first with the worked totals; per-category and per-round cells."""
    html = page(client, f"/tables/{finished}/results")
    ranking = re.findall(r'data-seat="(\d)" data-rank="(\d)" data-score="(-?\d+)"', html)
    assert [(int(s), int(r), int(t)) for s, r, t in ranking] == [
        (seat, g.FINAL_RANKS[seat], g.FINAL_TOTALS[seat]) for seat in range(4)
    ]
    assert "Winner: Čeněk Šťastný" in html
    # a negative number is written with the minus sign U+2212 (issue 32 item 5)
    cell = re.search(r'data-round="3" data-seat="1" data-cat="checks">(\u2212?\d+)<', html)
    assert int(cell.group(1).replace("\u2212", "-")) == g.ROUND_3_SCORES[1]["checks"]
    total = re.search(r'data-seat="2" data-cat="score">(\u2212?\d+)<', html)
    assert int(total.group(1).replace("\u2212", "-")) == g.FINAL_TOTALS[2]
    assert html.count('class="breakdown"') == 3  # one table per round
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html and "score-chart" in html


def test_results_page_shows_the_verification_code_of_the_log(app, client, finished):
    """The code on the page is the digest of the stored game's active moves."""
    with app.app_context():
        store = get_store()
        table = store.get(finished)
        moves = verify.active_moves(store.history(finished))
        expected = verify.verification_code("razzia", table.setup, moves)
    assert f'data-code="{expected}"' in page(client, f"/tables/{finished}/results")
    assert expected in page(client, f"/tables/{finished}/print/58mm")


def test_unfinished_table_gets_a_clear_message_not_zeros(client, unfinished):
    """Results of a running game: 409, a sentence and a link back; no ranking, no QR."""
    for path in ("results", "print/a4", "qr/link.png", "qr/bgstats.svg"):
        html = page(client, f"/tables/{unfinished}/{path}", status=409)
        assert "This game is not finished yet" in html
        assert f'href="/tables/{unfinished}"' in html
        assert 'data-testid="ranking"' not in html and "data-score" not in html


@pytest.mark.parametrize(
    "path",
    [
        "/tables/nope/results",
        "/tables/nope/print/a4",
        "/tables/nope/qr/link.png",
        "/tables/nope/export.json",
        "/tables/%3Cscript%3E/results",
    ],
)
def test_unknown_table_is_404(client, path):
    """An unknown id is a 404 page naming the id (escaped), never a 500."""
    html = page(client, path, status=404)
    assert "There is no table with id" in html and "<script>" not in html


@pytest.mark.parametrize("path", ["print/a5", "qr/other.png", "qr/link.gif"])
def test_unknown_paper_or_code_is_404(client, finished, path):
    """Only the listed papers, QR kinds and formats exist."""
    page(client, f"/tables/{finished}/{path}", status=404)


def test_html_in_names_is_escaped_everywhere(client, finished, unfinished):
    """A name with markup is text on the page, in the chart, on printouts and in the history."""
    paths = [
        f"/tables/{finished}/results",
        f"/tables/{finished}/print/a4",
        f"/tables/{finished}/print/80mm",
        f"/tables/{unfinished}/results",
        "/history",
    ]
    for path in paths:
        html = page(client, path, status=409 if unfinished in path else 200)
        assert EVIL not in html, path
        assert ESCAPED in html, path


@pytest.mark.parametrize("paper", ["a4", "letter", "80mm", "58mm"])
def test_printouts_set_their_paper_size(client, finished, paper):
    """Each printout asks for its page size and carries both QR images."""
    html = page(client, f"/tables/{finished}/print/{paper}")
    size = {"a4": "A4", "letter": "letter", "80mm": "80mm 297mm", "58mm": "58mm 297mm"}[paper]
    sheet = f"/static/print/{paper}.css"
    assert f'href="{sheet}?v=' in html and "<style" not in html
    with client.get(sheet) as response:  # a static file: close it
        assert f"@page {{ size: {size};" in response.get_data(as_text=True)
    assert f"/tables/{finished}/qr/link.png" in html
    assert f"/tables/{finished}/qr/bgstats.png" in html


def test_link_qr_points_at_the_configured_base_url(app, client, finished):
    """COMPANION_BASE_URL (the LAN address) is what the results QR code carries."""
    app.config["BASE_URL"] = LAN + "/"
    expected = f"{LAN}/tables/{finished}/results"
    assert decode_png(client.get(f"/tables/{finished}/qr/link.png").data) == expected
    svg = client.get(f"/tables/{finished}/qr/link.svg").get_data(as_text=True)
    assert decode_svg(svg) == expected


def test_link_qr_defaults_to_the_address_the_tablet_used(client, finished):
    """Without a configured base URL the link uses the host the request came to."""
    decoded = decode_png(client.get(f"/tables/{finished}/qr/link.png").data)
    assert decoded == f"http://localhost/tables/{finished}/results"


def test_bgstats_qr_carries_the_play_with_czech_names(client, finished):
    """The BG Stats code decodes to the play: keys, names with diacritics, scores, ranks."""
    for fmt in ("png", "svg"):
        response = client.get(f"/tables/{finished}/qr/bgstats.{fmt}?download=1")
        assert response.headers["Content-Disposition"].startswith("attachment;")
        text = decode_png(response.data) if fmt == "png" else decode_svg(response.get_data(True))
        play = bgstats_play(text)
        # The code carries the compact play (bgstats.compact): noPoints false is left out.
        assert play["game"] == {"name": "Razzia!", "highestWins": True, "sourceGameId": "razzia"}
        players = play["players"]
        assert [p["name"] for p in players] == NAMES
        assert [p["score"] for p in players] == g.FINAL_TOTALS
        assert [p["rank"] for p in players] == g.FINAL_RANKS
        assert [p["winner"] for p in players] == [True, False, False, False]
        assert [p.get("startPlayer", False) for p in players] == [True, False, False, False]
        assert play["sourcePlayId"] == finished
        assert re.match(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$", play["playDate"])


def test_export_json_holds_setup_log_results_and_code(client, finished):
    """The game export: setup, every move in order, the results and the code on the page."""
    response = client.get(f"/tables/{finished}/export.json")
    assert response.headers["Content-Disposition"].startswith("attachment;")
    data = response.get_json()
    assert data["setup"] == {"players": NAMES}
    assert data["log"][0]["move"] == {"type": "deal", "sets": g.SETS}
    assert len(data["log"]) == 1 + sum(len(steps) for steps, _s, _t in g.ROUNDS) + 2
    assert [p["score"] for p in data["results"]["players"]] == g.FINAL_TOTALS
    html = page(client, f"/tables/{finished}/results")
    assert f'data-code="{data["verification_code"]}"' in html


def test_code_follows_the_log_through_undo(app, client, unfinished):
    """Undo and redo the same move: same code; a different move instead: another code."""

    def code() -> str:
        return client.get(f"/tables/{unfinished}/export.json").get_json()["verification_code"]

    last = {"type": "draw", "seat": g.ANN, "card": "police"}  # the raid that ended round 1
    other = {"type": "draw", "seat": g.ANN, "card": "ring"}
    with app.app_context():
        store = get_store()
        before = code()
        table = store.undo(unfinished, store.get(unfinished).version)
        assert code() != before  # the last move is gone
        table = store.apply_move(unfinished, last, table.version)
        assert code() == before  # the same active log again
        table = store.undo(unfinished, table.version)
        store.apply_move(unfinished, other, table.version)
        assert code() != before  # another move in its place


def test_history_lists_finished_games_only_with_filters(app, client, finished, unfinished):
    """History: finished games; filters by game and by player (any case); stats follow."""
    other = play_table(app, names=["Ann", "Bob", "Cid", "Dee"])
    html = page(client, "/history")
    assert f'data-table="{finished}"' in html and f'data-table="{other}"' in html
    assert f'data-table="{unfinished}"' not in html
    only = page(client, "/history?player=%C5%BEOFIE")  # "žOFIE"
    assert f'data-table="{finished}"' in only and f'data-table="{other}"' not in only
    assert "data-game=" in only
    none = page(client, "/history?game=chess")
    assert "data-table=" not in none and "No finished game matches." in none


def test_history_statistics_per_player(app, client, finished):
    """Plays, wins, win rate, average and best score per player and game."""
    play_table(app)  # the same four play again: two identical games
    html = page(client, "/history")
    row = re.search(r'data-player="Čeněk Šťastný" data-game="razzia">(.*?)</tr>', html, re.S)
    stats = dict(re.findall(r'data-stat="(\w+)">([^<]*)<', row.group(1)))
    assert stats == {"plays": "2", "wins": "2", "win_rate": "100%", "average": "6", "best": "6"}


def test_history_csv_keeps_czech_names(app, client, finished):
    """The CSV download: one line per player, UTF-8 with a BOM for spreadsheets."""
    response = client.get("/history.csv?player=Dee")
    assert response.mimetype == "text/csv"
    body = response.data.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(body[1:])))
    assert [row["player"] for row in rows] == NAMES
    assert [int(row["score"]) for row in rows] == g.FINAL_TOTALS


def _lowest_wins_game() -> SimpleNamespace:
    """A made-up game without rounds where the lowest score wins: the plug-in seam."""

    def new_table(setup):
        return {"players": setup["players"], "scores": None}

    def apply(state, move):
        return {**state, "scores": move["scores"]}

    def results(state):
        scores = state["scores"] or [0] * len(state["players"])
        ranks = [1 + sum(other < score for other in scores) for score in scores]
        return {
            "finished": state["scores"] is not None,
            "highest_wins": False,
            "players": [
                {
                    "seat": seat,
                    "name": name,
                    "score": scores[seat],
                    "rank": ranks[seat],
                    "winner": state["scores"] is not None and ranks[seat] == 1,
                    "start_player": seat == 0,
                    "breakdown": {"money": scores[seat]},
                }
                for seat, name in enumerate(state["players"])
            ],
            "categories": ["money"],
            "rounds": [],
        }

    def summary(state):
        return {"finished": state["scores"] is not None}

    return SimpleNamespace(
        new_table=new_table,
        complete_move=lambda state, move, rng: dict(move),
        apply=apply,
        results=results,
        summary=summary,
    )


def test_a_new_game_plugs_in_by_providing_results(app, client, monkeypatch):
    """A game with only results(state): page, shared first places, no chart, BG Stats rule."""
    monkeypatch.setitem(games._GAMES, "lowball", _lowest_wins_game)
    with app.app_context():
        store = get_store()
        table = store.create_table("lowball", {"players": ["Ann", "Bob", "Cid"]})
        store.apply_move(table.id, {"scores": [3, 3, 9]}, table.version)
    html = page(client, f"/tables/{table.id}/results")
    ranks = re.findall(r'data-rank="(\d)" data-score="(\d+)"', html)
    assert ranks == [("1", "3"), ("1", "3"), ("3", "9")]
    assert html.count(">shared<") == 2
    assert "score-chart" not in html
    play = bgstats_play(decode_png(client.get(f"/tables/{table.id}/qr/bgstats.png").data))
    assert play["game"]["highestWins"] is False and play["game"]["name"] == "lowball"
    assert [p["winner"] for p in play["players"]] == [True, True, False]
