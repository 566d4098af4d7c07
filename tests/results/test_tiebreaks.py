"""The value that broke each tie, wherever players are ranked (issue 23 item 5).

A 9-player Cech zlodějů game where all nine end on 0 gold (tests/results/cech_tie.py): the
results page, the four printouts, the archive, its CSV, the BG Stats play and the JSON export
all show each player's cards in hand, which ranked them (RULES.md §3 "End": "Most gold wins;
tie → more cards in hand"; seed: "Při shodě zlatých, vítězí hráč s větším počtem karet").
"""

import csv
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from companion_app.results import tiebreaks
from scoring import adel_verpflichtet, for_sale, razzia, thieves_guild
from tests.results import cech_tie
from tests.results.qr_decode import decode_png
from tests.results.test_other_games import play_to_the_end
from tests.scoring import for_sale_random, prodigals_play, prodigals_random

CZECH = {"Accept-Language": "cs"}
PAPERS = ("a4", "letter", "80mm", "58mm")


@pytest.fixture
def tie(app) -> str:
    """The finished 9-player tie on gold; its table id."""
    return cech_tie.play(app)


def page(client, url: str, headers: dict | None = None) -> str:
    """A page's HTML (200 expected)."""
    response = client.get(url, headers=headers or {})
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def shown_tiebreaks(html: str) -> dict[int, str]:
    """Per seat, the tie-break text beside the player's rank."""
    found = re.findall(r'data-testid="tiebreak-(\d)">([^<]*)<', html)
    return {int(seat): " ".join(text.split()) for seat, text in found}


def test_cech_results_carry_the_cards_as_the_tie_break():
    """The rules' results name what breaks a tie and give every player's value."""
    state = thieves_guild.new_table(cech_tie.SETUP)
    for move in cech_tie.MOVES:
        state = thieves_guild.apply(state, move)
    final = thieves_guild.results(state)
    assert final["tiebreaks"] == ["cards"]
    assert [player["tiebreak"] for player in final["players"]] == [[n] for n in cech_tie.CARDS]
    assert [player["rank"] for player in final["players"]] == cech_tie.RANKS
    assert tiebreaks.tied_seats(final) == set(range(9))


def test_results_page_shows_each_tied_players_cards(client, tie):
    html = page(client, f"/tables/{tie}/results")
    assert shown_tiebreaks(html) == {
        seat: f"Tie-break: Cards in hand {cards}" for seat, cards in enumerate(cech_tie.CARDS)
    }
    cells = re.findall(r'data-seat="(\d)" data-cat="tiebreak">(\d+)<', html)
    assert [int(value) for _seat, value in cells] == cech_tie.CARDS
    assert "Gold at the end" in html  # the score is gold, not points


def test_results_page_in_czech(client, tie):
    html = page(client, f"/tables/{tie}/results", CZECH)
    assert shown_tiebreaks(html)[0] == "Při shodě rozhoduje: Karty v ruce 5"


@pytest.mark.parametrize("paper", PAPERS)
def test_every_printout_shows_the_cards_of_every_tied_player(client, tie, paper):
    html = page(client, f"/tables/{tie}/print/{paper}")
    assert shown_tiebreaks(html) == {
        seat: f"Cards in hand {cards}"
        if paper.endswith("mm")
        else f"Tie-break: Cards in hand {cards}"
        for seat, cards in enumerate(cech_tie.CARDS)
    }
    for name in cech_tie.NAMES:
        assert name in html


def test_archive_lists_the_tie_breaks_beside_the_scores(client, tie):
    html = page(client, "/history")
    found = dict(re.findall(r'class="tiebreak" data-seat="(\d)">\(([^)]*)\)', html))
    assert found == {str(seat): f"Cards in hand {n}" for seat, n in enumerate(cech_tie.CARDS)}
    assert "1. <strong>Alžběta</strong> 0" in html


def test_csv_carries_what_broke_the_tie_and_each_value(client, tie):
    text = client.get("/history.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["tiebreak_by"] for row in rows] == ["cards"] * 9
    assert [int(row["tiebreak_1"]) for row in rows] == cech_tie.CARDS
    assert [row["tiebreak_2"] for row in rows] == [""] * 9
    assert [int(row["rank"]) for row in rows] == cech_tie.RANKS


def test_bgstats_play_names_the_tie_break_in_its_comments(client, tie):
    url = decode_png(client.get(f"/tables/{tie}/qr/bgstats.png").data)
    play = json.loads(parse_qs(urlsplit(url).query)["data"][0])
    assert [player["rank"] for player in play["players"]] == cech_tie.RANKS
    # One group: all nine share 0 gold, listed best first with the cards that ranked them.
    assert play["comments"].endswith(
        " · Tie-break: Alžběta (Cards in hand 5), Zdeněk (Cards in hand 4), "
        "Květoslava (Cards in hand 3), Radoslav (Cards in hand 3), Ludmila (Cards in hand 3), "
        "Bohumila (Cards in hand 2), Svatopluk (Cards in hand 2), Jaroslava (Cards in hand 2), "
        "Přemysl (Cards in hand 1)"
    )


def test_json_export_keeps_the_results_with_their_tie_breaks(client, tie):
    exported = client.get(f"/tables/{tie}/export.json").get_json()
    assert exported["results"]["tiebreaks"] == ["cards"]
    assert [p["tiebreak"] for p in exported["results"]["players"]] == [[n] for n in cech_tie.CARDS]


def test_no_tie_no_tie_break_text(client, app):
    """Where nobody shares a score, the ranking shows no tie-break (it decided nothing)."""
    from companion_app.store import get_store

    with app.app_context():
        store = get_store()
        table = store.create_table("thieves_guild", cech_tie.SETUP)
        for move in [
            {"type": "start", "seat": 0},
            {"type": "loot", "roll": 6},
            {
                "type": "card",
                "seat": 1,
                "card": "Drzost",
                "transfers": [{"from": 2, "to": 1, "gold": 13}],
            },
            {"type": "settle"},
        ]:
            table = store.apply_move(table.id, move, table.version)
    html = page(client, f"/tables/{table.id}/results")
    # Seven players share 13 gold: their cards decide; Bohumila (26) and Svatopluk (0) do not tie.
    assert set(shown_tiebreaks(html)) == {0, 3, 4, 5, 6, 7, 8}


# -- every game names its tie-break (docs/game-contract.md "Final results") ------------------


def test_for_sale_ties_are_broken_by_coins(app):
    """RULES.md §2 "End": "Richest wins; tie → more coins"."""
    _table, final = play_to_the_end(
        app, "for_sale", {"players": ["A", "B", "C", "D"]}, for_sale_random.random_move, 3
    )
    assert final["tiebreaks"] == ["coins"]
    assert all(player["tiebreak"] == [player["coins"]] for player in final["players"])


def test_adel_ties_are_broken_by_the_final_exhibition():
    """RULES.md §4 "End": "tie → better final exhibition" (more cards, then the oldest object)."""
    final = adel_verpflichtet.results(
        {
            "phase": "game_over",
            "players": [
                {
                    "name": name,
                    "position": 21,
                    "gained": {"exhibitions": 13, "detectives": 0, "final": 8},
                }
                for name in ("Ann", "Bob")
            ],
            "ranks": [1, 2],
            "final": [
                [{"letter": "A", "year": 1620}, {"letter": "B", "year": 1700}],
                [{"letter": "C", "year": 1650}, {"letter": "D", "year": 1710}],
            ],
        }
    )
    assert final["tiebreaks"] == ["final_cards", "oldest_object"]
    assert [player["tiebreak"] for player in final["players"]] == [[2, 1620], [2, 1650]]


def test_adel_a_player_without_a_final_exhibition_has_no_oldest_object():
    final = adel_verpflichtet.results(
        {
            "phase": "game_over",
            "players": [
                {
                    "name": "Ann",
                    "position": 3,
                    "gained": {"exhibitions": 3, "detectives": 0, "final": 0},
                }
            ],
            "ranks": [1],
            "final": [[]],
        }
    )
    assert final["players"][0]["tiebreak"] == [0, None]


@pytest.mark.parametrize("competitions", [["property", "election"], prodigals_play.ALL])
def test_klub_ties_are_broken_by_the_second_then_third_highest_score(app, competitions):
    """RULES.md §5 "End of game": "tie → compare second-highest; ... then third-highest"."""
    setup = prodigals_play.setup(["Čeněk", "Bob", "Cid"], competitions=competitions)
    _table, final = play_to_the_end(app, "prodigals_club", setup, prodigals_random.random_move, 7)
    assert final["tiebreaks"] == ["second_highest", "third_highest"][: len(competitions) - 1]
    for player in final["players"]:
        ordered = sorted(player["breakdown"].values(), reverse=True)
        assert player["tiebreak"] == ordered[1:]


def test_razzia_shares_ties_and_names_no_tie_break():
    """RULES.md §1: the most points wins; the seed breaks no tie, so a tie is shared."""
    state = razzia.new_table({"players": ["Ann", "Bob"]})
    final = razzia.results(state)
    assert final["tiebreaks"] == [] and all(p["tiebreak"] == [] for p in final["players"])
    assert tiebreaks.tied_seats(final) == set()


def test_the_shared_pages_read_the_tie_break_of_any_game():
    """tie_groups: players of each shared score, best rank first."""
    final = {
        "tiebreaks": ["coins"],
        "players": [
            {"seat": 0, "score": 5, "rank": 3, "tiebreak": [1]},
            {"seat": 1, "score": 7, "rank": 1, "tiebreak": [4]},
            {"seat": 2, "score": 7, "rank": 2, "tiebreak": [2]},
            {"seat": 3, "score": 5, "rank": 3, "tiebreak": [1]},
        ],
    }
    groups = [[player["seat"] for player in group] for group in tiebreaks.tie_groups(final)]
    assert groups == [[1, 2], [0, 3]]
    assert for_sale.results  # every game module exposes results (imported above)
