"""A person's page (issue 26 item 3): games played and won per game, placings over time as a
server-side chart, recent games linking to their results, head-to-head, ratings explained.

Ranks are the results' ranks (docs/game-contract.md: 1 + the players strictly better); a
shared first place is a win, as the results page marks every rank-1 player a winner.
"""

import re

from companion_app.store import db, get_store, roster
from scoring import games
from tests.club import ranked_game
from tests.results.conftest import play_table


def test_games_per_game_chart_recent_games_and_head_to_head(app, client, club, monkeypatch):
    monkeypatch.setitem(games._GAMES, "ranked_b", lambda: ranked_game.MODULE)
    first = club.play(["Ann", "Bob", "Cid"], [1, 2, 3])
    club.play(["Bob", "Ann"], [1, 1])  # a shared win
    with app.app_context():
        store = get_store()
        table = store.create_table("ranked_b", {"players": ["Cid", "Ann"]})
        store.apply_move(table.id, {"type": "finish", "ranks": [1, 2]}, table.version)
        other = table.id
        club.start(["Ann", "Dee"])  # in play: not counted
        ann = roster.find(db.get_db(), "Ann")
        bob = roster.find(db.get_db(), "Bob")
    html = client.get(f"/people/{ann}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<span class="big-number" data-stat="played">3</span>' in html
    assert '<span class="big-number" data-stat="won">2</span>' in html
    by_game = re.findall(
        r'<tr data-game="(\w+)">.*?data-stat="played">(\d+)</td><td data-stat="won">(\d+)<',
        html,
        re.S,
    )
    assert by_game == [("ranked", "2", "2"), ("ranked_b", "1", "0")]
    # the chart: one dot per finished game, server-side SVG with a title per dot
    chart = re.search(r'data-testid="placings-chart">(.*?)</svg>', html, re.S).group(1)
    assert chart.count('<g class="game-dot">') == 3 + 2  # three games, two legend markers
    assert "<title>ranked: 1/3</title>" in chart and "<title>ranked_b: 2/2</title>" in chart
    # recent games, newest first, each linking to its results
    recent = re.findall(r'data-testid="recent">(.*?)</ul>', html, re.S)[0]
    links = re.findall(r'href="/tables/(\w+)/results"', recent)
    assert links[0] == other and links[-1] == first and len(links) == 3
    assert "place 2 of 2" in recent and "place 1 of 3" in recent
    # head-to-head: Bob twice (ahead once, level once), Cid twice (ahead once, behind once)
    rows = dict(
        (name, nums)
        for name, *nums in re.findall(
            r'<tr data-rival="\d+"[^>]*>\s*<th scope="row"><a [^>]*>(\w+)</a></th>\s*'
            r'<td data-stat="together">(\d+)</td><td data-stat="ahead">(\d+)</td>'
            r'<td data-stat="behind">(\d+)</td><td data-stat="level">(\d+)</td>',
            html,
        )
    )
    assert rows == {"Bob": ["2", "1", "0", "1"], "Cid": ["2", "1", "1", "0"]}
    vs = client.get(f"/people/{ann}?vs={bob}").get_data(as_text=True)
    shared = re.search(r'data-testid="vs-games">(.*?)</ul>', vs, re.S).group(1)
    assert shared.count("<li>") == 2
    assert 'data-testid="rating-note"' in html and "μ − 3σ" in html


def test_a_real_game_counts_on_the_page_with_its_results_link(app, client):
    """A Razzia! game played through the store (RULES.md §1 scoring) counts like any other."""
    table = play_table(app, names=["Čeněk", "Bob", "Žofie", "Dee"])
    with app.app_context():
        conn = db.get_db()
        ceněk = roster.find(conn, "čeněk")
        final = get_store().get(table)
    html = client.get(f"/people/{ceněk}").get_data(as_text=True)
    assert f'href="/tables/{table}/results"' in html
    assert '<span class="big-number" data-stat="played">1</span>' in html
    assert final.finished
