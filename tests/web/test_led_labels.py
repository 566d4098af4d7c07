"""The box panel names its pixel groups by what they mean in the table's game."""


def test_razzia_panel_counts_police(client, pages):
    """Razzia! (RULES.md §1): the police pixels count the police officers in the row."""
    page = client.get(pages.create()).get_data(as_text=True)
    assert "Police officers" in page


def test_for_sale_panel_shows_progress_and_phase(client):
    """For Sale (docs/games/for_sale.md): the same pixels show progress and the phase."""
    response = client.post("/tables/new/for_sale", data={"player": ["Ann", "Bob", "Cid"]})
    assert response.status_code == 303, response.get_data(as_text=True)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Progress through the phase" in page and "Police officers" not in page


def test_klub_panel_shows_the_step_of_the_round(client):
    """Klub ztroskotanců (docs/games/prodigals_club.md): the police pixels are the step."""
    from tests.web.test_prodigals_pages import NEW, setup_form

    response = client.post(NEW, data=setup_form())
    assert response.status_code == 303, response.get_data(as_text=True)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Step of the round" in page and "Police officers" not in page
