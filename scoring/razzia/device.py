"""What the table box shows for a Razzia! state: police of the limit, round of three, seats.

RULES.md §1 "Round end": a round ends when the 7th police card is placed (the 5th with two
players); 3 rounds. The box mirrors the state (docs/device-api.md), so this is a pure
reading of it: nothing is counted here that the state does not already say.
"""

from scoring.razzia import cards

#: The round shown before the check sets are dealt: no round has started yet.
NOT_STARTED = 0


def device_display(state: dict) -> dict:
    """{"police", "limit", "round", "rounds", "seats"} for the box's LEDs."""
    limit = state["police_limit"]
    started = state["phase"] != "deal"
    return {
        # At a round end by police the row still holds `limit` police (they are boxed only
        # when the next round starts), so the raid stays on the strip until then.
        "police": min(state["police"], limit),
        "limit": limit,
        "round": state["round"] if started else NOT_STARTED,
        "rounds": cards.ROUNDS,
        "seats": len(state["players"]),
    }
