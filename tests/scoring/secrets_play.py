"""A For Sale game for the secrecy tests: its moves, so rules and store tests play the same."""

from scoring import for_sale
from tests.scoring.for_sale_play import IN_ORDER, NAMES, lowest_each

#: Two selling rounds' checks (values nothing else on the page shows); the highest house
#: takes the highest check.
SALES = [[15000, 14000, 0], [13000, 11000, 2000]]


def for_sale_moves(sales: list[list[int]] = SALES, to_the_end: bool = False) -> list[dict]:
    """Start, a bid-and-pass round, the rest of the buying with passes, then the `sales`.

    Round 1: Filip bids 5, Valerie 7, Jiří passes (pays nothing), Filip passes (3 of 5
    back), Valerie pays 7: coins 26, 21, 28, 9 out of the game (RULES.md §2 "Pass").
    Every sale reveals each player's lowest house; `to_the_end` plays the checks left.
    """
    state = for_sale.new_table({"players": NAMES})
    moves: list[dict] = []

    def play(move: dict) -> None:
        nonlocal state
        state = for_sale.apply(state, move)
        moves.append(move)

    play({"type": "start", "seat": 0})
    play({"type": "houses", "houses": IN_ORDER[0]})
    for seat, coins in ((0, 5), (1, 7)):
        play({"type": "bid", "seat": seat, "coins": coins})
    for seat in (2, 0):
        play({"type": "pass", "seat": seat})
    for houses in IN_ORDER[1:]:
        play({"type": "houses", "houses": houses})
        while state["phase"] == "auction":
            play({"type": "pass", "seat": state["auction"]["turn"]})
    for checks in sales:
        play({"type": "checks", "checks": checks})
        play({"type": "sell", "houses": lowest_each(state)})
    while to_the_end and state["phase"] != "game_over":
        options = for_sale.actions(state)
        seen = state["checks_seen"]
        copies = [value for value in options["checks"] for _ in range(2 - seen.count(value))]
        play({"type": "checks", "checks": copies[: options["count"]]})
        play({"type": "sell", "houses": lowest_each(state)})
    return moves


def for_sale_state(moves: list[dict]) -> dict:
    """The state after `moves` from a fresh three-player table."""
    state = for_sale.new_table({"players": NAMES})
    for move in moves:
        state = for_sale.apply(state, move)
    return state
