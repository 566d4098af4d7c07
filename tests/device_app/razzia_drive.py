"""Scripted Razzia! play for the device tests: police drawn until a target, auctions passed."""

from scoring import razzia


def auction_step(state: dict) -> dict:
    """The bidder passes, or bids the lowest allowed check when passing is not allowed."""
    options = razzia.actions(state)
    if options["can_pass"]:
        return {"type": "pass", "seat": options["actor"]}
    return {"type": "bid", "seat": options["actor"], "check": min(options["bids"])}


def next_police_moves(state: dict) -> list[dict]:
    """The moves that draw one police card and settle its auction (nobody buys if they can)."""
    moves = [{"type": "draw", "seat": state["turn"], "card": "police"}]
    state = razzia.apply(state, moves[0])
    while state["phase"] == "auction":
        moves.append(auction_step(state))
        state = razzia.apply(state, moves[-1])
    return moves


def draw_police(state: dict, count: int) -> dict:
    """`state` after `count` more police cards (each auction settled)."""
    for _ in range(count):
        for move in next_police_moves(state):
            state = razzia.apply(state, move)
    return state
