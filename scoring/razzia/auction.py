"""Razzia! auctions: regular (police, 7th loot) and forced (RULES.md §1 "Auction")."""

from scoring.errors import N_, IllegalMove
from scoring.razzia import rounds
from scoring.razzia.text import money

REGULAR_REASONS = ("police", "seventh_loot")


def start(state: dict, trigger: int, reason: str) -> None:
    """Open an auction: once around from the trigger's left, the trigger bidding last."""
    count = len(state["players"])
    seats = [(trigger + step) % count for step in range(1, count + 1)]
    state["auction"] = {
        "reason": reason,
        "trigger": trigger,
        # Players without face-up checks sit the auction out.
        "order": [seat for seat in seats if state["players"][seat]["up"]],
        "next": 0,
        "high": None,
        "bids": [],
    }
    state["phase"] = "auction"
    state["turn"] = trigger


def next_bidder(state: dict) -> int:
    """The seat that must bid or pass now."""
    running = state["auction"]
    return running["order"][running["next"]]


def must_bid(state: dict, seat: int) -> bool:
    """True when `seat` called a forced auction and nobody has bid."""
    running = state["auction"]
    return running["reason"] == "forced" and seat == running["trigger"] and running["high"] is None


def legal_bids(state: dict, seat: int) -> list[int]:
    """The face-up checks `seat` may offer: only higher than the current high bid."""
    high = state["auction"]["high"]
    floor = high["check"] if high else 0
    return [check for check in state["players"][seat]["up"] if check > floor]


def bid(state: dict, seat: int, check: object) -> None:
    """Record a bid of a face-up check that beats the current high bid."""
    player = state["players"][seat]
    if isinstance(check, bool) or not isinstance(check, int):
        raise IllegalMove(N_("A bid must name the value of one of your checks."))
    if check not in player["up"]:
        if check in player["down"]:
            raise IllegalMove(
                N_("{name}'s {check} check is face down: it can be used only next round."),
                name=player["name"],
                check=money(check),
            )
        raise IllegalMove(
            N_("{name} holds no face-up {check} check (face up: {held})."),
            name=player["name"],
            check=money(check),
            held=", ".join(money(value) for value in player["up"]),
        )
    high = state["auction"]["high"]
    if high and check <= high["check"]:
        raise IllegalMove(
            N_("A bid must beat the current {high} check; {check} is not higher."),
            high=money(high["check"]),
            check=money(check),
        )
    state["auction"]["high"] = {"seat": seat, "check": check}
    _record(state, seat, check)


def pass_(state: dict, seat: int) -> None:
    """Record a pass; the caller of a forced auction may not pass if nobody bid."""
    if must_bid(state, seat):
        raise IllegalMove(
            N_("Everyone else passed, so {name}, who called the forced auction, must bid."),
            name=state["players"][seat]["name"],
        )
    _record(state, seat, None)


def _record(state: dict, seat: int, check: int | None) -> None:
    """Note the bid or pass and resolve the auction after the last bidder."""
    running = state["auction"]
    running["bids"].append({"seat": seat, "check": check})
    running["next"] += 1
    if running["next"] == len(running["order"]):
        _resolve(state)


def _resolve(state: dict) -> None:
    """The high bidder takes the row and the centre check; play goes on left of the trigger."""
    running = state["auction"]
    high = running["high"]
    if high:
        winner = state["players"][high["seat"]]
        for card in state["row"]:
            rounds.add_to_family(winner, card)
        state["row"] = []
        winner["up"].remove(high["check"])
        winner["down"] = sorted(winner["down"] + [state["centre"]])
        state["centre"] = high["check"]
    elif running["reason"] == "seventh_loot":
        for card in state["row"]:
            state["box"][card] += 1
        state["row"] = []
    state["auction"] = None
    if not any(player["up"] for player in state["players"]):
        rounds.end_round(state, "checks")
        return
    state["phase"] = "turn"
    state["turn"] = rounds.next_active_seat(state, running["trigger"])
