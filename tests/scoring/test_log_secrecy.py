"""Secrets in the move log (scoring.secrecy.log_view, each game's LOG_SECRETS).

docs/game-contract.md "Secrets": a log entry shown while the game runs must not let anyone
recompute a hidden value. RULES.md §2 For Sale's coins ("Mince mohou být drženy tajně") and
face-down checks won, §1 Razzia's face-down checks ("zakrytě"), §4 Adel's hands ("Hands are
secret"); §3 Cech zlodějů and §5 Klub ztroskotanců hide nothing the app tracks.
"""

import copy

import pytest

from scoring import adel_verpflichtet, for_sale, prodigals_club, razzia, secrecy, thieves_guild
from scoring.adel_verpflichtet.table import SETUP_KEYS as ADEL_SETUP_KEYS
from scoring.errors import RuleError
from scoring.secrecy import LogSecret, Secret, is_hidden
from tests.scoring import adel_play
from tests.scoring.secrets_play import for_sale_moves, for_sale_state
from tests.scoring.test_secrecy import razzia_after, round_3_after_cids_win
from tests.web import game_script

GAMES = (for_sale, razzia, thieves_guild, prodigals_club, adel_verpflichtet)


def test_every_game_ties_its_log_secrets_to_a_declared_secret():
    """docs/game-contract.md "Secrets": each log secret is one of the game's SECRETS (so it
    cites the same rule) and names move types and fields the game has."""
    for rules in GAMES:
        assert isinstance(rules.LOG_SECRETS, tuple)
        for log_secret in rules.LOG_SECRETS:
            assert any(log_secret.secret is secret for secret in rules.SECRETS)
            assert log_secret.secret.rule.startswith("RULES.md §")
    for rules in (for_sale, razzia):
        for log_secret in rules.LOG_SECRETS:
            for path in log_secret.moves:
                kind, field = path.split(".")[:2]
                assert field in rules.moves.MOVE_FIELDS[kind], path
    for log_secret in adel_verpflichtet.LOG_SECRETS:
        assert all(path in ADEL_SETUP_KEYS for path in log_secret.setup)
    assert thieves_guild.LOG_SECRETS == () and prodigals_club.LOG_SECRETS == ()


def test_for_sale_log_shows_who_bid_and_sold_not_how_much_or_which_house():
    """RULES.md §2: bids add up to the coins and the houses sold give the checks won, so
    while the game runs they are markers; a seat without houses (null) stays null; the moves
    handed in are not changed; replaying what is shown fails at the first bid."""
    moves = for_sale_moves()
    kept = copy.deepcopy(moves)
    state = for_sale_state(moves)
    shown = secrecy.log_view(state, moves)
    assert moves == kept and shown["hidden"] == ["coins", "checks"]
    for move, seen in zip(moves, shown["moves"], strict=True):
        assert seen["type"] == move["type"] and seen.get("seat") == move.get("seat")
        if move["type"] == "bid":
            assert seen["coins"] == {"hidden": True}
        elif move["type"] == "checks":
            assert seen["checks"] == {"hidden": True, "count": len(move["checks"])}
        elif move["type"] == "sell":
            assert [is_hidden(h) for h in seen["houses"]] == [h is not None for h in move["houses"]]
        else:
            assert seen == move
    with pytest.raises(RuleError):
        for_sale_state(shown["moves"])


def test_for_sale_log_with_a_seat_out_of_houses_keeps_its_null():
    """RULES.md §2 variant: a seat without houses enters none (null): the table sees that."""
    move = {"type": "sell", "houses": [12, None, 3]}
    shown = secrecy.log_view(for_sale_state(for_sale_moves()), [move])["moves"][0]
    assert shown["houses"] == [{"hidden": True}, None, {"hidden": True}]


def test_the_whole_log_shows_on_reveal_and_once_the_game_is_over():
    """docs/game-contract.md "Secrets": the scorer's reveal shows it all; once the game is
    over nothing is hidden, and the log replays to the final state."""
    moves = for_sale_moves()
    running = secrecy.log_view(for_sale_state(moves), moves, reveal=True)
    assert running["moves"] == moves and running["hidden"] == []
    moves = for_sale_moves(to_the_end=True)
    final = for_sale_state(moves)
    assert final["phase"] == "game_over"
    over = secrecy.log_view(final, moves, setup={"players": ["Filip"]})
    assert over == {"setup": {"players": ["Filip"]}, "moves": moves, "hidden": []}
    assert for_sale_state(over["moves"]) == final


def test_razzia_bids_are_markers_only_while_a_check_lies_face_down():
    """RULES.md §1 "Auction" and "Round end": every bid names a check the next winner takes
    face down; at the round's end all checks are turned face up and the bids show again."""
    moves = [game_script.as_form(step) for step in game_script.ROUND_1]
    bid = {"type": "bid", "seat": game_script.BOB, "check": 7000}
    during = secrecy.log_view(round_3_after_cids_win(), [*moves, bid])
    assert during["hidden"] == ["face_down_checks"]
    assert during["moves"][-1] == {**bid, "check": {"hidden": True}}
    assert [m for m in during["moves"] if m["type"] != "bid"] == [
        m for m in moves if m["type"] != "bid"
    ]
    at_round_end = secrecy.log_view(razzia_after(game_script.ROUND_1), [*moves, bid])
    assert at_round_end["moves"] == [*moves, bid] and at_round_end["hidden"] == []


def test_adel_log_holds_back_the_dealt_hands_of_its_setup():
    """RULES.md §4 "Hands are secret": a tracked game's setup holds the hands dealt (the
    export carries it): a marker while the game runs; the moves, all laid open, stay."""
    table = adel_play.table()
    moves = [{"type": "next"}]
    shown = secrecy.log_view(table.state, moves, setup=table.setup)
    assert shown["setup"]["hands"] == {"hidden": True, "count": len(table.setup["hands"])}
    assert shown["setup"]["players"] == table.setup["players"] and shown["moves"] == moves
    assert shown["hidden"] == ["hands"]


def test_a_game_that_declared_no_log_secrets_shows_only_who_did_what(monkeypatch):
    """docs/game-contract.md "Secrets": a log whose game has not declared LOG_SECRETS shows
    only each move's type and seat while the game runs, and no setup."""
    monkeypatch.delattr(for_sale, "LOG_SECRETS")
    move = {"type": "bid", "seat": 1, "coins": 7}
    shown = secrecy.log_view(for_sale_state(for_sale_moves()), [move, None], setup={"a": 1})
    assert shown["moves"] == [{"type": "bid", "seat": 1, "coins": {"hidden": True}}, None]
    assert shown["setup"] == {"hidden": True} and shown["hidden"] == ["undeclared"]


def test_the_room_displays_last_move_is_the_public_one():
    """docs/game-contract.md "Secrets": the room display's last move is read as anyone may."""
    state = for_sale_state(for_sale_moves())
    move = {"type": "bid", "seat": 0, "coins": 5}
    assert secrecy.public_move(state, move) == {**move, "coins": {"hidden": True}}
    assert secrecy.public_move(state, None) is None


def test_a_log_secret_must_name_a_field():
    """A move path without a field would hide nothing useful: refused when the game loads."""
    coins = Secret("coins", ("state.players.*.coins",), "RULES.md §2")
    with pytest.raises(ValueError, match="names no field"):
        LogSecret(coins, moves=("bid",))
