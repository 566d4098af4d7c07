"""BG Stats knows a club player by their person id (issue 32 item 7), so a rename keeps them.

Was: `sourcePlayerId` the lower-cased name ("čeněk šťastný"); renaming Čeněk in the roster
made BG Stats see a new player at the next play.
"""

import json
from urllib.parse import parse_qs, urlsplit

from companion_app.results import bgstats
from companion_app.store import db, roster
from tests.results.conftest import NAMES, play_table


def played_ids(client, table_id: str) -> dict[str, str]:
    """Name -> sourcePlayerId of the play the short BG Stats link hands over."""
    response = client.get(f"/r/{table_id}")
    assert response.status_code == 302
    data = parse_qs(urlsplit(response.headers["Location"]).query)["data"][0]
    return {player["name"]: player["sourcePlayerId"] for player in json.loads(data)["players"]}


def test_the_bgstats_link_names_each_player_by_their_person_id_through_a_rename(app, client):
    first = play_table(app)
    with app.app_context():
        ids = {name: roster.find(db.get_db(), name) for name in NAMES}
    assert played_ids(client, first) == {name: f"person-{ids[name]}" for name in NAMES}
    renamed = client.post(f"/people/{ids[NAMES[0]]}/rename", data={"name": "Čeněk Veselý"})
    assert renamed.status_code == 303
    second = play_table(app, names=["Čeněk Veselý", *NAMES[1:]])
    assert played_ids(client, second)["Čeněk Veselý"] == f"person-{ids[NAMES[0]]}"
    assert played_ids(client, first)[NAMES[0]] == f"person-{ids[NAMES[0]]}"


def test_a_seat_without_a_person_is_known_by_its_name():
    assert bgstats.player_id("Čeněk", None) == "čeněk"
    assert bgstats.player_id("Čeněk", 7) == "person-7"
