"""What the table box shows for an Adel Verpflichtet state (docs/games/adel_verpflichtet.md).

Round pixels: the step of the turn (1 location, 2 action card, 3 resolving; 4 the final
exhibition; 0 never, a table starts at its first secret choice). Police pixels: how far the
leading pawn is along the track to the banquet table, 0..6 of a limit of 7. The limit is never
reached, so the Razzia raid animation (police == limit) never plays.
"""

LIMIT = 7
#: The most pixels the track progress lights: one below the limit (police == limit is the raid).
FULL = LIMIT - 1
STEPS = 4
#: The round pixel lit in each phase.
STEP_OF_PHASE = {
    "location": 1,
    "choose": 2,
    "action": 2,
    "buy": 3,
    "exhibit": 3,
    "steal": 3,
    "review": 3,
    "final": 4,
    "game_over": 4,
}


def device_display(state: dict) -> dict:
    """{"police", "limit", "round", "rounds", "seats"} for the box's LEDs."""
    leader = max(player["position"] for player in state["players"])
    return {
        "police": min(FULL, leader * FULL // state["banquet"]),
        "limit": LIMIT,
        "round": STEP_OF_PHASE[state["phase"]],
        "rounds": STEPS,
        "seats": len(state["players"]),
    }
