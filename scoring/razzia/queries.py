"""Read-only views of a Razzia! state: what may be done now, every legal move, a summary."""

from itertools import combinations, permutations

from scoring.razzia import auction, cards, table


def actions(state: dict) -> dict:
    """What the player to act may do now, for the UI (the rules decide, the UI shows)."""
    phase = state["phase"]
    result: dict = {"phase": phase, "actor": None, "sitting_out": sitting_out(state)}
    if phase == "deal":
        result["sets"] = table.set_labels(len(state["players"]))
    elif phase == "turn":
        seat = state["turn"]
        result.update(
            actor=seat,
            draw=[card for card, left in state["deck"].items() if left],
            thieves=min(state["players"][seat]["family"].get("thief", 0), len(state["row"])),
            row=list(state["row"]),
            forced_auction=True,
        )
    elif phase == "auction":
        seat = auction.next_bidder(state)
        result.update(
            actor=seat,
            bids=auction.legal_bids(state, seat),
            can_pass=not auction.must_bid(state, seat),
        )
    elif phase == "round_end":
        result["next_round"] = True
    return result


def sitting_out(state: dict) -> list[int]:
    """Seats with no face-up check left: they sit out the rest of the round."""
    if state["phase"] not in ("turn", "auction"):
        return []
    return [seat for seat, player in enumerate(state["players"]) if not player["up"]]


def legal_moves(state: dict) -> list[dict]:
    """Every legal move in this state (deals and thief choices enumerated in full)."""
    options = actions(state)
    phase, seat = options["phase"], options["actor"]
    if phase == "deal":
        return [{"type": "deal", "sets": list(order)} for order in permutations(options["sets"])]
    if phase == "turn":
        moves = [{"type": "draw", "seat": seat, "card": card} for card in options["draw"]]
        moves += [{"type": "thief", "seat": seat, "take": take} for take in _thief_takes(state)]
        return moves + [{"type": "forced_auction", "seat": seat}]
    if phase == "auction":
        moves = [{"type": "bid", "seat": seat, "check": check} for check in options["bids"]]
        return moves + ([{"type": "pass", "seat": seat}] if options["can_pass"] else [])
    if phase == "round_end":
        return [{"type": "next_round"}]
    return []


def _thief_takes(state: dict) -> list[list[str]]:
    """Every distinct choice of row cards the current player's thieves could take."""
    limit = min(state["players"][state["turn"]]["family"].get("thief", 0), len(state["row"]))
    row = sorted(state["row"])
    takes = {combo for size in range(1, limit + 1) for combo in combinations(row, size)}
    return [list(take) for take in sorted(takes)]


def summary(state: dict) -> dict:
    """Players, round and result, for lists of tables."""
    finished = state["phase"] == "game_over"
    names = [player["name"] for player in state["players"]]
    ranks = state["ranks"] or [0] * len(names)
    winners = [name for name, rank in zip(names, ranks, strict=True) if rank == 1]
    return {
        "players": names,
        "round": state["round"],
        "rounds": cards.ROUNDS,
        "phase": state["phase"],
        "finished": finished,
        "winners": winners,
        "totals": list(state["totals"]),
    }
