"""Issue 14 item 3: a move form shows all its errors at once.

A move with several independent parts that are each wrong is refused with every reason: the
first as the exception, the rest as its `others` (scoring.errors.raise_all), each naming the
part (and the player) it is about; the state stays exactly as it was.
"""

import copy

import pytest

from scoring import adel_verpflichtet as adel
from scoring import for_sale, razzia, thieves_guild
from scoring import prodigals_club as club
from scoring.errors import IllegalMove, RuleError, at_field, collect, raise_all
from tests.scoring import adel_play
from tests.scoring.for_sale_play import IN_ORDER, buy_all
from tests.scoring.for_sale_play import play as play_for_sale
from tests.scoring.for_sale_play import started as for_sale_started
from tests.scoring.prodigals_play import play as play_club
from tests.scoring.prodigals_play import started as club_started
from tests.scoring.thieves_guild_play import after
from tests.scoring.thieves_guild_play import started as guild_started


def every_refusal(rules, state: dict, move: dict) -> list[RuleError]:
    """Every refusal of `move` (first, then its others); the state must come through unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as refused:
        rules.apply(state, move)
    assert state == before, "a refused move never half-applies"
    return [refused.value, *getattr(refused.value, "others", [])]


def sentences(refusals: list[RuleError]) -> list[str]:
    """The refusals as the API sends them."""
    return [str(each) for each in refusals]


def fields(refusals: list[RuleError]) -> list[str | None]:
    """The form field each refusal marks."""
    return [getattr(each, "field", None) for each in refusals]


# -- the helpers themselves --------------------------------------------------------------------


def test_collect_keeps_every_refusal_and_its_others_in_order():
    """collect() adds a refusal with its own others; raise_all() raises the first with the rest."""
    first, second, third = IllegalMove("a"), IllegalMove("b"), IllegalMove("c")

    def refuse_two():
        raise_all([second, third])

    def refuse_one():
        raise first

    found: list[RuleError] = []
    assert collect(found, refuse_one) is None
    assert collect(found, refuse_two) is None
    assert collect(found, lambda value: value + 1, 1) == 2
    assert found == [first, second, third]
    with pytest.raises(IllegalMove) as raised:
        raise_all(found)
    assert raised.value is first and raised.value.others == [second, third]
    assert at_field(IllegalMove("d"), "houses").field == "houses"


# -- For Sale (RULES.md §2) --------------------------------------------------------------------


def for_sale_reveal() -> dict:
    """Three players in the sale: Filip holds 28-30, Valerie 25-27, Jiří 22-24 ... by IN_ORDER."""
    state = buy_all(for_sale_started(), IN_ORDER)
    return play_for_sale(state, {"type": "checks", "checks": [0, 13000, 12000]})


def test_rules_2_a_sale_names_every_player_whose_revealed_house_is_wrong():
    """§2 "Phase 2": each seat's house is checked; two wrong seats are both named, at their rows."""
    state = for_sale_reveal()
    hands = [player["houses"] for player in state["players"]]
    not_held = next(house for house in range(1, 31) if house not in hands[0])
    refusals = every_refusal(for_sale, state, {"type": "sell", "houses": [not_held, None, None]})
    assert sentences(refusals) == [
        f"Filip does not hold house {not_held}; Filip holds {', '.join(map(str, hands[0]))}.",
        "Enter the house Valerie revealed.",
        "Enter the house Jiří revealed.",
    ]
    assert fields(refusals) == ["house0", "house1", "house2"]


def test_rules_2_the_checks_turned_over_name_every_check_that_is_not_in_the_game():
    """§2 "Cards": checks are $0 and $2,000-15,000, two of each; every wrong value is named."""
    state = buy_all(for_sale_started(), IN_ORDER)
    refusals = every_refusal(for_sale, state, {"type": "checks", "checks": [1000, 16000, 2000]})
    assert sentences(refusals) == [
        "There is no check of 1,000; checks are 0 and 2,000 to 15,000.",
        "There is no check of 16,000; checks are 0 and 2,000 to 15,000.",
    ]
    assert fields(refusals) == ["checks", "checks"]
    state = play_for_sale(state, {"type": "checks", "checks": [0, 0, 2000]})
    state = play_for_sale(
        state, {"type": "sell", "houses": [p["houses"][0] for p in state["players"]]}
    )
    refusals = every_refusal(for_sale, state, {"type": "checks", "checks": [0, 1000, 2000]})
    assert sentences(refusals) == [
        "There is no check of 1,000; checks are 0 and 2,000 to 15,000.",
        "Both checks of 0 have already been turned over.",
    ]


def test_rules_2_the_houses_turned_over_name_every_house_that_is_not_in_the_game():
    """§2 "Cards": houses 1-30, each once; every wrong number is named once."""
    state = for_sale_started()
    refusals = every_refusal(for_sale, state, {"type": "houses", "houses": [0, 31, 5]})
    assert sentences(refusals) == [
        "There is no house 0; houses are 1 to 30.",
        "There is no house 31; houses are 1 to 30.",
    ]
    refusals = every_refusal(for_sale, state, {"type": "houses", "houses": [7, 7, 40]})
    assert sentences(refusals) == [
        "House 7 has already been turned over; each house exists once.",
        "There is no house 40; houses are 1 to 30.",
    ]
    assert fields(refusals) == ["houses", "houses"]


# -- Klub ztroskotanců (RULES.md §5) -----------------------------------------------------------


def test_rules_5_hyde_park_names_every_player_whose_megaphones_are_wrong():
    """§5 "Hyde Park": every player's count is required; each missing or wrong one is named."""
    state = play_club(club_started(), {"type": "end_actions"})
    refusals = every_refusal(club, state, {"type": "hyde_park", "megaphones": [None, -1, 2]})
    assert "every player's megaphones" in str(refusals[0])  # the sentence it always gave first
    assert sentences(refusals)[1:] == [
        "megaphones: enter Ann's megaphones of this round.",
        "megaphones: Bob's megaphones are a whole number of 0 or more, not -1.",
    ]


def test_rules_5_the_old_lady_names_every_wrong_exemption():
    """§5 "Society": each exempt player is marked once; each stranger and repeat is named."""
    state = play_club(club_started(), {"type": "end_actions"})
    state = play_club(state, {"type": "hyde_park", "megaphones": [0, 0, 0]})
    refusals = every_refusal(club, state, {"type": "old_lady", "exempt": [7, 1, 1]})
    assert sentences(refusals) == [
        "exempt: 7 is not a player; mark exempt players by their seat.",
        "exempt: Bob is marked exempt more than once.",
    ]


@pytest.mark.parametrize(
    ("move", "named"),
    [
        (
            {"action": "sell", "seat": 9, "tile": {"value": -1, "district": 1}, "discount": -2},
            ["seat", "tile", "discount"],
        ),
        (
            {
                "action": "exchange",
                "seat": 0,
                "give": {"value": 6, "district": 9},
                "take": "6/1",
                "limit": 3,
            },
            ["give", "take", "limit"],
        ),
        (
            {
                "action": "exchange",
                "seat": 0,
                "give": {"value": 6, "district": 1},
                "take": {"value": 1, "district": 1},
                "limit": 3,
            },
            ["limit", "give"],
        ),
        ({"action": "add", "seat": None, "tiles": ["x", {"value": 2}]}, ["seat", "tiles", "tiles"]),
        ({"action": "spend", "seat": "Ann", "amount": 0}, ["seat", "amount"]),
    ],
)
def test_rules_5_a_property_entry_names_the_player_and_every_wrong_field(move, named):
    """§5 "Property": the player and each field of the entry are checked together (a tile the
    player does not own only once the tile itself is readable)."""
    refusals = every_refusal(club, club_started(), {"type": "property", **move})
    marked = [getattr(each, "field", None) or str(each).split(":")[0] for each in refusals]
    assert marked == named, sentences(refusals)


def test_rules_5_votes_and_reservations_name_the_player_and_the_value_together():
    """§5 "Election" and the turn-order space: a wrong player and a wrong value, both named."""
    state = club_started()
    refusals = every_refusal(club, state, {"type": "votes", "seat": 5, "delta": 0})
    assert [text.split(":")[0] for text in sentences(refusals)] == ["seat", "delta"]
    refusals = every_refusal(club, state, {"type": "reserve", "seat": -1, "place": 9})
    assert [text.split(":")[0] for text in sentences(refusals)] == ["seat", "place"]


# -- Razzia! (RULES.md §1) ---------------------------------------------------------------------


def test_rules_1_a_deal_by_hand_names_every_seat_and_set_that_is_wrong():
    """§1 "Setup": each set goes to exactly one seat; an unknown set, a set dealt twice and the
    sets nobody got are each named after the general sentence."""
    state = razzia.new_table({"players": ["Ann", "Bob", "Cid"]})
    refusals = every_refusal(razzia, state, {"type": "deal", "sets": ["A", "A", "E"]})
    assert sentences(refusals) == [
        "Deal each of the sets A, B, C to exactly one seat.",
        "Cid's set: there is no set E; the sets are A, B, C.",
        "Set A is dealt to Ann, Bob; each set goes to one seat.",
        "No seat has set B yet.",
        "No seat has set C yet.",
    ]
    assert set(fields(refusals)) == {"sets"}


# -- Adel Verpflichtet (RULES.md §4) -----------------------------------------------------------


def test_rules_4_locations_name_every_player_without_a_place():
    """§4 "Turn": everyone goes to the auction house or the castle; each wrong one is named."""
    state = adel_play.table().state
    refusals = every_refusal(adel, state, {"type": "locations", "places": ["moon", "castle", 3]})
    assert sentences(refusals) == [
        "Enter where Ann goes: the auction house or the castle.",
        "Enter where Cid goes: the auction house or the castle.",
    ]


def test_rules_4_action_cards_name_every_player_whose_card_is_wrong():
    """§4 "Turn": each player plays a card they hold that fits their place; every wrong one."""
    table = adel_play.table()
    table.play({"type": "locations", "places": ["auction"] * 3})
    played = [{"card": "check", "value": 99}, {"card": "check", "value": 21}, {"card": "x"}]
    refusals = every_refusal(adel, table.state, {"type": "actions", "actions": played})
    assert [text.split(" ")[0] for text in sentences(refusals)] == ["Ann", "Cid's"]


def test_rules_4_surprise_names_wrong_places_and_wrong_cards_at_once():
    """§4 variant "Surprise": locations and cards are one entry; a wrong place and another
    player's wrong card are both named (a seat without a place is not judged on its card)."""
    state = adel_play.table(2, variant="surprise").state
    move = {
        "type": "choices",
        "places": ["moon", "auction"],
        "actions": [{"card": "check", "value": 11}, {"card": "check", "value": 99}],
    }
    refusals = every_refusal(adel, state, move)
    assert sentences(refusals) == [
        "Enter where Ann goes: the auction house or the castle.",
        "Bob does not hold that check; Bob holds checks 21, 22, 23, 24.",
    ]


def test_rules_4_final_exhibitions_name_every_player_whose_exhibition_is_wrong():
    """§4 "End": each final exhibition is from the player's hand and valid; every wrong one."""
    state = adel_play.table().state
    state = {**state, "phase": "final"}
    stranger = {"letter": "A", "year": 1499}
    shows = [[stranger], [], "B 1720"]
    refusals = every_refusal(adel, state, {"type": "final", "shows": shows})
    assert [text.split(" ")[0] for text in sentences(refusals)] == ["Ann's", "Enter"]
    assert "Cid" in sentences(refusals)[1]
    # Valid in shape, each exhibition is then checked against the hands: every wrong one named.
    ann, bob = state["players"][0]["hand"], state["players"][1]["hand"]
    stranger_run = [stranger, {"letter": "B", "year": 1498}, {"letter": "C", "year": 1497}]
    shows = [stranger_run, [bob[2], bob[3], ann[2]], []]
    refusals = every_refusal(adel, state, {"type": "final", "shows": shows})
    assert sentences(refusals) == [
        "Ann does not hold A 1499: it has not been dealt to or bought by Ann.",
        "C 1514 is already in Ann's hand: each card is one physical card, in one place.",
    ]


# -- Cech zlodějů (RULES.md §3) ----------------------------------------------------------------


def test_rules_3_a_card_names_its_name_payer_and_amount_together():
    """§3 "Cards": the card's name and each part of its gold effect (payer, payee, amount)."""
    state = after(guild_started(4), {"type": "loot", "roll": 2})
    move = {"type": "card", "seat": 1, "card": " ", "transfers": [{"from": 9, "to": 2, "gold": 0}]}
    refusals = every_refusal(thieves_guild, state, move)
    assert sentences(refusals) == [
        "Name the card played, as printed on it.",
        "from: the gold comes from one of the 4 players at the table.",
        "A gold effect moves a whole number of gold, 1 or more.",
    ]
    assert fields(refusals) == ["card", "from", "gold"]
    move = {"type": "card", "seat": 7, "card": "Alarm", "transfers": [{"from": 2, "to": 2}]}
    refusals = every_refusal(thieves_guild, state, move)
    assert fields(refusals) == ["seat", "to", "gold"]


def test_rules_3_a_target_roll_names_the_roll_and_the_side_together():
    """§3 "Turn": with 6-9 players the roll and the side are one entry; both wrong, both named."""
    state = after(guild_started(6), {"type": "loot", "roll": 2})
    refusals = every_refusal(thieves_guild, state, {"type": "target", "roll": 9, "direction": "up"})
    assert len(refusals) == 2 and sentences(refusals)[1] == "Choose the direction: left or right."


def test_rules_5_a_legacy_entry_names_the_player_and_every_wrong_field():
    """§5 "Legacy combination": a property added with a wrong value and a wrong label, or by
    nobody, names each part at once."""
    state = club_started(competitions=["legacy", "election"])
    move = {"type": "legacy", "action": "add", "seat": 0, "value": -1, "label": "x" * 41}
    refusals = every_refusal(club, state, move)
    assert [text.split(":")[0] for text in sentences(refusals)] == ["value", "label"]
    move = {"type": "legacy", "action": "value", "seat": 9, "property": 1, "value": "a"}
    refusals = every_refusal(club, state, move)
    assert [text.split(":")[0] for text in sentences(refusals)] == ["seat", "value"]
    move = {"type": "legacy", "action": "value", "seat": 0, "property": 5, "value": -2}
    refusals = every_refusal(club, state, move)
    assert [text.split(":")[0] for text in sentences(refusals)] == ["property", "value"]
