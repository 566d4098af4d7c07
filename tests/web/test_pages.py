"""Home, new table, the table page, history and results through the test client."""

import re

from companion_app.store import get_store
from tests.web import game_script as g


def text(response) -> str:
    """A response body as text."""
    return response.get_data(as_text=True)


def table_id(url: str) -> str:
    """The id at the end of a table URL."""
    return url.rsplit("/", 1)[-1]


def test_home_offers_a_new_table_and_says_nothing_is_running(client):
    """An empty home page: the new-table button and two empty lists."""
    page = text(client.get("/"))
    assert 'href="/tables/new"' in page
    assert "No game in progress." in page and "No finished game yet." in page


def test_new_table_shows_the_player_count_variants(client):
    """The form lists the variant of every player count: checks in play, per player, police."""
    page = text(client.get("/tables/new/razzia"))
    rows = re.findall(r'<tr data-players="(\d)">(.*?)</tr>', page, re.S)
    cells = {int(n): re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for n, row in rows}
    assert cells[2] == ["2", "1,000 – 9,000", "4", "5"]
    assert cells[3] == ["3", "1,000 – 13,000", "4", "7"]
    assert cells[4] == ["4", "1,000 – 13,000", "3", "7"]
    assert cells[5] == ["5", "1,000 – 16,000", "3", "7"]


def test_seating_players_creates_a_table_waiting_for_the_deal(client, pages, app):
    """Four names in seat order, blanks skipped; the table page offers the deal."""
    response = client.post("/tables/new/razzia", data={"player": ["Ann", "", "Bob", "Cid", "Dee"]})
    assert response.status_code == 303
    url = response.headers["Location"]
    with app.app_context():
        state = get_store().get(table_id(url)).state
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cid", "Dee"]
    page = text(client.get(url))
    assert 'data-testid="deal-lot"' in page and "3 checks each" in page
    assert "police officer number 7" in page


def test_bad_players_are_refused_next_to_the_names_and_kept(client, app):
    """One name only: the rule's sentence next to the names, the typed name kept, no table."""
    response = client.post("/tables/new/razzia", data={"player": ["Solo", "", "", "", ""]})
    assert response.status_code == 400
    page = text(response)
    assert re.search(r'data-error="players">Razzia! is played by 2 to 5 players, not 1.', page)
    assert 'value="Solo"' in page
    with app.app_context():
        assert get_store().list_tables() == []


def test_duplicate_names_are_refused_in_czech_too(client):
    """The refusal is translated for a Czech browser."""
    response = client.post(
        "/tables/new/razzia", data={"player": ["Ann", "ann"]}, headers={"Accept-Language": "cs"}
    )
    assert "Hráči 1 a 2 mají stejné jméno" in text(response)


def test_a_script_tag_in_a_name_is_shown_escaped_everywhere(client, pages):
    """Player names are user input: autoescaped on every page, never markup."""
    evil = "<script>alert(1)</script>"
    url = pages.create([evil, "Bob"])
    pages.post(url, {"type": "deal"})
    for path in ("/", url, f"{url}/history", f"{url}/results"):
        page = text(client.get(path))
        assert evil not in page, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, path


def test_table_page_shows_centre_police_row_and_whose_turn(client, pages):
    """After the deal: centre 1,000, police 0/7 with seven slots, Ann (13,000) to play."""
    url = pages.dealt()
    pages.play(url, [(g.ANN, "draw", "ring"), (g.BOB, "draw", "police")])
    page = text(client.get(url))
    assert 'data-testid="centre">1,000<' in page
    assert 'data-testid="police">1/7<' in page
    assert page.count('<li class="filled">') == 1 and page.count('<li class=""></li>') == 6
    assert 'data-kind="ring"' in page
    assert re.search(r'data-testid="turn" data-seat="2">\s*Cid: bid or pass', page)


def test_turn_offers_every_kind_left_in_the_deck(client, pages):
    """The draw grid has a button per kind still in the deck, police included."""
    url = pages.dealt()
    page = text(client.get(url))
    cards = re.findall(r'name="card" value="(\w+)"', page)
    assert len(cards) == 18 and "police" in cards and "horse_racing" in cards


def test_player_panels_show_checks_and_loot_by_kind(client, pages):
    """Face-up checks by value, face-down ones counted (RULES.md §1: they lie face down), loot."""
    url = pages.dealt()
    pages.play(url, g.ROUND_1[:7])  # Bob wins ring and car with 7,000
    page = text(client.get(url))
    bob = page[page.index('data-testid="player-1"') : page.index('data-testid="player-2"')]
    assert re.findall(r'class="check up" data-check="(\d+)"', bob) == ["3000", "12000"]
    assert 'data-testid="checks-face-down-1" data-count="1"' in bob and "1 face down" in bob
    assert 'class="check down" data-check' not in bob
    assert 'data-kind="ring" data-count="1"' in bob and 'data-kind="car" data-count="1"' in bob


def test_live_standings_come_from_the_rules(client, pages, app):
    """ "If the round ended now" shows live_standings for every player."""
    url = pages.dealt()
    pages.play(url, g.ROUND_1[:7])
    with app.app_context():
        from scoring.razzia import live_standings

        expected = live_standings(get_store().get(table_id(url)).state)
    page = text(client.get(url))
    shown = [int(total) for total in re.findall(r'data-total="(-?\d+)"', page)]
    assert shown == [row["total"] for row in expected]


def test_unknown_table_is_a_404_page(client):
    """A table id that does not exist gives the store's sentence."""
    response = client.get("/tables/nope")
    assert response.status_code == 404 and "There is no table with id nope." in text(response)


def test_home_lists_running_and_finished_games(client, pages):
    """A running table under resume, a finished one with its winner."""
    running = pages.dealt()
    finished = pages.dealt()
    for number, (steps, _scores, _totals) in enumerate(g.ROUNDS):
        pages.play(finished, steps)
        if number < 2:
            pages.post(finished, {"type": "next_round"})
    page = text(client.get("/"))
    playing = page[page.index('data-testid="playing"') : page.index('data-testid="finished"')]
    done = page[page.index('data-testid="finished"') :]
    assert f'href="{running}"' in playing and table_id(finished) not in playing
    assert f'href="{finished}/results"' in done and "Winner: Ann" in done
