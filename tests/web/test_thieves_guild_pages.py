"""Cech zlodějů pages through the test client: setup, each step of a turn, refusals, calculators."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion_app.store import get_store
from tests.scoring.thieves_guild_random import names

VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')
NEW = "/tables/new/thieves_guild"
SERVER_ERROR = 500


class GuildPages:
    """A Cech zlodějů table driven through its forms, as the tablet posts them."""

    def __init__(self, client) -> None:
        self.client = client
        self.url = ""

    def create(self, count: int = 4, costs=("1", "2", "4")) -> str:
        """Seat the players and enter the card-cost table; returns the table page URL."""
        data = {"player": names(count), **{f"cost{i}": cost for i, cost in enumerate(costs)}}
        response = self.client.post(NEW, data=data)
        assert response.status_code == 303, response.get_data(as_text=True)
        self.url = response.headers["Location"]
        return self.url

    def page(self) -> str:
        """The table page's HTML."""
        return self.client.get(self.url).get_data(as_text=True)

    def post(self, fields: dict) -> str:
        """Post a move form at the page's version; the table page after the redirect."""
        version = int(VERSION_FIELD.search(self.page()).group(1))
        response = self.client.post(
            f"{self.url}/moves", data={**fields, "version": version}, follow_redirects=True
        )
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def state(self) -> dict:
        """The table's state through the API."""
        return self.client.get("/api" + self.url).get_json()["state"]


@pytest.fixture
def guild(client) -> GuildPages:
    """Cech zlodějů pages against the test client, in English."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    return GuildPages(client)


def test_the_new_table_form_asks_the_card_cost_table_with_only_the_first_price_filled(
    client, guild
):
    page = client.get(NEW).get_data(as_text=True)
    assert 'name="cost0" value="1"' in page and 'name="cost1" value=""' in page
    assert 'inputmode="numeric"' in page and "<select" not in page


def test_setup_remembers_the_card_cost_table_of_the_last_table(client, guild):
    guild.create(5, ("1", "3", "6"))
    page = client.get(NEW).get_data(as_text=True)
    assert 'name="cost1" value="3"' in page and 'name="cost2" value="6"' in page


def test_setup_refuses_a_cost_table_that_does_not_start_at_1_next_to_the_field(client, guild):
    response = client.post(NEW, data={"player": names(4), "cost0": "2"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert 'data-error="card_costs"' in page
    assert (
        "Card prices in one turn (the table in the rulebook): the first card costs 1 gold" in page
    )


#: Two players (3 are needed) and a card-cost table that starts at 2 and does not rise at
#: card 3 (RULES.md §3: the first card costs 1, each further card in a turn costs more).
THREE_BAD_ENTRIES = {"player": ["Ann", "Bob"], "cost0": "2", "cost1": "3", "cost2": "3"}


def setup_refusals(client) -> dict[str, list[str]]:
    """Post the bad setup; every refusal shown, by the field it stands next to."""
    response = client.post(NEW, data=THREE_BAD_ENTRIES)
    assert response.status_code == 400
    shown: dict[str, list[str]] = {}
    for area, message in re.findall(r'data-error="(\w+)">(.*?)</p>', response.text, re.S):
        shown.setdefault(area, []).append(message)
    with client.application.app_context():
        assert get_store().list_tables() == []
    assert 'name="cost2" value="3"' in response.text  # what was typed stays
    return shown


def test_setup_shows_every_refusal_at_once_each_next_to_its_field(client, guild):
    shown = setup_refusals(client)
    assert shown["players"] == ["Cech zlodějů is played by 3 to 9 players, not 2."]
    label = "Card prices in one turn (the table in the rulebook): "
    assert shown["card_costs"] == [
        label + "the first card costs 1 gold (the rulebook says so), not 2.",
        label + "card 3 costs 3; each further card in a turn costs more than the one before "
        "(and at most 120 gold).",
    ]


def test_setup_shows_every_refusal_at_once_in_czech(client):
    client.post("/lang", data={"lang": "cs", "next": "/"})
    shown = setup_refusals(client)
    assert shown["players"] == ["Cech zlodějů hrají 3 až 9 hráči, ne 2."]
    assert [message.split(": ", 1)[1] for message in shown["card_costs"]] == [
        "první karta stojí jeden zlatý (tak to říkají pravidla), ne 2.",
        "3. karta stojí 3; každá další karta v kole je dražší než předchozí "
        "(a stojí nejvýš 120 zlatých).",
    ]


def test_the_api_answers_a_setup_with_several_refusals_first_things_first(client):
    """Every sentence in the one "error", the player count first."""
    body = {"game": "thieves_guild", "players": names(2), "card_costs": [2, 2]}
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 400
    error = refused.get_json()["error"]
    assert error.startswith("Cech zlodějů is played by 3 to 9 players, not 2. ")


def test_a_turn_through_the_forms_names_the_victim_before_the_robbery(guild):
    guild.create(7)
    guild.post({"type": "start", "seat": "0"})
    page = guild.post({"type": "buy"})
    assert guild.state()["players"][0]["gold"] == 12
    assert "Buy card 2: 2 gold" in page
    page = guild.post({"type": "loot", "roll": "5"})
    assert "Loot: 5 gold" in page and 'data-testid="target-6"' in page
    page = guild.post({"type": "target", "roll": "4"})
    assert "Left: Olga" in page and "Right: Karel" in page
    page = guild.post({"type": "aim", "direction": "left"})
    assert "Eva robs Olga of 5 gold" in page
    page = guild.post({"type": "rob"})
    state = guild.state()
    assert [p["gold"] for p in state["players"]] == [17, 13, 13, 13, 8, 13, 13]
    assert state["turn"] == 1 and "Petr’s turn" in page
    history = guild.client.get(guild.url + "/history").get_data(as_text=True)
    assert "Eva robs Olga of 5 gold" in history and "Eva buys card 1 for 1 gold" in history


def test_a_pauper_robbery_reads_like_the_game_in_the_history(guild):
    guild.create(4)
    guild.post({"type": "start", "seat": "0"})
    guild.post({"type": "loot", "roll": "6"})
    guild.post(
        {
            "type": "card",
            "seat": "2",
            "card": "Drzost",
            "from": "1",
            "to": "bank",
            "gold": "",
            "gold_typed": "10",
        }
    )
    page = guild.post({"type": "target", "roll": "1"})
    assert "Petr has only 3 gold and gives all of it" in page
    page = guild.post({"type": "rob"})
    assert "Petr loses their last gold to the robbery: the game ends." in page
    history = guild.client.get(guild.url + "/history").get_data(as_text=True)
    assert "Eva robs Petr of 6: Petr had 3, Eva pays a fine of 1 gold" in history
    assert "Jana plays Drzost: Petr pays 10 gold to the bank" in history
    page = guild.post({"type": "settle"})
    assert 'data-testid="final"' in page and "Winner: Eva" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"type": "loot", "roll": "0"}, "from 1 to 6, not 0"),
        ({"type": "loot", "roll": "7"}, "from 1 to 6, not 7"),
        ({"type": "aim", "direction": "left"}, "With 4 players the seat rules decide"),
        ({"type": "card", "seat": "1", "card": "Drzost"}, "buys cards or enters the loot roll"),
    ],
)
def test_bad_moves_are_refused_on_the_page_and_nothing_changes(guild, fields, message):
    guild.create(4)
    guild.post({"type": "start", "seat": "0"})
    before = guild.state()
    page = guild.post(fields)
    assert message in page and guild.state() == before


def looted(guild) -> dict:
    """A 4-player table where Eva, starting, has rolled 2 for the loot: the state before a card."""
    guild.create(4)
    guild.post({"type": "start", "seat": "0"})
    guild.post({"type": "loot", "roll": "2"})
    return guild.state()


def test_a_card_taking_more_gold_than_the_player_has_is_refused_next_to_the_card_form(guild):
    before = looted(guild)
    page = guild.post(
        {"type": "card", "seat": "1", "card": "Drzost", "from": "2", "to": "1", "gold_typed": "30"}
    )
    assert 'data-error="card"' in page and "Jana has only 13 gold; the card cannot take 30." in page
    assert guild.state() == before


def test_a_card_with_two_wrong_parts_shows_both_keeps_the_entry_and_marks_them(guild):
    """Issue 14 items 2-3, RULES.md §3 "Cards": a card with no name whose gold effect gives to
    its own payer shows both refusals in the card panel, marks the card and "To" fields, and
    draws the panel again open with the payer, payee and typed gold as they were entered."""
    before = looted(guild)
    page = guild.post(
        {"type": "card", "seat": "1", "card_typed": " ", "from": "2", "to": "2", "gold_typed": "3"}
    )
    shown = re.findall(r'data-error="card">(.*?)</p>', page, re.S)
    assert [text.strip() for text in shown] == [
        "Name the card played, as printed on it.",
        "A gold effect moves gold to another player or to the bank.",
    ]
    assert guild.state() == before
    panel = page[page.index('data-testid="card-panel"') - 200 :]
    assert re.search(r'<details[^>]*data-testid="card-panel"[^>]*open', page)
    for testid in ("seat-1", "from-2", "to-2"):
        assert re.search(rf'data-testid="{testid}" checked', panel), testid
    assert re.search(r'data-testid="gold-typed" value="3"', panel)
    assert re.search(r'data-testid="card-typed" value=" "[^>]*aria-invalid="true"', panel)
    to_group = re.search(
        r'<div class="chips[^"]*" role="group"( aria-invalid="true")?>\s*'
        r'<label class="chip"><input type="radio" name="to"',
        panel,
    )
    assert to_group and to_group.group(1)


def test_five_players_offer_no_six_for_the_target_and_refuse_one(guild):
    guild.create(5)
    guild.post({"type": "start", "seat": "0"})
    page = guild.post({"type": "loot", "roll": "2"})
    assert 'data-testid="target-6"' not in page
    before = guild.state()
    assert "a six is rolled again" in guild.post({"type": "target", "roll": "6"})
    assert guild.state() == before


def test_the_robbery_calculator_form_scores_the_seed_example(client, guild):
    data = {
        "kind": "robbery",
        "robber": "0",
        "loot_roll": "5",
        "target_roll": "4",
        "direction": "left",
    }
    for column, name in enumerate(names(6)):
        data[f"p{column}.name"], data[f"p{column}.gold"] = name, "13"
    page = client.post("/score/thieves_guild", data=data).get_data(as_text=True)
    assert "Olga gives 5 gold" in page


def test_the_calculator_shows_a_refusal_next_to_its_field(client, guild):
    data = {
        "kind": "robbery",
        "robber": "0",
        "loot_roll": "5",
        "target_roll": "2",
        "direction": "left",
    }
    for column, name in enumerate(names(3)):
        data[f"p{column}.name"], data[f"p{column}.gold"] = name, "20"
    response = client.post("/score/thieves_guild", data=data)
    assert response.status_code == 400
    assert 'data-error="direction"' in response.get_data(as_text=True)


def test_the_final_calculator_through_the_api_and_the_form(client, guild):
    sheet = {
        "game": "thieves_guild",
        "kind": "final",
        "players": [
            {"name": "A", "gold": 9, "cards": 1},
            {"name": "B", "gold": 9, "cards": 2},
            {"name": "C", "gold": 0, "cards": 5},
        ],
    }
    answer = client.post("/api/score", json=sheet)
    assert answer.status_code == 200 and answer.get_json()["winners"] == ["B"]
    bad = client.post("/api/score", json={**sheet, "kind": "x"})
    assert bad.status_code == 400 and bad.get_json()["error"].startswith("kind:")
    data = {"kind": "final"}
    for column, row in enumerate(sheet["players"]):
        data.update(
            {
                f"p{column}.name": row["name"],
                f"p{column}.gold": str(row["gold"]),
                f"p{column}.cards": str(row["cards"]),
            }
        )
    page = client.post("/score/thieves_guild", data=data).get_data(as_text=True)
    assert "Winner: B" in page


MOVE_TYPES = ["start", "buy", "loot", "card", "target", "aim", "rob", "end_turn", "settle", "x"]
FIELDS = [
    "seat",
    "roll",
    "direction",
    "card",
    "card_typed",
    "from",
    "to",
    "gold",
    "gold_typed",
    "jail",
    "black_peter",
    "new_roll",
    "version",
]
VALUES = [
    "",
    "0",
    "1",
    "2",
    "6",
    "7",
    "8",
    "-1",
    "bank",
    "left",
    "right",
    "x",
    "<b>",
    "1.5",
    "99999999999999999999",
]


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(MOVE_TYPES),
    form=st.dictionaries(st.sampled_from(FIELDS), st.sampled_from(VALUES), max_size=6),
    steps=st.lists(
        st.sampled_from(
            [
                {"type": "loot", "roll": "3"},
                {"type": "target", "roll": "2"},
                {"type": "rob"},
                {"type": "buy"},
            ]
        ),
        max_size=4,
    ),
)
def test_any_move_post_is_applied_or_refused_never_a_500(client, kind, form, steps):
    pages = GuildPages(client)
    pages.create(5)
    for step in [{"type": "start", "seat": "1"}, *steps]:
        version = client.get("/api" + pages.url).get_json()["version"]
        client.post(f"{pages.url}/moves", data={**step, "version": version})
    version = client.get("/api" + pages.url).get_json()["version"]
    response = client.post(f"{pages.url}/moves", data={"version": version, **form, "type": kind})
    assert response.status_code < SERVER_ERROR
    assert client.get(pages.url).status_code == 200


def test_the_json_api_plays_a_robbery_and_refuses_a_bad_roll_with_400(client):
    body = {"game": "thieves_guild", "players": names(6), "card_costs": [1, 2]}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.get_json()
    table = created.get_json()
    url = f"/api/tables/{table['id']}"
    auth = {"Authorization": f"Bearer {table['edit_key']}"}
    moves = [
        {"type": "start"},
        {"type": "loot", "roll": 5},
        {"type": "target", "roll": 4, "direction": "right"},
        {"type": "rob"},
    ]
    for version, move in enumerate(moves):
        answer = client.post(f"{url}/moves", json={"version": version, "move": move}, headers=auth)
        assert answer.status_code == 200, answer.get_json()
    state = client.get(url).get_json()["state"]
    robber = state["start_player"]
    assert state["players"][robber]["gold"] == 18 and sum(p["gold"] for p in state["players"]) == 78
    bad = client.post(
        f"{url}/moves", json={"version": 4, "move": {"type": "loot", "roll": 7}}, headers=auth
    )
    assert bad.status_code == 400 and "from 1 to 6, not 7" in bad.get_json()["error"]
    assert client.get(url).get_json()["state"] == state
