"""An Adel Verpflichtet table driven through its forms as the tablet posts them."""

import re

from tests.scoring.adel_play import deck, fractions, split

VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')
NAMES = ["Ann", "Bob", "Cid"]


def card_fields(prefix: str, card: dict) -> dict:
    """A card entered by its letter chip and a new year typed."""
    return {f"{prefix}.letter": card["letter"], f"{prefix}.new": str(card["year"])}


def setup_form(
    names=NAMES, banquet: int = 12, profile: str = "Home board", track: bool = True
) -> dict:
    """The new-table form filled in from the unshuffled test deck; `track`: the table tracks
    every hand (the dealt cards are entered), else only the pile tops are."""
    dealt = deck()
    piles = split(dealt, len(names))
    data: dict = {"player": list(names), "profile": profile, "banquet": str(banquet)}
    if track:
        data["track"] = "1"
    for space, (top, bottom) in enumerate(fractions(banquet)):
        data[f"top{space}"], data[f"bottom{space}"] = str(top), str(bottom)
    for seat in range(len(names)):
        for index in range(4):
            data[f"p{seat}.check{index}"] = str(10 * (seat + 1) + index + 1)
            if track:
                data.update(card_fields(f"p{seat}.card{index}", dealt[4 * seat + index]))
        for index in range(2):
            data[f"p{seat}.thief{index}"] = str(2 * seat + index + 1)
    for pile in range(2):
        data.update(card_fields(f"top{pile}", piles[pile][0]))
    return data


class AdelPages:
    """Create a table, lock everyone in through the reveal API, post the panels' forms."""

    def __init__(self, client) -> None:
        self.client = client
        self.url = ""

    def create(self, **changes) -> str:
        """Seat the players through the new-table form; returns the table page URL."""
        response = self.client.post(
            "/tables/new/adel_verpflichtet", data={**setup_form(), **changes}
        )
        assert response.status_code == 303, response.get_data(as_text=True)
        self.url = response.headers["Location"]
        return self.url

    def page(self) -> str:
        """The table page's HTML."""
        return self.client.get(self.url).get_data(as_text=True)

    def api(self) -> dict:
        """The table through the API."""
        return self.client.get("/api" + self.url).get_json()

    def state(self) -> dict:
        """The table's state."""
        return self.api()["state"]

    def lock_in(self) -> None:
        """Every armed seat presses its button (as the box or the on-screen panel would)."""
        device = self.client.get("/api" + self.url + "/device").get_json()
        reveal = device["reveal"]
        for seat in reveal["seats"]:
            pressed = self.client.post(
                "/api" + self.url + "/reveal/press", json={"id": reveal["id"], "seat": seat}
            )
            assert pressed.status_code == 200, pressed.get_data(as_text=True)

    def post(self, fields: dict):
        """Post a move form at the page's version; the response after the redirect."""
        version = int(VERSION_FIELD.search(self.page()).group(1))
        return self.client.post(
            f"{self.url}/moves", data={**fields, "version": version}, follow_redirects=True
        )
