"""The page tests' form-posting helper (the live server and browser: tests/conftest.py)."""

import re

import pytest

from tests.web import game_script

VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')


class Pages:
    """Repeated page actions through the test client: create a table, post moves."""

    def __init__(self, client) -> None:
        self.client = client

    def create(self, players=tuple(game_script.PLAYERS)) -> str:
        """Seat the players through the new-table form; returns the table page URL."""
        response = self.client.post("/tables/new/razzia", data={"player": list(players)})
        assert response.status_code == 303, response.get_data(as_text=True)
        return response.headers["Location"]

    def version(self, url: str) -> int:
        """The version the table page's forms carry now."""
        page = self.client.get(url).get_data(as_text=True)
        return int(VERSION_FIELD.search(page).group(1))

    def post(self, url: str, fields: dict, version: int | None = None):
        """Post a move form as the page would, at the page's current version by default."""
        data = {**fields, "version": self.version(url) if version is None else version}
        return self.client.post(f"{url}/moves", data=data)

    def dealt(self) -> str:
        """A 4-player table dealt A, B, C, D by hand (Ann, holding 13,000, starts)."""
        url = self.create()
        response = self.post(url, {"type": "deal", "how": "by_hand", "sets": game_script.SETS})
        assert response.status_code == 303
        return url

    def play(self, url: str, steps: list[tuple]) -> None:
        """Post every scripted step; each must be accepted."""
        for step in steps:
            response = self.post(url, game_script.as_form(step))
            assert response.headers["Location"] == url, step


@pytest.fixture
def pages(client):
    """Page actions against the test client."""
    return Pages(client)
