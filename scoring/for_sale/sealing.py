"""For Sale's sealed choice: the house each seller lays face down to sell (RULES.md §2)."""

from scoring.for_sale import selling


def sealed_options(state: dict, seat: int) -> list[int]:
    """The houses `seat` may lay face down now (its hand, lowest first)."""
    if state["phase"] != "reveal" or seat not in selling.holders(state):
        return []
    return sorted(state["players"][seat]["houses"])


def sealed_move(state: dict, choices: dict[int, object]) -> dict:
    """The sale every seller's sealed house makes (null for a seat without houses)."""
    return {"type": "sell", "houses": [choices.get(seat) for seat in range(len(state["players"]))]}
