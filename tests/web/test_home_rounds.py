"""The home list names a table's round as its game counts rounds (issue 32 item 7).

Was: a running Cech zlodějů table read "Round 2 of 2", though the game has no set number of
rounds (it ends suddenly); the list now says what the room display says, "Round 2".
"""

import random
import re

from companion_app.store import get_store
from scoring import thieves_guild
from tests.scoring.thieves_guild_random import COSTS, names, random_move

SEED = 32


def guild_in_round_two(app) -> str:
    """A Cech zlodějů table of three played (seeded random moves) into its second round."""
    rng = random.Random(SEED)
    with app.app_context():
        store = get_store()
        table = store.create_table("thieves_guild", {"players": names(3), "card_costs": COSTS})
        while thieves_guild.summary(table.state)["round"] < 2:
            move = thieves_guild.complete_move(table.state, random_move(table.state, rng), rng)
            table = store.apply_move(table.id, move, table.version)
        assert not table.finished
        return table.id


def round_on_home(client, table_id: str, lang: str = "en") -> str:
    """The round line of a table on the home page's list of games in play."""
    page = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    row = re.search(rf'data-table="{table_id}">(.*?)</li>', page, re.S).group(1)
    return " ".join(re.search(r'data-testid="round">(.*?)</span>', row, re.S).group(1).split())


def test_a_running_thieves_guild_table_reads_round_2_not_round_2_of_2(app, client):
    table_id = guild_in_round_two(app)
    line = round_on_home(client, table_id)
    assert line.startswith("Round 2 · ") and " of " not in line
    assert round_on_home(client, table_id, "cs").startswith("2. kolo · ")


def test_a_razzia_table_still_reads_round_1_of_3(app, client):
    with app.app_context():
        table = get_store().create_table("razzia", {"players": ["Ann", "Bob", "Cid"]})
    assert round_on_home(client, table.id).startswith("Round 1 of 3 · ")
