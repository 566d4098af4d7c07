"""What players keep hidden at the physical table (scoring/secrecy.py, each game's secrets.py).

Each test names the rule that hides (or does not hide) something: RULES.md §1 Razzia's
face-down checks, §2 For Sale's coins ("Mince mohou být drženy tajně") and face-down checks,
§3 Cech zlodějů and §5 Klub ztroskotanců, which hide nothing the app tracks.
"""

import copy

import pytest

from scoring import adel_verpflichtet, for_sale, prodigals_club, razzia, secrecy, thieves_guild
from scoring.secrecy import Secret, is_hidden
from tests.scoring import adel_play, prodigals_play, thieves_guild_play
from tests.scoring.for_sale_play import play, started
from tests.scoring.secrets_play import for_sale_moves, for_sale_state
from tests.web import game_script


def for_sale_selling() -> dict:
    """For Sale in the selling phase, two rounds sold (tests/scoring/secrets_play.py)."""
    return for_sale_state(for_sale_moves())


def razzia_after(*rounds: list[tuple]) -> dict:
    """The scripted Razzia! game (tests/web/game_script.py): each round's steps, in turn."""
    state = razzia.new_table({"players": game_script.PLAYERS})
    state = razzia.apply(state, {"type": "deal", "sets": game_script.SETS})
    for number, steps in enumerate(rounds):
        if number:
            state = razzia.apply(state, {"type": "next_round"})
        for step in steps:
            state = razzia.apply(state, game_script.as_form(step))
    return state


def round_3_after_cids_win() -> dict:
    """Round 3 once Cid won the first auction: the 12,000 centre check lies face down."""
    return razzia_after(game_script.ROUND_1, game_script.ROUND_2, game_script.ROUND_3[:7])


def test_for_sale_coins_are_held_secretly_and_checks_lie_face_down():
    """RULES.md §2: coins "may be held secretly" and won checks lie face down: the public
    view holds no coins, no coins spent, no check value and no money, only check counts."""
    state = for_sale_selling()
    shown = secrecy.public_view(state)
    for player, seen in zip(state["players"], shown["state"]["players"], strict=True):
        assert is_hidden(seen["coins"]) and is_hidden(seen["spent"])
        assert seen["checks"] == {"hidden": True, "count": len(player["checks"])}
        assert seen["bid"] == player["bid"] and seen["houses"] == player["houses"]
    assert [p["checks"]["count"] for p in shown["state"]["players"]] == [2, 2, 2]
    assert all(is_hidden(got) for sale in shown["state"]["sales"] for got in sale["got"])
    assert is_hidden(shown["summary"]["totals"])
    for row in shown["standings"]:
        assert is_hidden(row["total"]) and all(is_hidden(v) for v in row["points"].values())
    assert shown["hidden"] == ["coins", "checks"]


def test_for_sale_public_view_keeps_what_the_table_sees():
    """RULES.md §2: houses turned over, checks on the table and coins out of the game are
    public; the view keeps them as they are."""
    state = for_sale_selling()
    state = play(state, {"type": "checks", "checks": [12000, 10000, 9000]})
    shown = secrecy.public_view(state)["state"]
    assert shown["checks_up"] == [12000, 10000, 9000]
    assert shown["checks_seen"] == state["checks_seen"] and shown["coins_out"] == 9
    turned_over = [sale["checks"] for sale in state["sales"]]
    assert [sale["checks"] for sale in shown["sales"]] == turned_over


def test_for_sale_what_a_bidder_could_bid_is_hidden_too():
    """RULES.md §2 "Phase 1": what the bidder to act may bid says what they hold, and that
    they cannot raise says they hold too little: both limits are hidden."""
    state = play(
        started(),
        {"type": "houses", "houses": [5, 17, 30]},
        {"type": "bid", "seat": 0, "coins": 28},
    )
    assert for_sale.actions(state)["min_bid"] is None  # Valerie cannot beat 28
    actions = secrecy.public_view(state)["actions"]
    assert is_hidden(actions["min_bid"]) and is_hidden(actions["max_bid"])
    assert actions["high"] == 28 and actions["actor"] == 1


def test_nothing_is_hidden_once_the_game_is_over():
    """RULES.md §2: results show everything; the view is the full one."""
    state = for_sale_state(for_sale_moves(to_the_end=True))
    assert state["phase"] == "game_over"
    shown = secrecy.public_view(state)
    assert shown == {**secrecy.full_view(state), "hidden": []}


def test_concealing_never_changes_the_state_it_reads():
    """The public view is a copy: the state the rules keep is untouched."""
    state = for_sale_selling()
    before = copy.deepcopy(state)
    secrecy.public_view(state)
    secrecy.table_view(state)
    assert state == before


def test_a_scorers_reveal_gives_the_full_view():
    """docs/game-contract.md "Secrets": table_view(state, reveal=True) hides nothing."""
    state = for_sale_selling()
    assert secrecy.table_view(state, reveal=True) == {**secrecy.full_view(state), "hidden": []}
    assert secrecy.table_view(state)["hidden"] == ["coins", "checks"]


def test_razzia_a_won_centre_check_lies_face_down_until_the_round_ends():
    """RULES.md §1 "Auction": the winner takes the centre check face down (seed: "Tento
    pokládá zakrytě"): the table sees that it lies there, not its value."""
    state = razzia_after(game_script.ROUND_1[:7])  # Bob wins with 7,000: the 1,000 face down
    shown = secrecy.public_view(state)
    bob = shown["state"]["players"][game_script.BOB]
    assert bob["down"] == {"hidden": True, "count": 1}
    assert bob["up"] == state["players"][game_script.BOB]["up"]
    assert shown["hidden"] == ["face_down_checks"]
    assert shown["standings"] == razzia.live_standings(state)  # rounds 1-2 score no checks


def test_razzia_checks_turn_face_up_at_the_round_end():
    """RULES.md §1 "Round end": every player turns all their checks face up."""
    state = razzia_after(game_script.ROUND_1)
    assert state["phase"] == "round_end" and any(p["down"] for p in state["players"])
    assert secrecy.public_view(state)["hidden"] == []


def test_razzia_round_3_check_points_wait_for_the_face_down_checks():
    """RULES.md §1 "Round 3 only": check sums count face-down checks ("odkrytých i
    zakrytých"), so while one lies face down the check points and totals are hidden."""
    state = round_3_after_cids_win()
    assert state["round"] == 3 and state["players"][game_script.CID]["down"] == [12000]
    shown = secrecy.public_view(state)
    assert shown["hidden"] == ["face_down_checks", "check_points"]
    full = razzia.live_standings(state)
    for row, real in zip(shown["standings"], full, strict=True):
        assert is_hidden(row["points"]["checks"]) and is_hidden(row["points"]["total"])
        assert is_hidden(row["total"])
        assert row["points"]["jewelry"] == real["points"]["jewelry"]


@pytest.mark.parametrize(
    "state",
    [
        pytest.param(thieves_guild_play.started(4), id="thieves_guild"),
        pytest.param(prodigals_play.started(), id="prodigals_club"),
    ],
)
def test_cech_and_klub_hide_nothing_the_app_tracks(state):
    """RULES.md §3 and §5: gold lies in front of each player, the tracks on the boards; the
    cards in hand are secret but the app holds only their count (Cech) or nothing (Klub)."""
    assert secrecy.public_view(state) == {**secrecy.full_view(state), "hidden": []}


def test_every_game_declares_its_secrets_citing_the_rules():
    """docs/game-contract.md "Secrets": each declared secret names the rule that hides it."""
    for rules in (for_sale, razzia, thieves_guild, prodigals_club, adel_verpflichtet):
        assert isinstance(rules.SECRETS, tuple)
        assert all(secret.rule.startswith("RULES.md §") for secret in rules.SECRETS)


def test_adel_hands_are_counts_on_every_shared_screen():
    """RULES.md §4 "Hidden information": "Hands are secret" (how many cards, never which);
    the pawns on the track are public. The best-exhibition proposals would tell the hands."""
    state = adel_play.table().state
    for view in (secrecy.public_view(state), secrecy.table_view(state)):
        assert view["hidden"] == ["hands"]
        for shown, real in zip(view["state"]["players"], state["players"], strict=True):
            assert shown["hand"] == {"hidden": True, "count": len(real["hand"])}
            assert shown["position"] == real["position"]
        assert [row["total"] for row in view["standings"]] == [
            player["position"] for player in state["players"]
        ]
    assert secrecy.table_view(state, reveal=True)["state"] == state


def test_a_game_that_declared_nothing_shows_only_names_publicly(monkeypatch):
    """docs/game-contract.md "Secrets": a game that has not declared its secrets (here Adel with
    its declaration taken away) shows who plays and nothing they hold or score publicly; its
    own page (table_view) is left as the game draws it."""
    monkeypatch.delattr(adel_verpflichtet, "SECRETS")
    state = adel_play.table().state
    shown = secrecy.public_view(state)
    assert [set(player) for player in shown["state"]["players"]] == [
        set(player) for player in state["players"]
    ]
    for player, real in zip(shown["state"]["players"], state["players"], strict=True):
        assert player["name"] == real["name"]
        assert all(is_hidden(player[key]) for key in real if key != "name")
    assert all(is_hidden(row["total"]) for row in shown["standings"])
    own = secrecy.table_view(state)
    assert own["state"] == state and own["hidden"] == []


def test_a_secret_must_point_into_the_view():
    """A path outside state/actions/summary/standings would hide nothing: refused at once."""
    with pytest.raises(ValueError, match="does not start with"):
        Secret("typo", ("players.*.coins",), "RULES.md §2")
