"""Read-only views of a Klub ztroskotanců state: actions, standings, summary, box, results."""

from scoring.errors import IllegalMove
from scoring.prodigals_club import chart, standings
from scoring.prodigals_club.board import ELECTION, LEGACY, PROPERTY, ROUNDS, SOCIETY
from scoring.prodigals_club.rounds import hyde_park_column
from scoring.prodigals_club.scores import all_scores

#: The steps of a round in order; the box shows the current one on its police pixels.
ROUND_STEPS = ("play", "hyde_park", "old_lady", "round_end")
#: Police pixels lit per step stay below this limit, so the raid animation never plays.
STEP_LIMIT = len(ROUND_STEPS) + 1
#: What breaks a tie of final scores (RULES.md §5 "End of game"): the second-highest
#: competition score, then (with three competitions) the third-highest; lower wins.
TIEBREAKS = ("second_highest", "third_highest")


def actions(state: dict) -> dict:
    """What may be entered now, for the UI (the rules decide, the UI shows)."""
    phase = state["phase"]
    playing = state["competitions"]
    result: dict = {"phase": phase, "actor": None, "sitting_out": []}
    if phase == "order":
        result["order"] = True
    elif phase == "play":
        # With Legacy the Last Will rules set the turn order: no reservations (seed).
        reserving = LEGACY not in playing
        result.update(
            property=PROPERTY in playing,
            legacy=LEGACY in playing,
            votes=ELECTION in playing,
            society=SOCIETY in playing,
            places=[place + 1 for place, seat in enumerate(state["reserved"]) if seat is None]
            if reserving
            else [],
            reserving=[
                seat for seat in range(len(state["players"])) if seat not in state["reserved"]
            ]
            if reserving
            else [],
            end_actions=True,
        )
    elif phase == "hyde_park":
        result["hyde_park"] = hyde_park_column(state)
    elif phase == "old_lady":
        result.update(society=True, old_lady=True)
    elif phase == "round_end":
        result["end_round"] = True
    return result


def legal_moves(state: dict) -> list[dict]:
    """A sample of legal moves: one of each kind of entry per player (amounts are open)."""
    options = actions(state)
    phase, seats = state["phase"], range(len(state["players"]))
    if phase == "order":
        return [{"type": "order", "order": list(seats)}]
    if phase == "hyde_park":
        return [{"type": "hyde_park", "megaphones": [seat % 3 for seat in seats]}]
    if phase == "old_lady":
        return [{"type": "old_lady", "exempt": []}, *_society_moves(state)]
    if phase == "round_end":
        return [{"type": "end_round"}]
    if phase != "play":
        return []
    moves: list[dict] = [{"type": "end_actions"}]
    if options["property"]:
        moves += _property_moves(state)
    if options["legacy"]:
        moves += _legacy_moves(state)
    if options["votes"]:
        moves += [
            {"type": "votes", "seat": seat, "delta": delta} for seat in seats for delta in (-2, 1)
        ]
    if options["society"]:
        moves += _society_moves(state)
    moves += [
        {"type": "reserve", "seat": seat, "place": place}
        for seat in options["reserving"]
        for place in options["places"]
    ]
    return moves


def _property_moves(state: dict) -> list[dict]:
    """Sell each owned tile, spend £1, receive £1 (and the starting tiles when none)."""
    moves = []
    for seat, player in enumerate(state["players"]):
        moves.append({"type": "property", "seat": seat, "action": "spend", "amount": 1})
        moves.append({"type": "property", "seat": seat, "action": "receive", "amount": 1})
        moves += [
            {"type": "property", "seat": seat, "action": "sell", "tile": dict(owned)}
            for owned in player["tiles"]
        ]
    return moves


def _legacy_moves(state: dict) -> list[dict]:
    """Spend and receive £1, buy a £5 property, revalue or remove each one owned."""
    moves = []
    for seat, player in enumerate(state["players"]):
        base = {"type": "legacy", "seat": seat}
        moves.append({**base, "action": "spend", "amount": 1})
        moves.append({**base, "action": "receive", "amount": 1})
        moves.append({**base, "action": "add", "label": "", "value": 5})
        for item in player["legacy"]["properties"]:
            value = max(item["value"] - 1, 0)
            moves.append({**base, "action": "value", "property": item["id"], "value": value})
            moves.append({**base, "action": "remove", "property": item["id"]})
    return moves


def _society_moves(state: dict) -> list[dict]:
    """A token lowered by 1 and a sum entry for each player."""
    moves = []
    for seat, player in enumerate(state["players"]):
        tokens = list(player["tokens"] or [player["society"], 0, 0, 0])
        tokens[0] -= 1
        moves.append({"type": "society", "seat": seat, "tokens": tokens})
        moves.append({"type": "society", "seat": seat, "sum": player["society"] + 1})
    return moves + _token_moves(state)


def _token_moves(state: dict) -> list[dict]:
    """Every token step that stays on the chart and lands on a free space."""
    board = state["board"].get("society_chart")
    moves = []
    for seat, player in enumerate(state["players"]):
        for index in range(len(player.get("spaces") or []) if board else 0):
            for direction in chart.DIRECTIONS:
                try:
                    chart.stepped(board, player["spaces"], index, direction)
                except IllegalMove:
                    continue
                moves.append(
                    {"type": "token", "seat": seat, "token": index, "direction": direction}
                )
    return moves


def live_standings(state: dict) -> list[dict]:
    """Per player: the tracks now, and the final score and rank if the game ended now."""
    if state["phase"] == "order":
        return []
    now = all_scores(state, game_end=False)
    lists = [list(entry.values()) for entry in all_scores(state, game_end=True)]
    ranks = standings.ranks(lists)
    return [
        {
            "seat": seat,
            "name": player["name"],
            "scores": now[seat],
            "final": standings.final_score(lists[seat]),
            "rank": ranks[seat],
        }
        for seat, player in enumerate(state["players"])
    ]


def summary(state: dict) -> dict:
    """Players, round and result, for lists of tables."""
    names = [player["name"] for player in state["players"]]
    ranks = state["ranks"] or [0] * len(names)
    lists = [list(entry.values()) for entry in all_scores(state, game_end=True)]
    return {
        "players": names,
        "round": state["round"],
        "rounds": ROUNDS,
        "phase": state["phase"],
        "finished": state["phase"] == "game_over",
        "winners": [name for name, rank in zip(names, ranks, strict=True) if rank == 1],
        "totals": [standings.final_score(scores) for scores in lists],
    }


def device_display(state: dict) -> dict:
    """Round of 5 on the round pixels; the step within the round on the police pixels."""
    phase = state["phase"]
    started = phase != "order"
    step = ROUND_STEPS.index(phase) + 1 if phase in ROUND_STEPS else 0
    return {
        "police": step,
        "limit": STEP_LIMIT,
        "round": state["round"] if started else 0,
        "rounds": ROUNDS,
        "seats": len(state["players"]),
    }


def results(state: dict) -> dict:
    """The final standings in the shape every game shares (docs/game-contract.md)."""
    finished = state["phase"] == "game_over"
    scores = all_scores(state, game_end=True)
    lists = [list(entry.values()) for entry in scores]
    ranks = state["ranks"] or standings.ranks(lists)
    first = start_player(state)
    return {
        "finished": finished,
        "highest_wins": False,
        "players": [
            {
                "seat": seat,
                "name": player["name"],
                "score": standings.final_score(lists[seat]),
                "rank": ranks[seat],
                "winner": finished and ranks[seat] == 1,
                "start_player": seat == first,
                "breakdown": scores[seat],
                "tiebreak": list(standings.tie_key(lists[seat])[1:]),
            }
            for seat, player in enumerate(state["players"])
        ],
        "categories": list(state["competitions"]),
        "tiebreaks": list(TIEBREAKS[: len(state["competitions"]) - 1]),
        "rounds": [
            {"round": entry["round"], "breakdown": entry["scores"], "cumulative": entry["final"]}
            for entry in state["rounds"]
        ],
    }


def start_player(state: dict) -> int | None:
    """The seat that started round 1 (None before the turn order), not this round's first.

    States stored before `start_player` was kept give it from the handicaps: round 1's first
    player got one more than anyone else (RULES.md §5 "Handicaps at setup"). With Legacy
    nobody gets any, so such a state names round 1's order only while it is still round 1.
    """
    if "start_player" in state:
        return state["start_player"]
    if not state["order"]:
        return None
    handicaps = state["handicaps"] or []
    totals = [sum(given.values()) for given in handicaps]
    if totals and max(totals) > 0:
        return totals.index(max(totals))
    return state["order"][0] if state["round"] == 1 else None
