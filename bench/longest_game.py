"""Build a long, legal, finished Razzia! game (all 3 rounds) with the real rules engine.

Five players (the most bidders per auction), and a table that stretches every round:
thieves grab single cards, every loot card is drawn (each 7th loot triggers an auction that
everyone passes), forced auctions are called while the caller keeps a spare check, and the
police come last. Every auction that can be passed is passed.
"""

from scoring import razzia
from scoring.razzia import cards

PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eva"]
SETS = ["A", "B", "C", "D", "E"]
#: A caller keeps this many face-up checks so they stay in the round's auctions.
SPARE_CHECKS = 1


def _turn_move(state: dict, seat: int) -> dict:
    """The turn action that keeps the round going longest."""
    player = state["players"][seat]
    if player["family"].get("thief", 0) and state["row"]:
        return {"type": "thief", "seat": seat, "take": [state["row"][0]]}
    loot = [kind for kind in cards.LOOT if state["deck"][kind]]
    if loot:
        return {"type": "draw", "seat": seat, "card": max(loot, key=state["deck"].get)}
    if len(player["up"]) > SPARE_CHECKS:
        return {"type": "forced_auction", "seat": seat}
    return {"type": "draw", "seat": seat, "card": cards.POLICE}


def next_move(state: dict) -> dict:
    """The move the long-game table makes in `state`."""
    options = razzia.actions(state)
    phase, seat = options["phase"], options["actor"]
    if phase == "deal":
        return {"type": "deal", "sets": SETS}
    if phase == "round_end":
        return {"type": "next_round"}
    if phase == "auction":
        if options["can_pass"]:
            return {"type": "pass", "seat": seat}
        return {"type": "bid", "seat": seat, "check": min(options["bids"])}
    return _turn_move(state, seat)


def longest_game() -> list[dict]:
    """Every move of the long game, from the deal to game over."""
    state = razzia.new_table({"players": PLAYERS})
    moves = []
    while state["phase"] != "game_over":
        move = next_move(state)
        state = razzia.apply(state, move)
        moves.append(move)
    return moves


if __name__ == "__main__":
    game = longest_game()
    kinds = {kind: sum(m["type"] == kind for m in game) for kind in {m["type"] for m in game}}
    print(len(game), "moves:", kinds)
