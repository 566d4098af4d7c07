"""Read-only views of a For Sale state: actions, legal moves, summary, standings, reveal seats."""

from scoring.for_sale import buying, cards, selling

#: Candidate house and check entries tried by `legal_moves` (the full choice is too large).
_SAMPLES = 4


def actions(state: dict) -> dict:
    """What the table may do now, for the UI (the rules decide, the UI shows)."""
    phase = state["phase"]
    result: dict = {"phase": phase, "actor": None}
    if phase == "start":
        result["seats"] = list(range(len(state["players"])))
    elif phase == "buying":
        result.update(
            count=buying.houses_due(state), houses=unseen_houses(state), leader=state["leader"]
        )
    elif phase == "auction":
        seat = state["auction"]["turn"]
        player = state["players"][seat]
        high = state["auction"]["high"]
        low = 0 if high is None else high + 1
        top = player["bid"] + player["coins"]
        can_bid = player["coins"] > 0 and low <= top
        result.update(
            actor=seat,
            min_bid=low if can_bid else None,
            max_bid=top if can_bid else None,
            can_pass=True,
            high=high,
        )
    elif phase == "selling":
        result.update(
            count=selling.checks_due(state),
            checks=unseen_checks(state),
            sellers=selling.holders(state),
        )
    elif phase == "reveal":
        result.update(
            sellers=reveal_seats(state),
            hands=[list(player["houses"]) for player in state["players"]],
        )
    return result


def reveal_seats(state: dict) -> list[int]:
    """Seats that must choose a house at the same time now (empty when no choice is pending)."""
    return selling.holders(state) if state["phase"] == "reveal" else []


def unseen_houses(state: dict) -> list[int]:
    """House numbers not turned over yet (some may be out of the game unseen)."""
    seen = set(state["houses_seen"])
    return [house for house in cards.HOUSES if house not in seen]


def unseen_checks(state: dict) -> list[int]:
    """Check values of which a copy has not been turned over yet."""
    seen = state["checks_seen"]
    return [value for value in cards.CHECK_VALUES if seen.count(value) < cards.COPIES_PER_CHECK]


def legal_moves(state: dict) -> list[dict]:
    """Legal moves; bids and passes in full, house/check/sale entries sampled (for tests)."""
    options = actions(state)
    phase = options["phase"]
    if phase == "start":
        return [{"type": "start", "seat": seat} for seat in options["seats"]]
    if phase == "buying":
        return [
            {"type": "houses", "houses": pick}
            for pick in _windows(options["houses"], options["count"])
        ]
    if phase == "auction":
        seat = options["actor"]
        moves = [{"type": "pass", "seat": seat}]
        if options["min_bid"] is not None:
            moves += [
                {"type": "bid", "seat": seat, "coins": coins}
                for coins in range(options["min_bid"], options["max_bid"] + 1)
            ]
        return moves
    if phase == "selling":
        return [{"type": "checks", "checks": pick} for pick in _check_windows(state, options)]
    if phase == "reveal":
        return [{"type": "sell", "houses": pick} for pick in _sales(state)]
    return []


def _windows(values: list[int], count: int) -> list[list[int]]:
    """A few runs of `count` consecutive entries of `values` (from the low and high ends)."""
    starts = sorted({0, len(values) - count, (len(values) - count) // 2})
    return [values[start : start + count] for start in starts[:_SAMPLES] if start >= 0]


def _check_windows(state: dict, options: dict) -> list[list[int]]:
    """A few legal check entries: the lowest, highest and a middle run of the copies left."""
    seen = state["checks_seen"]
    copies = [
        value
        for value in cards.CHECK_VALUES
        for _ in range(cards.COPIES_PER_CHECK - seen.count(value))
    ]
    return _windows(copies, options["count"])


def _sales(state: dict) -> list[list[int | None]]:
    """A few legal sales: everyone's lowest, everyone's highest, and mixed."""
    hands = [player["houses"] for player in state["players"]]
    picks = [
        [hand[0] if hand else None for hand in hands],
        [hand[-1] if hand else None for hand in hands],
        [(hand[0] if seat % 2 else hand[-1]) if hand else None for seat, hand in enumerate(hands)],
    ]
    unique: list[list[int | None]] = []
    for pick in picks:
        if pick not in unique:
            unique.append(pick)
    return unique


def money_of(state: dict) -> list[int]:
    """Each player's money now: checks plus coins (a running bid still counts as coins)."""
    return [selling.money(player) for player in state["players"]]


def summary(state: dict) -> dict:
    """Players, phase and round, money and winners, for lists of tables."""
    names = [player["name"] for player in state["players"]]
    ranks = state["ranks"] or [0] * len(names)
    return {
        "players": names,
        "phase": state["phase"],
        "round": round_in_play(state),
        "rounds": _phase_rounds(state),
        "finished": state["phase"] == "game_over",
        "winners": [name for name, rank in zip(names, ranks, strict=True) if rank == 1],
        "totals": money_of(state),
    }


def round_in_play(state: dict) -> int:
    """The round of the current phase being played, counting the one whose cards are due next.

    The counters go up when a round's cards are turned over, so while the table is turning
    them over the round about to be played is one more ("Selling round 1/7", never 0/7).
    """
    played = state["selling_round"] if _selling(state) else state["buying_round"]
    waiting_for_cards = state["phase"] in ("buying", "selling")
    return min(played + 1, _phase_rounds(state)) if waiting_for_cards else played


def _selling(state: dict) -> bool:
    """True once the buying phase is over."""
    return state["phase"] in ("selling", "reveal", "game_over")


def _phase_rounds(state: dict) -> int:
    """Rounds of the current phase: ceil(cards in play / cards per round) when buying.

    Selling rounds equal buying rounds in the normal game; in the variant they depend on
    who runs out of houses, so the count is an estimate that grows with the rounds played.
    """
    if _selling(state):
        estimate = -(-state["in_play"] // len(state["players"]))
        return max(estimate, state["selling_round"])
    per_round = cards.houses_per_round(len(state["players"]), state["variant"])
    return -(-state["in_play"] // per_round)


def live_standings(state: dict) -> list[dict]:
    """Per player: money from checks and from coins if the game ended now."""
    if state["phase"] == "start":
        return []
    return [
        {
            "name": player["name"],
            "points": {
                "checks": sum(player["checks"]),
                "coins": (player["coins"] + player["bid"]) * cards.COIN_VALUE,
            },
            "total": selling.money(player),
        }
        for player in state["players"]
    ]
