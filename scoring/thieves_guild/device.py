"""What the table box shows for a Cech zlodějů state (docs/games/thieves_guild.md "The box").

Police pixels: the loot roll of the running turn (1-6 of a limit of 7, 0 before it is
rolled), so everyone sees how much is at stake; the limit is never reached, so the Razzia
raid animation never plays. Round pixels: the step of the turn (1 buying, 2 loot rolled,
3 target rolled, 4 the sudden end). Seats: the players at the table, at most the box's 6.
"""

LIMIT = 7
STEPS = 4
BOX_SEATS = 6
STEP_OF_PHASE = {
    "start": 0,
    "buy": 1,
    "reaction": 2,
    "aim": 3,
    "robbery": 3,
    "ending": 4,
    "game_over": 4,
}


def device_display(state: dict) -> dict:
    """{"police", "limit", "round", "rounds", "seats"} for the box's LEDs."""
    return {
        "police": state["loot"] or 0,
        "limit": LIMIT,
        "round": STEP_OF_PHASE[state["phase"]],
        "rounds": STEPS,
        "seats": min(len(state["players"]), BOX_SEATS),
    }
