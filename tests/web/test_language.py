"""Language choice: the CS | EN switch, the browser's Accept-Language, translated refusals."""

import pytest

from companion_app.i18n import translate_error
from scoring.errors import IllegalMove


def test_english_by_default(client):
    """Without a choice or a header, pages are English."""
    page = client.get("/").get_data(as_text=True)
    assert 'lang="en"' in page and "New table" in page


def test_accept_language_cs_gives_czech(client):
    """A Czech browser gets Czech pages, game terms from the Czech rulebook."""
    page = client.get("/tables/new/razzia", headers={"Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5"})
    text = page.get_data(as_text=True)
    assert 'lang="cs"' in text
    assert "Nový stůl" in text and "Policistů do konce kola" in text


def test_unknown_language_falls_back_to_english(client):
    """A browser asking only for German gets the default, English."""
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'lang="en"' in page


def test_the_switch_remembers_the_choice_and_returns(client):
    """POST /lang stores the choice in the session, beats the header and goes back."""
    response = client.post("/lang", data={"lang": "cs", "next": "/score?x=1"})
    assert response.status_code == 303 and response.headers["Location"] == "/score?x=1"
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Bodovací list" in page and 'aria-pressed="true" class="current"' in page
    client.post("/lang", data={"lang": "en", "next": "/"})
    page = client.get("/", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "Score sheet" in page


def test_the_switch_is_on_every_page(client, pages):
    """Every page carries the CS | EN buttons."""
    url = pages.dealt()
    for path in (
        "/",
        "/tables/new",
        "/tables/new/razzia",
        "/score",
        "/score/razzia",
        url,
        f"{url}/history",
        f"{url}/results",
    ):
        page = client.get(path).get_data(as_text=True)
        assert 'data-testid="lang-cs"' in page and 'data-testid="lang-en"' in page, path


def test_the_switch_refuses_foreign_redirects_and_languages(client):
    """An outside `next` goes home; an unknown language changes nothing."""
    response = client.post("/lang", data={"lang": "xx", "next": "//evil.example/"})
    assert response.headers["Location"] == "/"
    assert 'lang="en"' in client.get("/").get_data(as_text=True)


def test_rule_messages_are_translated_with_their_card_names(app):
    """A refusal's template is translated and its card parameter too."""
    error = IllegalMove("The row holds no {card} to take.", card="horse racing")
    with app.test_request_context(headers={"Accept-Language": "cs"}):
        assert translate_error(error) == "Uprostřed stolu neleží žádná karta koňské dostihy."
    with app.test_request_context():
        assert translate_error(error) == "The row holds no horse racing to take."


def test_sheet_messages_translate_the_card_names_too(app):
    """A score-sheet refusal names the cards in Czech for a Czech browser."""
    from scoring.errors import InvalidSheet
    from scoring.sheets import score_sheet

    sheet = {"game": "razzia", "round": 1, "players": [{"name": "A", "gold": 9}, {"name": "B"}]}
    with pytest.raises(InvalidSheet) as refused:
        score_sheet(sheet)
    with app.test_request_context(headers={"Accept-Language": "cs"}):
        assert "9 × zlaté mince" in translate_error(refused.value)


def test_check_values_in_refusals_follow_the_locale(app):
    """'9,000' from the rules reads '9 000' (Czech grouping) on a Czech page."""
    error = IllegalMove(
        "A bid must beat the current {high} check; {check} is not higher.",
        high="9,000",
        check="2,000",
    )
    with app.test_request_context(headers={"Accept-Language": "cs"}):
        assert translate_error(error) == (
            "Nabídka musí přebít současný šek 9\u00a0000; 2\u00a0000 není vyšší."
        )
