"""For Sale pages through the test client: setup, every phase's panel, refusals, calculator."""

import re

import pytest

from tests.scoring.for_sale_play import IN_ORDER, NAMES

VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')


class ForSalePages:
    """A For Sale table driven through its forms, as the tablet posts them."""

    def __init__(self, client) -> None:
        self.client = client
        self.url = ""

    def create(self, **fields) -> str:
        """Seat the players through the new-table form; returns the table page URL."""
        data = {"player": NAMES, **fields}
        response = self.client.post("/tables/new/for_sale", data=data)
        assert response.status_code == 303, response.get_data(as_text=True)
        self.url = response.headers["Location"]
        return self.url

    def page(self) -> str:
        """The table page's HTML."""
        return self.client.get(self.url).get_data(as_text=True)

    def post(self, fields: dict) -> str:
        """Post a move form at the page's version; the table page after the redirect."""
        version = int(VERSION_FIELD.search(self.page()).group(1))
        data = {**fields, "version": version}
        response = self.client.post(f"{self.url}/moves", data=data, follow_redirects=True)
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def state(self) -> dict:
        """The table's state through the API."""
        return self.client.get("/api" + self.url).get_json()["state"]

    def buy_all(self) -> None:
        """Start with seat 0 and pass every round of 1-30 in order."""
        self.post({"type": "start", "seat": "0"})
        for houses in IN_ORDER:
            self.post({"type": "houses", "houses": [str(h) for h in houses]})
            while self.state()["phase"] == "auction":
                self.post({"type": "pass", "seat": str(self.state()["auction"]["turn"])})


@pytest.fixture
def fs(client) -> ForSalePages:
    """For Sale pages against the test client, in English."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    return ForSalePages(client)


def test_the_new_table_form_offers_for_sale_with_its_options(client, fs):
    """The game choice lists For Sale; its form has the variant and the refund rounding."""
    assert 'data-game="for_sale"' in client.get("/tables/new").get_data(as_text=True)
    form = client.get("/tables/new/for_sale").get_data(as_text=True)
    assert 'name="variant"' in form and 'name="refund"' in form
    fs.create(variant="on", refund="down")
    state = fs.state()
    assert (state["variant"], state["refund"], state["coins_each"]) == (True, "down", 28)


def test_two_players_are_refused_on_the_form(client):
    """§2: 3-6 players; the reason stands next to the names."""
    page = client.post("/tables/new/for_sale", data={"player": ["A", "B"]})
    assert "For Sale is played by 3 to 6 players, not 2." in page.get_data(as_text=True)


def test_start_by_lot_then_houses_then_bids(fs):
    """The start panel draws by lot; the house grid and the bidding panel follow."""
    fs.create()
    assert 'data-testid="start-lot"' in fs.page()
    page = fs.post({"type": "start"})
    assert 'data-testid="houses-panel"' in page and 'data-house="30"' in page
    leader = fs.state()["leader"]
    page = fs.post({"type": "houses", "houses": ["5", "17", "30"]})
    assert 'data-testid="auction"' in page and f'data-seat="{leader}"' in page
    page = fs.post({"type": "bid", "seat": str(leader), "coins": "3"})
    assert "Highest bid: 3 coins" in page
    assert fs.state()["players"][leader]["bid"] == 3


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"type": "houses", "houses": ["5", "17"]}, "Enter the 3 houses turned over."),
        ({"type": "houses", "houses": ["5", "17", "31"]}, "There is no house 31"),
    ],
)
def test_bad_houses_are_refused_next_to_the_grid(fs, fields, message):
    """Refusals stand in the houses panel, and nothing changes."""
    fs.create()
    fs.post({"type": "start", "seat": "0"})
    page = fs.post(fields)
    assert f'data-error="houses">{message}' in page
    assert fs.state()["houses_seen"] == []


def test_used_house_unaffordable_and_low_bids_are_refused(fs):
    """A used house number, a bid above one's coins and one not higher each say why."""
    fs.create()
    fs.post({"type": "start", "seat": "0"})
    fs.post({"type": "houses", "houses": ["5", "17", "30"]})
    page = fs.post({"type": "bid", "seat": "0", "coins": "29"})
    assert "Filip cannot bid 29 coins" in page and 'data-error="auction"' in page
    fs.post({"type": "bid", "seat": "0", "coins": "4"})
    page = fs.post({"type": "bid", "seat": "1", "coins": "4"})
    assert "higher than the highest bid of 4 coins" in page
    page = fs.post({"type": "bid", "seat": "1", "coins": "lots"})
    assert "whole number of coins" in page
    for seat in (1, 2):
        fs.post({"type": "pass", "seat": str(seat)})
    page = fs.post({"type": "houses", "houses": ["5", "6", "7"]})
    assert "House 5 has already been turned over" in page


def test_selling_round_checks_then_reveal_then_sale(fs, client):
    """Checks arm the reveal; houses wait for all locks; then checks go highest to highest."""
    fs.create()
    fs.buy_all()
    page = fs.page()
    assert 'data-testid="checks-panel"' in page
    page = fs.post({"type": "checks", "checks": ["0", "13000", "12000"]})
    assert 'data-testid="sell-panel"' in page and "13,000" in page
    sale = {"type": "sell", "house0": "28", "house1": "29", "house2": "30"}
    page = fs.post({**sale, "house0": "2"})
    assert "waiting for Filip, Valerie, Jiří" in page
    table_id = fs.url.rsplit("/", 1)[1]
    for seat in range(3):
        client.post(f"/api/tables/{table_id}/reveal/press", json={"id": 1, "seat": seat})
    page = fs.post({**sale, "house0": "2"})
    assert 'data-error="sell">Filip does not hold house 2' in page
    fs.post(sale)
    assert [p["checks"] for p in fs.state()["players"]] == [[0], [12000], [13000]]


def test_history_lines_name_every_move(fs, client):
    """The history page describes start, houses, bids and passes (a bid's amount, which the
    log holds back while the game runs, once the scorer asks to see it: docs/game-contract.md
    "Secrets")."""
    fs.create()
    fs.post({"type": "start", "seat": "1"})
    fs.post({"type": "houses", "houses": ["5", "17", "30"]})
    fs.post({"type": "bid", "seat": "1", "coins": "2"})
    fs.post({"type": "pass", "seat": "2"})
    assert "Valerie bid ? coins" in client.get(fs.url + "/history").get_data(as_text=True)
    client.post(fs.url + "/secrets", data={"show": "1", "back": "history"})
    page = client.get(fs.url + "/history").get_data(as_text=True)
    for line in (
        "Start player by lot: Valerie",
        "Houses turned over: 5, 17, 30",
        "Valerie bid 2 coins",
        "Jiří passed",
    ):
        assert line in page


def test_the_calculator_form_scores_and_refuses_by_field(client):
    """SCORESHEETS.md through the form: money and winners, or the reason at the field."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    assert "/score/for_sale" in client.get("/score").get_data(as_text=True)
    form = {
        "p0.name": "Filip",
        "p0.checks": "15000, 0 7000",
        "p0.coins": "3",
        "p1.name": "Valerie",
        "p1.checks": "14000 9000",
        "p1.coins": "2",
        "p2.name": "Jiří",
        "p2.checks": "13000 12000",
    }
    page = client.post("/score/for_sale", data=form)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "25,000" in text and "Winner: Filip" in text
    page = client.post("/score/for_sale", data={**form, "p2.coins": "29"})
    assert page.status_code == 400
    assert 'data-error="p2.coins">Players[2].coins' not in page.get_data(as_text=True)
    assert 'data-error="p2.coins">29, but each player' in page.get_data(as_text=True)


def test_rules_2_the_pass_hint_says_a_player_without_a_bid_pays_nothing(fs):
    """§2 "pays nothing": the Pass button of a player who has not bid says so; once they
    have bid it says what comes back."""
    fs.create()
    fs.post({"type": "start", "seat": "0"})
    page = fs.post({"type": "houses", "houses": ["5", "17", "30"]})
    hint = re.search(r'data-testid="pass-gets">(.*?)</p>', page, re.S).group(1)
    assert "Takes house 5 and pays nothing." in hint
    fs.post({"type": "bid", "seat": "0", "coins": "3"})
    fs.post({"type": "bid", "seat": "1", "coins": "4"})
    page = fs.post({"type": "bid", "seat": "2", "coins": "5"})
    hint = re.search(r'data-testid="pass-gets">(.*?)</p>', page, re.S).group(1)
    assert "Takes house 5 and 2 coins back." in hint
