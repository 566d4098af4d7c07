"""Klub's society chart on the pages: setup grid, pre-fill, token steppers (RULES.md §5)."""

import re

import pytest

from tests.live import check_tablet_fit, screenshot
from tests.web.test_prodigals_browser import TARGETS
from tests.web.test_prodigals_pages import NEW, PLAYERS, Club, error_in, setup_form

#: Whether an element lies inside the viewport as the page stands.
IN_VIEW = "el => el.getBoundingClientRect().bottom <= innerHeight"
#: A test chart (not the printed one): 4 columns, bottom space first; column 4 has 5 spaces.
CHART = [[0, 2, 4, 6], [1, 3, 5, 7], [2, 4, 6, 8], [3, 5, 7, 9, 11]]


def chart_fields(chart=CHART) -> dict:
    """The setup grid filled in with a chart (cell chart{column}_{row}, row 0 at the bottom)."""
    return {
        f"chart{column}_{row}": str(value)
        for column, spaces in enumerate(chart)
        for row, value in enumerate(spaces)
    }


def charted(client, app) -> Club:
    """A 3-player table with all competitions and the chart, turn order Ann, Bob, Cid."""
    return Club(client, app, **chart_fields()).ordered()


def step(club: Club, seat: int, value: str):
    """Tap one quick-change button of a player's row."""
    return club.post({"type": "step", "seat": str(seat), "step": value})


def test_society_chart_is_an_optional_board_value_read_bottom_up(client, app):
    club = charted(client, app)
    state = club.state()
    assert state["board"]["society_chart"] == CHART
    # Tokens 2, 3, 4, 5 sit on the second space of their columns.
    assert state["players"][0]["spaces"] == [[0, 1], [1, 1], [2, 1], [3, 1]]
    plain = Club(client, app).ordered().state()
    assert not plain["board"].get("society_chart") and plain["players"][0]["spaces"] is None


def test_society_chart_refusals_all_show_next_to_the_chart(client):
    fields = chart_fields([[0, 2], [1, 3], [2, 4], [3, 5]])
    fields.update(
        {"chart1_0": "", "chart2_1": "x", "chart3_0": "", "chart3_1": "", "chart0_1": "9"}
    )
    page = client.post(NEW, data={**setup_form(), **fields}).get_data(as_text=True)
    messages = re.findall(r'data-error="society_chart">(.*?)</p>', page, re.S)
    # Column 2 has a hole at the bottom, column 3 a word, column 4 no spaces; token 1's 2 is
    # still a space of column 1 but the column-2 hole refuses the whole chart at once.
    assert len(messages) == 3, messages
    assert any("column 2, space 1" in text for text in messages)
    assert any("column 4 needs 2 to 12 spaces, not 0" in text for text in messages)
    # In the player's words: the form's label, never the key.
    assert all(text.startswith("Society chart (optional)") for text in messages), messages


def test_society_starting_tokens_must_be_spaces_of_their_column(client):
    fields = {**setup_form(), **chart_fields(), "token3": "4"}
    page = client.post(NEW, data=fields).get_data(as_text=True)
    refusal = "token 4 starts on 4, which is not a space of column 4"
    assert refusal in error_in(page, "society_tokens")


def test_society_chart_is_prefilled_from_the_last_table_whatever_its_player_count(client, app):
    charted(client, app)
    page = client.get(NEW).get_data(as_text=True)
    assert 'name="chart3_4" value="11"' in page and 'name="chart0_0" value="0"' in page
    assert re.search(r'<details class="pc-chart" data-testid="chart" open>', page)


def test_society_token_stepper_moves_one_token_one_space_and_the_score_follows(client, app):
    club = charted(client, app)
    page = club.page()
    assert 'data-testid="token-up-1-2"' in page and "<select" not in _steps_of(page)
    assert step(club, 1, "token2:up").status_code == 303
    bob = club.state()["players"][1]
    assert bob["tokens"] == [2, 3, 6, 5] and bob["society"] == 16
    assert step(club, 1, "token0:down").status_code == 303
    assert club.state()["players"][1]["society"] == 14
    page = club.page()
    assert 'data-testid="token-1-0">0<' in page
    # The bottom space: the ▼ button is off, and a posted step is refused next to the steppers.
    assert re.search(r'data-testid="token-down-1-0"[^>]*disabled', page)
    assert step(club, 1, "token0:down").status_code == 303
    assert "bottom space of its column" in error_in(club.page(), "steps")
    assert club.state()["players"][1]["tokens"] == [0, 3, 6, 5]
    assert "society token 3 one space up" in client.get(club.url + "/history").get_data(
        as_text=True
    )


def test_society_token_steppers_are_czech_and_absent_without_a_chart(client, app):
    club = charted(client, app)
    page = client.get(club.url, headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "Žeton 1 dolů" in page and "Společnost" in page
    plain = Club(client, app).ordered().page()
    assert 'data-testid="tokens-0"' not in plain


def test_society_token_steppers_at_the_old_lady(client, app):
    club = charted(client, app)
    club.post({"type": "end_actions"})
    club.post({"type": "hyde_park", "megaphones": ["0", "0", "0"]})
    assert club.state()["phase"] == "old_lady"
    page = club.page()
    assert 'data-testid="token-up-2-3"' in page and 'data-testid="votes-up-2"' not in page
    assert step(club, 2, "token3:up").status_code == 303
    assert club.state()["players"][2]["tokens"] == [2, 3, 4, 7]


def _steps_of(page: str) -> str:
    """The quick-changes panel's HTML."""
    return page.split('id="steps"', 1)[1].split("</section>", 1)[0]


@pytest.mark.browser
def test_society_chart_grid_and_old_lady_steppers_fit_a_portrait_tablet(live_server, browser):
    """RULES.md §5 society: the chart typed at setup (board value) and its steppers at the Old
    Lady fit 800 px in Czech without sideways scrolling."""
    base, _app = live_server
    page = browser.new_page(viewport={"width": 800, "height": 1280}, locale="cs-CZ")
    page.goto(base + NEW)
    page.click("[data-testid=lang-cs]")
    page.click("[data-testid=chart] summary")
    for name, value in {**setup_form(), **chart_fields()}.items():
        if name in ("player", "competition"):
            continue
        page.fill(f"input[name={name}]", value)
    for index, name in enumerate(PLAYERS):
        page.locator("input[name=player]").nth(index).fill(name)
    for competition in ("property", "election", "society"):
        page.check(f"[data-testid=competition-{competition}]")
    check_tablet_fit(page, "klub-chart-setup-cs-800", 800, TARGETS)
    screenshot(page, "klub-chart-setup-cs-800")
    with page.expect_navigation():
        page.click("[data-testid=create]")
    with page.expect_navigation():
        page.click("[data-testid=order-draw]")
    with page.expect_navigation():
        page.click("[data-testid=end-actions]")
    for seat in range(len(PLAYERS)):
        page.fill(f"[data-testid=megaphones-{seat}]", str(seat))
    with page.expect_navigation():
        page.click("[data-testid=hyde-park-apply]")
    with page.expect_navigation():
        page.click("[data-testid=token-up-0-3]")
    assert page.inner_text("[data-testid=token-0-3]") == "7"
    assert page.locator("[data-testid=old-lady-done]").evaluate(IN_VIEW)
    check_tablet_fit(page, "klub-chart-old-lady-cs-800", 800, TARGETS)
    screenshot(page, "klub-chart-old-lady-cs-800")
    page.close()
