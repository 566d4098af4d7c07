"""Klub ztroskotanců setup: players, competitions, board values, turn order, handicaps."""

import random

from scoring import common
from scoring.errors import N_, IllegalMove, InvalidSetup, RuleError, raise_all
from scoring.prodigals_club import board as rules_board
from scoring.prodigals_club import chart
from scoring.prodigals_club.board import (
    ELECTION,
    GAME,
    LEGACY,
    MAX_PLAYERS,
    MAX_VOTES,
    MIN_PLAYERS,
    PROPERTY,
    SOCIETY,
)
from scoring.prodigals_club.legacy import new_track
from scoring.prodigals_club.society import limited
from scoring.prodigals_club.standings import handicaps

#: Every field a Klub setup takes; any other is refused by name.
SETUP_KEYS = ("players", "competitions", "board", "order")


def new_table(setup: object) -> dict:
    """The first state: waiting for the turn order unless the setup already gives it."""
    if not isinstance(setup, dict):
        raise InvalidSetup(N_("The table setup must be an object with a list of players."))
    common.only_known_fields(setup, SETUP_KEYS)
    names, playing, values = _checked_setup(setup)
    state = {
        "game": GAME,
        "players": [_new_player(name, values, playing) for name in names],
        "competitions": playing,
        "board": values,
        "phase": "order",
        "round": 1,
        "order": None,
        "start_player": None,
        "handicaps": None,
        "reserved": [None] * len(names),
        "district": values.get("district"),
        "megaphones": None,
        "exempt": [],
        "notice": None,
        "changes": [[] for _ in names],
        "rounds": [],
        "end_reason": None,
        "ranks": None,
    }
    if setup.get("order") is not None:
        try:
            set_order(state, setup["order"])
        except IllegalMove as error:
            raise InvalidSetup(error.template, **error.params) from error
    return state


def _checked_setup(setup: dict) -> tuple[list[str], list[str], dict]:
    """Names, competitions and board values; every refusal among them raised at once."""
    refusals: list[RuleError] = []
    names: list[str] = []
    playing: list[str] | None = None
    values: dict = {}
    try:
        names = player_names(setup.get("players"))
    except InvalidSetup as refused:
        refusals.append(refused)
    try:
        playing = rules_board.competitions(setup.get("competitions"))
    except InvalidSetup as refused:
        refusals.append(refused)
    if playing is not None:
        try:
            values = rules_board.board_values(setup.get("board"), playing)
        except InvalidSetup as refused:
            refusals += [refused, *getattr(refused, "others", [])]
    raise_all(refusals)
    return names, playing or [], values


def _new_player(name: str, values: dict, playing: list[str]) -> dict:
    """A player's tracks before handicaps: the setup table's money, votes and tokens; Legacy £70."""
    return {
        "name": name,
        "cash": values["money"] if PROPERTY in playing else None,
        "tiles": [],
        "votes": values["votes"] if ELECTION in playing else None,
        "tokens": list(values["society_tokens"]) if SOCIETY in playing else None,
        "spaces": chart.start_spaces(values["society_chart"], values["society_tokens"])
        if values.get("society_chart")
        else None,
        "society": sum(values["society_tokens"]) if SOCIETY in playing else None,
        "legacy": new_track() if LEGACY in playing else None,
    }


def _society_handicap(state: dict, player: dict, steps: int) -> None:
    """With a chart, the right-column token moves up on it (RULES.md §5 "Handicaps at setup")."""
    board = state["board"]
    player["spaces"] = chart.pushed_up(board["society_chart"], player["spaces"], steps)
    player["tokens"] = chart.values(board["society_chart"], player["spaces"])
    player["society"] = limited(sum(player["tokens"]), board["society_range"])


def player_names(names: object) -> list[str]:
    """Validated player names in seat order."""
    return common.player_names(
        names,
        MIN_PLAYERS,
        MAX_PLAYERS,
        N_("Klub ztroskotanců is played by 2 to 5 players, not {count}."),
    )


def draw_order(player_count: int, rng: random.Random) -> list[int]:
    """Round 1's turn order drawn by lot (RULES.md §5; seed: "určeno náhodně")."""
    order = list(range(player_count))
    rng.shuffle(order)
    return order


def validate_order(order: object, player_count: int) -> list[int]:
    """The turn order as seats, or IllegalMove if it is not every seat once."""
    if (
        not isinstance(order, list)
        or not all(common.is_int(seat) for seat in order)
        or sorted(order) != list(range(player_count))
    ):
        raise IllegalMove(N_("order: list every seat exactly once, first player first."))
    return list(order)


def set_order(state: dict, order: object) -> None:
    """Fix round 1's turn order and give the handicaps it implies (none with Legacy, seed)."""
    order = validate_order(order, len(state["players"]))
    given = handicaps(state["competitions"], len(order))
    per_seat = [None] * len(order)
    for place, seat in enumerate(order):
        per_seat[seat] = given[place]
        player = state["players"][seat]
        if player["cash"] is not None:
            player["cash"] += given[place]["money"]
        if player["votes"] is not None:
            player["votes"] = min(MAX_VOTES, player["votes"] + given[place]["votes"])
        if player.get("spaces") and given[place]["society"]:
            _society_handicap(state, player, given[place]["society"])
    state["order"] = order
    state["start_player"] = order[0]
    state["handicaps"] = per_seat
    state["phase"] = "play"
