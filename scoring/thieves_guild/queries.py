"""Read-only views of a Cech zlodějů state: actions, legal moves, summary, standings."""

from scoring.thieves_guild import seats, turn
from scoring.thieves_guild.table import CARDS_IN_BOX, GOLD_IN_BOX


def actions(state: dict) -> dict:
    """What the table may do now, for the UI (the rules decide, the UI shows)."""
    phase = state["phase"]
    count = len(state["players"])
    result: dict = {"phase": phase, "actor": state["turn"] if phase != "game_over" else None}
    if phase == "start":
        result["seats"] = list(range(count))
    if phase == "buy":
        refusal = turn.buy_refusal(state)
        result.update(
            cost=turn.next_cost(state),
            can_buy=refusal is None,
            buy_refusal=refusal,
            rolls=list(seats.DIE),
        )
    if phase == "reaction":
        result["rolls"] = [roll for roll in seats.DIE if _target_ok(count, roll)]
    if phase in ("aim", "robbery"):
        result["candidates"] = seats.candidates(count, state["turn"], state["target"])
    if phase == "robbery":
        result["victim"] = turn.victim(state)
    if phase in turn.STOPPABLE:
        result["cards_played"] = state.get("cards_played", 0)
    if phase in turn.CARD_PHASES:
        result["card_players"] = [s for s, p in enumerate(state["players"]) if p["cards"]]
        result["roll_change"] = {"reaction": "loot", "robbery": "target"}.get(phase)
    if phase == "ending":
        result["broke"] = turn.broke(state)
    return result


def _target_ok(count: int, roll: int) -> bool:
    """True when `roll` may be entered as the target roll at this player count."""
    return not (count == seats.FIVE and roll == seats.REROLLED_WITH_FIVE)


def legal_moves(state: dict) -> list[dict]:
    """Legal moves (card effects sampled: one gold to the bank, one a player, a die changed)."""
    options = actions(state)
    phase = options["phase"]
    if phase == "start":
        return [{"type": "start", "seat": seat} for seat in options["seats"]]
    moves: list[dict] = []
    if phase == "buy":
        moves = [{"type": "loot", "roll": roll} for roll in options["rolls"]]
        if options["can_buy"]:
            moves.append({"type": "buy"})
    elif phase == "reaction":
        moves = [{"type": "target", "roll": roll} for roll in options["rolls"]]
    elif phase == "aim":
        moves = [{"type": "aim", "direction": side} for side in seats.DIRECTIONS]
    elif phase == "robbery":
        moves = [{"type": "rob"}]
    elif phase == "ending":
        moves = [{"type": "settle"}]
    if phase in turn.STOPPABLE:
        moves.append(_end_turn(state))
    if phase in turn.CARD_PHASES:
        moves += _card_samples(state, options)
    return moves


def _end_turn(state: dict) -> dict:
    """Ending the turn: after a card recorded this turn, or with the table's word that none was."""
    if state.get("cards_played"):
        return {"type": "end_turn"}
    return {"type": "end_turn", "no_card": True}


def _card_samples(state: dict, options: dict) -> list[dict]:
    """A few cards the first card holder might play: gold to the bank or a neighbour, a die."""
    if not options["card_players"]:
        return []
    seat = options["card_players"][0]
    other = (seat + 1) % len(state["players"])
    moves = [{"type": "card", "seat": seat, "card": "Alarm"}]
    if options["phase"] in turn.STOPPABLE:
        moves.append({"type": "card", "seat": seat, "card": "Alarm", "stop": True})
    if state["players"][seat]["gold"] > 1:  # never the player's own last gold (seed)
        moves.append(
            {
                "type": "card",
                "seat": seat,
                "card": "Trezor",
                "transfers": [{"from": seat, "to": "bank", "gold": 1}],
            }
        )
    if state["players"][other]["gold"]:
        moves.append(
            {
                "type": "card",
                "seat": seat,
                "card": "Drzost",
                "transfers": [{"from": other, "to": seat, "gold": 1}],
            }
        )
    if options["roll_change"]:
        moves.append({"type": "card", "seat": seat, "card": "Špatná informace", "roll": 1})
    return moves


def gold_of(state: dict) -> list[int]:
    """Each player's gold now."""
    return [player["gold"] for player in state["players"]]


def lap(state: dict) -> int:
    """Which time round the table play is in (0 before the first turn)."""
    return 0 if state["turn_no"] == 0 else (state["turn_no"] - 1) // len(state["players"]) + 1


def summary(state: dict) -> dict:
    """Players, phase and round, gold and winners, for lists of tables.

    The game has no fixed number of rounds (it ends suddenly), so `rounds` is the round
    play has reached.
    """
    names = [player["name"] for player in state["players"]]
    ranks = state["ranks"] or [0] * len(names)
    return {
        "players": names,
        "phase": shown_phase(state),
        "round": lap(state),
        "rounds": max(lap(state), 1),
        "finished": state["phase"] == "game_over",
        "winners": [name for name, rank in zip(names, ranks, strict=True) if rank == 1],
        "totals": gold_of(state),
    }


#: The sudden end once a reaction gave everyone gold again: only "settle" (go on) is left.
RESUMED = "resumed"


def shown_phase(state: dict) -> str:
    """The phase as the table sees it: "ending" turns "resumed" once nobody is at 0 gold."""
    if state["phase"] == "ending" and not turn.broke(state):
        return RESUMED
    return state["phase"]


def live_standings(state: dict) -> list[dict]:
    """Per player: gold (and cards, the tie-break) if the game ended now."""
    if state["phase"] == "start":
        return []
    return [
        {"name": player["name"], "points": {"gold": player["gold"]}, "total": player["gold"]}
        for player in state["players"]
    ]


def gold_total(state: dict) -> int:
    """Players + bank + the box's unused supply: always 120."""
    return sum(gold_of(state)) + state["bank"] + state["supply"]


def ledger_ok(state: dict) -> bool:
    """True when gold and cards are all accounted for (RULES.md §3 "Material")."""
    cards = sum(player["cards"] for player in state["players"]) + state["deck"] + state["discard"]
    return gold_total(state) == GOLD_IN_BOX and cards == CARDS_IN_BOX
