"""Issue 14 item 3: a move form shows all its errors at once, on the page and in the API.

A move refused for several parts shows every sentence in its panel, in the player's words,
marks every field named, keeps what was entered, and changes nothing; the API answers the
first sentence first, all of them in its one "error" string.
"""

import re

from tests.web.test_for_sale_pages import ForSalePages
from tests.web.test_prodigals_pages import Club

BOB = 1


def errors_in(page: str, area: str) -> list[str]:
    """Every refusal shown in an area of the page, in order."""
    found = re.findall(rf'data-error="{area}">(.*?)</p>', page, re.S)
    return [text.strip().replace("&#39;", "'") for text in found]


def marked(page: str, testid: str) -> bool:
    """Whether the element with this data-testid carries aria-invalid."""
    found = re.search(rf'<[^>]*data-testid="{testid}"[^>]*>', page)
    assert found, f"no {testid} on the page"
    return 'aria-invalid="true"' in found.group(0)


def test_rules_2_a_sale_with_two_wrong_houses_shows_both_at_their_rows(client):
    """RULES.md §2 "Phase 2": Filip's house he does not hold and Valerie's missing house are both
    shown in the sale panel, both rows are marked, Jiří's tapped house stays chosen."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    fs = ForSalePages(client)
    fs.create()
    fs.buy_all()
    fs.post({"type": "checks", "checks": ["0", "13000", "12000"]})
    table_id = fs.url.rsplit("/", 1)[1]
    for seat in range(3):
        client.post(f"/api/tables/{table_id}/reveal/press", json={"id": 1, "seat": seat})
    before = fs.state()
    jiri = str(before["players"][2]["houses"][0])
    page = fs.post({"type": "sell", "house0": "2", "house1": "", "house2": jiri})
    shown = errors_in(page, "sell")
    assert len(shown) == 2, shown
    assert shown[0].startswith("Filip does not hold house 2")
    assert shown[1] == "Enter the house Valerie revealed."
    assert marked(page, "sell-0") and marked(page, "sell-1") and not marked(page, "sell-2")
    assert re.search(rf'name="house2" value="{jiri}"[^>]*checked', page), "the entry is kept"
    assert fs.state() == before


def test_rules_5_an_exchange_with_two_wrong_fields_shows_both_in_czech(client, app):
    """RULES.md §5 "Property": a tile taken from a district that does not exist and a positive
    limit are both refused, named as the form labels them, in Czech; both fields marked."""
    club = Club(client, app).ordered()
    club.post({"type": "property", "action": "add", "seat": str(BOB), "tiles": "5/2"})
    client.post("/lang", data={"lang": "cs", "next": "/"})
    before = club.state()
    club.post(
        {"type": "property", "action": "exchange", "give": "1:5/2", "take": "9/9", "limit": "3"}
    )
    page = club.page()
    shown = errors_in(page, "property-exchange")
    assert [text.split(":")[0] for text in shown] == ["Získaná kartička", "Limit výměny"], shown
    assert not any(text.startswith(("take:", "limit:")) for text in shown)
    assert marked(page, "exchange-take") and marked(page, "exchange-limit")
    assert re.search(r'data-testid="exchange-take"\s+value="9/9"', page)
    assert club.state() == before


def test_rules_1_a_deal_by_hand_with_two_wrong_seats_names_them_all(client, pages, app):
    """RULES.md §1 "Setup": set A given twice and an unknown set E: the general sentence, then
    each problem, all in the deal panel; every seat's set row is marked; nothing is dealt."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    url = pages.create()
    sets = {"set0": "A", "set1": "A", "set2": "E", "set3": "D"}
    pages.post(url, {"type": "deal", "how": "by_hand", **sets})
    page = client.get(url).get_data(as_text=True)
    shown = errors_in(page, "deal")
    assert shown[0] == "Deal each of the sets A, B, C, D to exactly one seat."
    assert any("there is no set E" in text for text in shown[1:])
    assert any(text.startswith("Set A is dealt to") for text in shown[1:])
    assert all(marked(page, f"set-{seat}") for seat in range(4))


def test_the_api_answers_every_refusal_of_a_move_in_its_error(client):
    """POST /api/tables/<id>/moves: several refusals are all in the one "error" string, first
    first, in the one API error shape; nothing changes either way."""
    created = client.post("/api/tables", json={"game": "for_sale", "players": ["A", "B", "C"]})
    table = created.get_json()
    moves = f"/api/tables/{table['id']}/moves"
    started = client.post(moves, json={"version": table["version"], "move": {"type": "start"}})
    version = started.get_json()["version"]
    bad = {"type": "houses", "houses": [0, 31, 5]}
    answer = client.post(moves, json={"version": version, "move": bad})
    assert answer.status_code == 400
    assert answer.get_json() == {
        "error": "There is no house 0; houses are 1 to 30. "
        "There is no house 31; houses are 1 to 30."
    }
    one = client.post(moves, json={"version": version, "move": {**bad, "houses": [0, 4, 5]}})
    assert one.status_code == 400
    assert one.get_json() == {"error": "There is no house 0; houses are 1 to 30."}
    assert client.get(f"/api/tables/{table['id']}").get_json()["version"] == version


def test_rules_5_a_legacy_spend_without_a_player_and_with_a_wrong_amount_marks_both(client, app):
    """RULES.md §5 "Legacy combination": no player tapped and an amount that is not a number
    are both shown in the spend panel, in the form's words, and both fields are marked."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    club = Club(client, app, competition=["legacy", "election"], money="", districts="").ordered()
    before = club.state()
    club.post({"type": "legacy", "action": "spend", "amount": "lots"})
    page = club.page()
    shown = errors_in(page, "legacy-spend")
    assert [text.split(":")[0] for text in shown] == ["Player", "Amount"], shown
    assert marked(page, "legacy-spend-seat") and marked(page, "legacy-spend-amount")
    assert club.state() == before
