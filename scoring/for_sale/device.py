"""What the table box shows for a For Sale state (docs/games/for_sale.md "LEDs").

Round pixels: the phase (round 1 of 2 = buying, 2 of 2 = selling; 0 before the start).
Police pixels: progress through the phase, 0..6 of a limit of 7: the share of the houses
in play already bought, or of the checks in play already handed out. The limit is never
reached, so the Razzia raid animation (police == limit) never plays.
"""

from scoring.for_sale import selling

PHASES = 2
LIMIT = 7
#: The most pixels progress lights: one below the limit (police == limit is the raid).
FULL = LIMIT - 1
BUYING, SELLING = 1, 2


def device_display(state: dict) -> dict:
    """{"police", "limit", "round", "rounds", "seats"} for the box's LEDs."""
    phase = state["phase"]
    if phase == "start":
        shown, done = 0, 0
    elif phase in ("buying", "auction"):
        shown, done = BUYING, _bought(state)
    else:
        shown, done = SELLING, _handed_out(state)
    return {
        "police": done * FULL // state["in_play"],
        "limit": LIMIT,
        "round": shown,
        "rounds": PHASES,
        "seats": len(state["players"]),
    }


def _bought(state: dict) -> int:
    """Houses turned over in buying rounds that are over (the running round not yet)."""
    running = len(state["houses_seen"])
    if state["phase"] == "auction":
        running -= state["auction"]["houses"]
    return running


def _handed_out(state: dict) -> int:
    """Checks already in players' hands (those on the table during a reveal not yet)."""
    return state["in_play"] - selling.checks_left(state) - len(state["checks_up"])
