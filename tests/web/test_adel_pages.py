"""Adel Verpflichtet pages through the test client: setup, a turn's panels, refusals, calculator."""

import re

import pytest

from companion_app.store import get_store
from tests.web.adel_pages import AdelPages, setup_form


@pytest.fixture
def av(client) -> AdelPages:
    """Adel pages against the test client, in English."""
    client.post("/lang", data={"lang": "en", "next": "/"})
    return AdelPages(client)


def test_setup_form_asks_the_board_values_with_number_fields_and_no_dropdowns(client, av):
    page = client.get("/tables/new/adel_verpflichtet").get_data(as_text=True)
    assert 'name="banquet"' in page and 'name="top0"' in page and 'name="p0.check0"' in page
    assert "<select" not in page
    assert page.count('inputmode="numeric"') > 100


def test_setup_refuses_two_equal_check_values_next_to_the_second_players_checks(client, av):
    data = {**setup_form(), "p1.check3": "11"}
    response = client.post("/tables/new/adel_verpflichtet", data=data)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'data-error="seat1"' in page and "11 is entered twice" in page


#: A setup with three bad fields: a check value twice, a fraction missing its bottom number
#: and a thief number that is not a number (RULES.md §4 board values).
THREE_BAD_FIELDS = {"p1.check3": "11", "bottom3": "", "p2.thief0": "x"}


def setup_refusals(client, data: dict) -> dict[str, list[str]]:
    """Post the setup form; every refusal shown, by the field it stands next to."""
    response = client.post("/tables/new/adel_verpflichtet", data=data)
    assert response.status_code == 400
    shown: dict[str, list[str]] = {}
    for area, message in re.findall(r'data-error="([\w.]+)">(.*?)</p>', response.text, re.S):
        shown.setdefault(area, []).append(message)
    return shown


def test_setup_shows_every_refusal_at_once_each_next_to_its_field(client, av):
    shown = setup_refusals(client, {**setup_form(), **THREE_BAD_FIELDS})
    assert set(shown) == {"seat1", "track", "seat2"}, shown
    assert "11 is entered twice" in shown["seat1"][0]
    assert shown["track"] == [
        "Space 3: the fraction is two whole numbers, the top one (best exhibition) at least "
        "the bottom one (second)."
    ]
    assert shown["seat2"] == ["Thieves of player 3: x is not a whole number from 1 to 999."]
    with client.application.app_context():
        assert get_store().list_tables() == []


def test_setup_shows_every_refusal_at_once_in_czech(client):
    client.post("/lang", data={"lang": "cs", "next": "/"})
    shown = setup_refusals(client, {**setup_form(), **THREE_BAD_FIELDS})
    assert set(shown) == {"seat1", "track", "seat2"}, shown
    assert "hodnota 11 je zadána dvakrát" in shown["seat1"][0]
    assert shown["track"][0].startswith("Pole 3: zlomek jsou dvě celá čísla")
    assert shown["seat2"] == ["Zloději hráče 3: x není celé číslo od 1 do 999."]
    with client.application.app_context():
        assert get_store().list_tables() == []


def test_setup_refusals_stand_by_the_names_the_banquet_and_the_pile_tops_too(client, av):
    bad = {"player": ["Ann", "Ann", "Cid"], "banquet": "1", "top1.letter": "", "top1.new": ""}
    shown = setup_refusals(client, {**setup_form(), **bad})
    assert set(shown) == {"players", "banquet", "tops"}, shown
    assert (
        'name="banquet" value="1"'
        in client.post("/tables/new/adel_verpflichtet", data={**setup_form(), **bad}).text
    )  # what was typed stays


def test_a_seats_refusal_goes_to_the_seat_filled_in_on_the_form(client, av):
    form = setup_form()
    moved = {key.replace("p2.", "p3."): value for key, value in form.items() if "p2." in key}
    data = {key: value for key, value in form.items() if "p2." not in key}
    data.update(moved, player=["Ann", "Bob", "", "Cid"], **{"p3.thief1": "0"})
    shown = setup_refusals(client, data)
    assert set(shown) == {"seat3"}, shown


def test_a_whole_turn_through_the_panels(av):
    av.create()
    assert 'data-testid="location-panel"' in av.page()
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    assert av.state()["phase"] == "action"
    av.lock_in()
    page = av.post({"type": "actions", "act0": "check:11", "act1": "thief:3", "act2": "exhibit"})
    assert av.state()["phase"] == "buy", page.get_data(as_text=True)[:3000]
    av.post({"type": "buy", "pile": "0", "next.letter": "B", "next.new": "1591"})
    state = av.state()
    assert state["phase"] == "exhibit"
    page = av.page()
    # Cid's cards are offered as chips, none ticked: the shared screen shows no hand (§4).
    assert 'data-testid="show2-C1556"' in page and not is_checked(page, "show2-C1556")
    av.post(
        {
            "type": "exhibitions",
            "shows0": "0",
            "shows1": "0",
            "shows2": "1",
            "show2": ["C:1556", "D:1563", "E:1570", "F:1577"],
        }
    )
    assert av.state()["phase"] == "steal"
    av.post({"type": "steal", "thief": "3", "steal0": "", "steal1": "", "steal2": ["", "F:1577"]})
    state = av.state()
    assert state["phase"] == "review"
    page = av.page()
    assert "Cid&#39;s exhibition" in page or "Cid's exhibition" in page
    av.post({"type": "next"})
    assert av.state()["turn"] == 2


def test_acting_before_everyone_has_locked_in_is_refused_and_nothing_changes(av):
    av.create()
    before = av.api()["version"]
    page = av.post(
        {"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"}
    )
    assert "Not everyone has locked in yet: waiting for Ann, Bob, Cid." in page.get_data(
        as_text=True
    )
    assert av.api()["version"] == before


def play_first_turn(av: AdelPages) -> None:
    """Turn 1 of the page test: Ann buys, Cid exhibits alone."""
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    av.lock_in()
    av.post({"type": "actions", "act0": "check:11", "act1": "detective", "act2": "exhibit"})
    av.post({"type": "buy", "pile": "1", "next.letter": "E", "next.new": "1780"})


def test_the_next_game_remembers_the_board_profile_and_offers_the_cards_seen(client, av):
    av.create(profile="Club board")
    play_first_turn(av)
    page = client.get("/tables/new/adel_verpflichtet").get_data(as_text=True)
    assert 'value="Club board"' in page
    assert 'name="top3" value="2"' in page and 'name="p1.check0" value="21"' in page
    # Dealt cards and the card that came up are offered as year chips under their letter.
    assert 'data-testid="p0.card0-year-A1500"' in page
    assert 'data-testid="top1-year-E1780"' in page


def test_a_known_year_chip_enters_the_card(client, av):
    av.create()
    data = {**setup_form(), "p0.card0.new": "", "p0.card0.year": "A:1500"}
    response = client.post("/tables/new/adel_verpflichtet", data=data)
    assert response.status_code == 303
    table = client.get("/api" + response.headers["Location"]).get_json()
    assert table["state"]["players"][0]["hand"][0] == {"letter": "A", "year": 1500}


def test_an_invalid_exhibition_is_refused_in_its_panel_and_nothing_changes(av):
    av.create()
    play_first_turn(av)
    before = av.api()["version"]
    page = av.post(
        {
            "type": "exhibitions",
            "shows0": "0",
            "shows1": "0",
            "shows2": "1",
            "show2": ["C:1556", "E:1570", "F:1577"],
        }
    ).get_data(as_text=True)
    assert 'data-error="exhibit"' in page and "Cid&#39;s exhibition is not valid" in page
    assert av.api()["version"] == before


def test_a_check_not_held_is_refused_in_the_action_panel(av):
    av.create()
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    av.lock_in()
    page = av.post({"type": "actions", "act0": "check:21", "act1": "detective", "act2": "exhibit"})
    assert "Ann does not hold that check" in page.get_data(as_text=True)
    assert av.state()["phase"] == "action"


def test_the_action_reveal_is_a_new_one_after_the_locations(av):
    av.create()
    first = av.client.get("/api" + av.url + "/device").get_json()["reveal"]
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    second = av.client.get("/api" + av.url + "/device").get_json()["reveal"]
    assert second["id"] == first["id"] + 1 and second["locked"] == []


def test_the_resolution_names_the_reason_of_every_move(av):
    av.create()
    play_first_turn(av)
    av.post(
        {
            "type": "exhibitions",
            "shows0": "0",
            "shows1": "0",
            "shows2": "1",
            "show2": ["C:1556", "D:1563", "E:1570", "F:1577"],
        }
    )
    page = av.page()
    assert "Ann&#39;s check 11 is the highest" in page
    assert "is the best: the top number on the leader&#39;s space 0, 2 forward" in page
    assert "Bob&#39;s detective caught nobody: no move." in page


def test_calculator_form_scores_a_castle_phase(client):
    client.post("/lang", data={"lang": "en", "next": "/"})
    data = {
        "kind": "castle",
        "p0.name": "A",
        "p0.position": "12",
        "p0.role": "exhibit",
        "p0.cards": "B1700 C1720 D1650",
        "p1.name": "B",
        "p1.position": "9",
        "p2.name": "C",
        "p2.position": "9",
        "p2.role": "thief",
        "p2.value": "5",
        "p3.name": "D",
        "p3.position": "4",
        "p3.role": "detective",
        "top": "4",
        "bottom": "2",
        "jail": "B:3",
    }
    page = client.post("/score/adel_verpflichtet", data=data).get_data(as_text=True)
    assert 'data-testid="castle-result"' in page
    assert "<td>16</td>" in page and "<td>8</td>" in page
    bad = client.post("/score/adel_verpflichtet", data={**data, "top": ""})
    assert bad.status_code == 400
    assert "fraction" in bad.get_data(as_text=True)
    assert "/score/adel_verpflichtet" in client.get("/score").get_data(as_text=True)


def test_the_move_log_describes_each_move_and_undo_goes_back_a_step(client, av):
    av.create()
    play_first_turn(av)
    log = client.get(av.url + "/history").get_data(as_text=True)
    assert "Revealed: Ann: Auction house, Bob: Castle, Cid: Castle" in log
    assert "Action cards: Ann: Check 11, Bob: Detective, Cid: Exhibit" in log
    assert "Ann bought F 1703 from pile 2 with check 11; next on top: E 1780" in log
    version = av.api()["version"]
    undone = client.post("/api" + av.url + "/undo", json={"version": version})
    assert undone.status_code == 200, undone.get_data(as_text=True)
    assert av.state()["phase"] == "buy"


def test_two_players_surprise_one_reveal_for_location_and_action(client, av):
    data = {**setup_form(["Ann", "Bob"]), "variant": "surprise"}
    response = client.post("/tables/new/adel_verpflichtet", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    av.url = response.headers["Location"]
    assert 'data-testid="choose-panel"' in av.page()
    av.lock_in()
    fields = {"type": "choices", "place0": "auction", "place1": "castle"}
    av.post({**fields, "act0": "check:11", "act1": "detective"})
    assert av.state()["phase"] == "buy"


def test_two_players_without_a_variant_are_refused_at_the_board_values(client):
    response = client.post("/tables/new/adel_verpflichtet", data=setup_form(["Ann", "Bob"]))
    assert response.status_code == 400
    assert "surprise or conflict of interest" in response.get_data(as_text=True)


JUNK_VALUES = ["", "x", "-1", "1.5", "99999999999999999999", "A:x", "check:abc", "Z:1700", "0"]


def test_junk_forms_never_answer_500(client, av):
    import random

    rng = random.Random(10)
    av.create()
    av.lock_in()  # so junk reaches the form reading and the rules, not only the reveal gate
    fields = [
        "type",
        "place0",
        "place1",
        "act0",
        "act2",
        "pile",
        "next.letter",
        "next.new",
        "next.year",
        "shows0",
        "show0",
        "top",
        "bottom",
        "thief",
        "steal0",
    ]
    types = ["locations", "actions", "choices", "buy", "exhibitions", "steal", "next", "final", ""]
    for _ in range(25):
        data = {field: rng.choice(JUNK_VALUES) for field in rng.sample(fields, 6)}
        data["type"] = rng.choice(types)
        assert av.post(data).status_code < 500
        setup = {
            **setup_form(),
            **{
                f: rng.choice(JUNK_VALUES)
                for f in (
                    "banquet",
                    "top3",
                    "p1.check2",
                    "p0.card1.letter",
                    "p0.card1.new",
                    "top1.year",
                    "variant",
                )
            },
        }
        assert client.post("/tables/new/adel_verpflichtet", data=setup).status_code < 500
        sheet = {
            "kind": rng.choice(["castle", "auction", "final", "x"]),
            "p0.name": "A",
            "p1.name": "B",
            "p0.cards": rng.choice(JUNK_VALUES),
            "p0.position": rng.choice(JUNK_VALUES),
            "p0.role": rng.choice(["exhibit", "thief", "check", "x"]),
            "p0.value": rng.choice(JUNK_VALUES),
            "jail": rng.choice(["A:1", "x", ":", "B:1, A:2, A:3"]),
            "top": rng.choice(JUNK_VALUES),
        }
        assert client.post("/score/adel_verpflichtet", data=sheet).status_code < 500
    assert av.state()["phase"] == "location"


def test_czech_pages_use_the_rulebooks_terms(client):
    client.post("/lang", data={"lang": "cs", "next": "/"})
    czech = AdelPages(client)
    czech.create()
    page = czech.page()
    assert "Kam kdo jde?" in page and "Aukční síň" in page and "Zámek" in page
    czech.lock_in()
    czech.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    page = czech.page()
    assert "Šek 11" in page and "Zloděj 3" in page and "Detektiv" in page
    setup = client.get("/tables/new/adel_verpflichtet").get_data(as_text=True)
    assert "Hodovní tabule začíná na poli" in setup


def test_undoing_the_action_cards_returns_to_their_locked_in_reveal(client, av):
    av.create()
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    av.lock_in()
    av.post({"type": "actions", "act0": "check:11", "act1": "detective", "act2": "exhibit"})
    version = av.api()["version"]
    assert client.post("/api" + av.url + "/undo", json={"version": version}).status_code == 200
    assert av.state()["phase"] == "action"
    # Everyone had locked in their action card: the corrected entry goes straight in.
    av.post({"type": "actions", "act0": "check:12", "act1": "detective", "act2": "exhibit"})
    assert av.state()["phase"] == "buy" and av.state()["played"][0]["value"] == 12
    # Back to the buy (no secret choice) the reveal is disarmed; back from there to the action
    # cards a new one is armed and everyone presses again.
    av.post({"type": "buy", "pile": "0", "next.letter": "B", "next.new": "1591"})
    for _ in range(2):
        version = av.api()["version"]
        client.post("/api" + av.url + "/undo", json={"version": version})
    reveal = client.get("/api" + av.url + "/device").get_json()["reveal"]
    assert av.state()["phase"] == "action" and reveal["locked"] == []


def test_the_panels_say_what_the_thieves_and_detectives_will_do_before_it_happens(av):
    av.create()
    av.lock_in()
    av.post({"type": "locations", "place0": "castle", "place1": "castle", "place2": "castle"})
    av.lock_in()
    av.post({"type": "actions", "act0": "exhibit", "act1": "thief:4", "act2": "detective"})
    page = av.page()
    assert 'data-testid="coming-up"' in page
    assert "Then thief 4 takes a card of every exhibition." in page  # one thief: singular
    assert "Then Cid&#39;s detective catches every thief at the castle and moves by rank." in page


def is_checked(page: str, testid: str) -> bool:
    """Whether the page draws the input with this test id checked."""
    tag = re.search(rf'<input[^>]*data-testid="{re.escape(testid)}"[^>]*>', page)
    assert tag, testid
    return " checked" in tag.group(0)


def test_a_refused_exhibition_is_drawn_again_as_ticked(av):
    av.create()
    play_first_turn(av)
    shown = ["C:1556", "E:1570", "F:1577"]
    fields = {"type": "exhibitions", "shows0": "0", "shows1": "0", "shows2": "1", "show2": shown}
    page = av.post(fields).get_data(as_text=True)
    assert [is_checked(page, f"show2-{c}") for c in ("C1556", "D1563", "E1570", "F1577")] == [
        True,
        False,
        True,
        True,
    ]


def test_a_refused_buy_keeps_the_pile_and_letter_tapped(av):
    av.create()
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    av.lock_in()
    av.post({"type": "actions", "act0": "check:11", "act1": "detective", "act2": "exhibit"})
    page = av.post({"type": "buy", "pile": "1", "next.letter": "E"}).get_data(as_text=True)
    assert "now on top of pile 2" in page
    assert is_checked(page, "pile-1") and not is_checked(page, "pile-0")
    assert is_checked(page, "next-letter-E")


# -- Issue 31 item 5: the friction list ----------------------------------------------------------


def test_setup_reports_board_numbers_fractions_and_pile_tops_in_one_round(client, av):
    """Before issue 31 the form refused the banquet, then (typed again) a fraction, then the
    two equal pile tops: three rounds. Now one post names all three, each by its field."""
    data = setup_form(track=False)
    bad = {"banquet": "x", "bottom3": "", "top1.letter": data["top0.letter"]}
    shown = setup_refusals(client, {**data, **bad, "top1.new": data["top0.new"]})
    assert set(shown) == {"banquet", "track", "tops"}, shown
    assert shown["track"][0].startswith("Space 3:")
    assert "already the top card of pile 1" in shown["tops"][0]


@pytest.mark.parametrize(
    ("lang", "fields", "said"),
    [
        ("en", {"p1.thief1": "3"}, "Bob: the number 3 is entered on both thieves;"),
        ("en", {"p2.thief0": "1"}, "Thieves: the number 1 is entered twice (Ann and Cid);"),
        ("cs", {"p1.thief1": "3"}, "Bob: číslo 3 je zadáno u obou zlodějů;"),
        ("cs", {"p2.check0": "11"}, "Šeky: hodnota 11 je zadána dvakrát (Ann a Cid);"),
    ],
)
def test_a_number_entered_twice_names_the_players_by_name(client, lang, fields, said):
    """Issue 31: "Thieves: the number 1 is entered twice (players 1 and 1)"."""
    client.post("/lang", data={"lang": lang, "next": "/"})
    shown = setup_refusals(client, {**setup_form(), **fields})
    assert len(shown) == 1 and said in next(iter(shown.values()))[0], shown


def test_a_buy_without_a_pile_still_refuses_a_next_card_already_on_the_table(av):
    """Issue 31: "no pile chosen" hid a duplicate next card; both are told in one round."""
    av.create()
    av.lock_in()
    av.post({"type": "locations", "place0": "auction", "place1": "castle", "place2": "castle"})
    av.lock_in()
    av.post({"type": "actions", "act0": "check:11", "act1": "detective", "act2": "exhibit"})
    top = av.state()["piles"][1]["top"]
    fields = {"type": "buy", "next.letter": top["letter"], "next.new": str(top["year"])}
    page = av.post(fields).get_data(as_text=True)
    assert "Choose the pile whose top card the buyer takes: 1 / 2." in page
    assert f"{top['letter']} {top['year']} is already on top of pile 2" in page
    assert av.state()["phase"] == "buy"


def test_a_profile_keeps_the_seats_of_its_largest_table_after_a_smaller_one(client, av):
    """Issue 31: a 3-player table after a 2-player one asked 6 typed values for the third seat.
    Each seat's checks and thieves come from the last table of the profile that had it."""
    av.create(track="")  # Ann, Bob, Cid on "Home board"
    two = {**setup_form(names=["Ann", "Bob"], track=False), "variant": "surprise"}
    two.update({"p0.check0": "91", "p1.thief1": "9"})  # the 2-player table's own values
    assert client.post("/tables/new/adel_verpflichtet", data=two).status_code == 303
    page = client.get("/tables/new/adel_verpflichtet?profile=Home+board").text

    def shown(name: str) -> str:
        return re.search(rf'name="{re.escape(name)}" value="(\w*)"', page).group(1)

    assert shown("p0.check0") == "91" and shown("p1.thief1") == "9"  # the latest table's
    assert [shown(f"p2.check{i}") for i in range(4)] == ["31", "32", "33", "34"]
    assert [shown(f"p2.thief{i}") for i in range(2)] == ["5", "6"]
    assert shown("p3.check0") == ""  # no table of the profile had a fourth seat


def test_czech_phrases_put_the_name_first_and_never_decline_it(client):
    """Issue 31: "Šek 10 hráče Čeněk", "Výstava hráče Dáša" declined nothing right; the
    register is the rulebook's "pokladna aukční síně"; Abandon does not read as leaving."""
    client.post("/lang", data={"lang": "cs", "next": "/"})
    czech = AdelPages(client)
    czech.create(player=["Čeněk", "Dáša", "Cid"])
    play_first_turn(czech)
    exhibition = ["C:1556", "D:1563", "E:1570", "F:1577"]
    czech.post(
        {"type": "exhibitions", "shows0": "0", "shows1": "0", "shows2": "1", "show2": exhibition}
    )
    page = czech.page()
    assert "Čeněk: šek 11 je nejvyšší, kupuje" in page
    assert "Cid: výstava (C 1556, D 1563, E 1570, F 1577) je nejlepší" in page
    assert "Dáša: detektiv nikoho nechytil, bez posunu." in page
    assert "hráče Čeněk" not in page and "hráče Dáša" not in page
    assert "Pokladna aukční síně" in page
    assert "Ukončit tuto hru bez výsledku" in page and "Opustit" not in page
