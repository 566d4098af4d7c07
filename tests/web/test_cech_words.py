"""Cech zlodějů's and the shared words, each item of issue 23's list (item 6).

Czech reads right for any name: names are never declined and never take a gendered past
tense; numbers go through Babel (decimal comma in Czech); seats are never numbered from 0 on
the tablet; no English field name inside a Czech sentence; one thief is "zloděj", not
"zloději"; a track space is not a point; the phase and the ending screen say what happened.
"""

import random
import re

import pytest

from companion_app.games.adel_verpflichtet import text as adel_text
from companion_app.i18n import translate_error
from companion_app.store import get_store
from scoring import adel_verpflichtet as adel
from scoring.adel_verpflichtet import resolve
from scoring.errors import N_, IllegalMove
from tests.results import cech_tie
from tests.scoring.adel_random import random_move as adel_move
from tests.scoring.adel_random import random_setup as adel_setup
from tests.web.test_adel_results import play_to_the_end as adel_to_the_end

CZECH = {"Accept-Language": "cs"}
NAMES = cech_tie.NAMES
#: A Czech verb in the past tense right after a name ("Bohumila začínal", "Eva měl(a)").
GENDERED_PAST = re.compile(r"\b(začínal|měl\(a\)|měl|měla|přišel|přišla)\b")


def page(client, url: str, headers: dict | None = None) -> str:
    """A page's HTML (200 expected)."""
    response = client.get(url, headers=headers or {})
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def guild(app, moves: list[dict], players: list[str] = NAMES) -> str:
    """A Cech zlodějů table brought through `moves` by the store; its id."""
    with app.app_context():
        store = get_store()
        table = store.create_table("thieves_guild", {"players": players, "card_costs": [1, 2]})
        for move in moves:
            table = store.apply_move(table.id, move, table.version)
        return table.id


def test_waiting_for_names_them_without_declining(app):
    """Was "čeká se na Alžběta": the names are the sentence's subject now, in the nominative."""
    refused = IllegalMove(
        N_("Not everyone has locked in yet: waiting for {names}."), names="Alžběta, Bohumila"
    )
    with app.test_request_context(headers=CZECH):
        text = translate_error(refused)
    assert text == "Ještě není potvrzeno od všech; potvrdit musí ještě: Alžběta, Bohumila."


def test_the_start_player_tag_has_no_gendered_verb(app, client):
    """Was "Bohumila začínal": the results' tag reads the same for any name."""
    html = page(client, f"/tables/{cech_tie.play(app)}/results", CZECH)
    assert "první na tahu" in html
    assert not GENDERED_PAST.search(html)


def test_archive_statistics_use_the_czech_decimal_comma(app, client):
    """Was "16.0" and "Průměr bodů 0.0": Babel formats, "100 %" in Czech; a whole average is
    written whole ("0", issue 32 item 5; "16,5" in tests/web/test_one_way_to_write.py)."""
    cech_tie.play(app)
    html = page(client, "/history", CZECH)
    row = re.search(r'data-player="Alžběta" data-game="thieves_guild">(.*?)</tr>', html, re.S)
    stats = dict(re.findall(r'data-stat="(\w+)">([^<]*)<', row.group(1)))
    assert stats["average"] == "0"
    assert stats["win_rate"] == "100\xa0%"
    english = page(client, "/history")
    row = re.search(r'data-player="Alžběta" data-game="thieves_guild">(.*?)</tr>', english, re.S)
    assert dict(re.findall(r'data-stat="(\w+)">([^<]*)<', row.group(1)))["average"] == "0"


def test_a_seat_refusal_does_not_number_seats_from_0(app, client):
    """Was "místo 0 až 8" while setup numbers the players 1 to 9."""
    table_id = guild(app, [{"type": "start", "seat": 0}, {"type": "loot", "roll": 3}])
    client.post("/lang", data={"lang": "cs", "next": "/"})
    html = page(client, f"/tables/{table_id}")
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    client.post(
        f"/tables/{table_id}/moves",
        data={"type": "card", "seat": "12", "card": "Alarm", "version": version},
    )
    html = page(client, f"/tables/{table_id}")
    error = re.search(r'data-error="card">(.*?)</p>', html, re.S).group(1)
    assert "vyberte jednoho z 9 hráčů u stolu" in error
    assert "0 až" not in error


def test_the_calculator_says_the_side_in_czech_not_direction(client):
    """Was "direction vynechte": four players have no side to choose."""
    form = {"kind": "robbery", "robber": "0", "loot_roll": "3", "target_roll": "2"}
    for column, name in enumerate(NAMES[:4]):
        form |= {f"p{column}.name": name, f"p{column}.gold": "13"}
    html = page(client, "/score/thieves_guild?kind=robbery", CZECH)  # the form exists
    response = client.post(
        "/score/thieves_guild", data={**form, "direction": "left"}, headers=CZECH
    )
    html = response.get_data(as_text=True)
    assert "směr nezadávejte" in html
    assert "direction vynechte" not in html


def test_one_castle_thief_is_one_thief_in_czech(app):
    """Was "Pak zloději 7 … vezmou každý" for one thief (Adel's preview of the castle)."""
    rng = random.Random(3)
    for _game in range(40):
        values, _piles = adel_setup(3, rng)
        state = adel.new_table(values)
        for _move in range(200):
            if state["phase"] == "game_over":
                break
            if state["phase"] in ("buy", "exhibit") and len(resolve.steal_order(state)) == 1:
                with app.test_request_context(headers=CZECH):
                    lines = adel_text.coming_up(state, [p["name"] for p in state["players"]])
                number = resolve.steal_order(state)[0]
                assert f"Pak zloděj {number} vezme jednu kartu z každé výstavy." in lines
                assert not any("zloději" in line for line in lines)
                return
            move = adel_move(state, rng)
            if move["type"] == "buy":
                move["next"] = None
            state = adel.apply(state, move)
    pytest.fail("no castle with one thief in 40 random games")


def test_adel_results_call_track_spaces_spaces_not_points(app, client):
    """Was "Body" for track spaces: the score is the space on the track."""
    table_id, _final = adel_to_the_end(app, 3, 1)
    html = page(client, f"/tables/{table_id}/results", CZECH)
    assert "Pole na dráze" in html and "Posun o pole podle zdroje" in html
    assert "Body celkem" not in html and "Body podle kategorií" not in html


def test_the_phase_says_everyone_has_gold_again_when_they_do(app, client):
    """Was "Někdo přišel o poslední zlatý" after a reaction gave everyone gold again."""
    moves = [
        {"type": "start", "seat": 0},
        {"type": "loot", "roll": 3},
        {
            "type": "card",
            "seat": 1,
            "card": "Drzost",
            "transfers": [{"from": 2, "to": 1, "gold": 13}],
        },
    ]
    table_id = guild(app, moves)
    html = page(client, f"/tables/{table_id}", CZECH)
    assert re.search(r'data-testid="phase"[^>]*>Někdo přišel o poslední zlatý<', html)
    table_id = guild(
        app,
        [
            *moves,
            {
                "type": "card",
                "seat": 2,
                "card": "Alarm",
                "transfers": [{"from": 1, "to": 2, "gold": 1}],
            },
        ],
    )
    html = page(client, f"/tables/{table_id}", CZECH)
    assert re.search(r'data-testid="phase"[^>]*>Všichni mají zase zlaté: hra pokračuje<', html)
    home = page(client, "/", CZECH)
    assert "Všichni mají zase zlaté: hra pokračuje" in home


def test_the_ending_screen_says_cerny_petr_took_the_last_gold(app, client):
    """Was a bare "lost their last gold": the fee at the start of the turn ended it."""
    moves = [
        {"type": "start", "seat": 0},
        {"type": "loot", "roll": 3},
        # Bohumila hands Černý Petr to Svatopluk and takes all but 1 of his gold.
        {
            "type": "card",
            "seat": 1,
            "card": "Černý Petr",
            "black_peter": 2,
            "transfers": [{"from": 2, "to": 1, "gold": 12}],
        },
        {"type": "card", "seat": 3, "card": "Alarm", "stop": True},  # Alžběta's robbery stops
        {"type": "loot", "roll": 1},
        {"type": "end_turn", "no_card": True},  # Bohumila's turn ends: Svatopluk pays 1 of 2
    ]
    table_id = guild(app, moves)
    for headers, expected in (
        (
            {},
            "Svatopluk pays Černý Petr’s 2 gold at the start of the turn and is left with no gold",
        ),
        (CZECH, "Svatopluk platí na začátku tahu 2 zlaté za Černého Petra a nezbývá žádný zlatý"),
    ):
        html = page(client, f"/tables/{table_id}", headers)
        heading = re.search(r'data-testid="last-gold"[^>]*>(.*?)</h2>', html, re.S).group(1)
        assert expected in heading
        assert 'data-lost-by="black_peter"' in html
