"""The per-game seam as a player meets it: choosing the game of a new table or score sheet."""

import re

from companion_app.games import VIEWS, view_for
from scoring.games import game_names


def text(response) -> str:
    """The body of a page that rendered."""
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def test_new_table_lists_every_playable_game(client):
    """Each game with rules and a view gets a button to its own setup form."""
    page = text(client.get("/tables/new"))
    playable = [game for game in game_names() if game in VIEWS]
    assert "razzia" in playable
    for game in playable:
        assert f'href="/tables/new/{game}"' in page
        assert (
            text(client.get(f"/tables/new/{game}")).count('name="player"')
            == view_for(game).MAX_PLAYERS
        )


def test_a_setup_page_title_is_words_only(client):
    """The tab reads "New table: Razzia! · Table companion": no markup in the title (a script
    tag written into the title block showed as text there)."""
    for game in VIEWS:
        page = text(client.get(f"/tables/new/{game}"))
        title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
        assert "<" not in title and title.startswith("New table: "), title
        assert page.count("roster.js") == 1  # the roster's script once, in the body


def test_unknown_game_setup_is_404_not_500(client):
    """A typed URL of a game we do not have is a plain 404 page."""
    assert client.get("/tables/new/chess").status_code == 404
    assert client.post("/tables/new/chess", data={"player": ["A", "B"]}).status_code == 404


def test_score_sheet_page_links_every_calculator(client):
    """/score offers the form of each game that has one."""
    page = text(client.get("/score"))
    for game in VIEWS:
        endpoint = getattr(view_for(game), "SCORE_ENDPOINT", None)
        if endpoint and game in game_names():
            assert f'href="/score/{game}' in page


def test_home_names_the_game_of_each_table(client, pages):
    """The resume list says which game each table is."""
    pages.dealt()
    assert "Razzia!" in text(client.get("/"))
