"""Phase 1, buying houses with coins (RULES.md §2 "Phase 1, buying")."""

from scoring.errors import N_, IllegalMove, at_field, raise_all
from scoring.for_sale import cards


def houses_left(state: dict) -> int:
    """Houses in play that have not been turned over yet."""
    return state["in_play"] - len(state["houses_seen"])


def houses_due(state: dict) -> int:
    """How many houses the next buying round turns over (fewer only in the last round)."""
    per_round = cards.houses_per_round(len(state["players"]), state["variant"])
    return min(per_round, houses_left(state))


def validate_cards(cards_given: object, due: int, message: str, field: str) -> list[int]:
    """A list of `due` whole numbers, or IllegalMove with `message` (how many are expected)."""
    if (
        not isinstance(cards_given, list)
        or len(cards_given) != due
        or not all(type(card) is int for card in cards_given)
    ):
        raise at_field(IllegalMove(message, count=due), field)
    return cards_given


def turn_over(state: dict, houses: object) -> None:
    """Start a buying round with the houses turned over; the round's leader bids first."""
    due = houses_due(state)
    message = N_("Enter the {count} houses turned over.")
    numbers = validate_cards(houses, due, message, field="houses")
    raise_all([at_field(refused, "houses") for refused in _house_refusals(state, numbers)])
    state["houses_seen"] = [*state["houses_seen"], *numbers]
    state["offer"] = sorted(numbers)
    state["buying_round"] += 1
    state["phase"] = "auction"
    seats = len(state["players"])
    leader = state["leader"]
    state["auction"] = {
        "active": [(leader + step) % seats for step in range(seats)],
        "turn": leader,
        "high": None,
        "houses": due,
        "passes": 0,
    }


def _house_refusals(state: dict, numbers: list[int]) -> list[IllegalMove]:
    """Every house entered that is not in the game or already turned over, each named once."""
    refusals, named = [], set()
    for number in numbers:
        if number in named:
            continue
        named.add(number)
        if number not in cards.HOUSES:
            refusals.append(
                IllegalMove(N_("There is no house {number}; houses are 1 to 30."), number=number)
            )
        elif number in state["houses_seen"] or numbers.count(number) > 1:
            refusals.append(
                IllegalMove(
                    N_("House {number} has already been turned over; each house exists once."),
                    number=number,
                )
            )
    return refusals


def bid(state: dict, seat: int, total: object) -> None:
    """`seat` raises their stack to `total` coins, more than the highest bid so far."""
    auction = state["auction"]
    player = state["players"][seat]
    if type(total) is not int or total < 0:
        raise IllegalMove(N_("A bid is a whole number of coins, 0 or more."))
    high = auction["high"]
    if player["coins"] == 0:
        raise IllegalMove(N_("{name} has no coins left and must pass."), name=player["name"])
    if high is not None and total <= high:
        raise IllegalMove(
            N_("A bid must be higher than the highest bid of {high} coins."), high=high
        )
    if total - player["bid"] > player["coins"]:
        # Not how many they hold: coins may be held secretly (RULES.md §2), and the
        # refusal stands on the shared screen.
        raise IllegalMove(
            N_("{name} cannot bid {total} coins: not enough coins besides the bid."),
            name=player["name"],
            total=total,
        )
    player["coins"] -= total - player["bid"]
    player["bid"] = total
    auction["high"] = total
    auction["turn"] = _next_bidder(auction, seat)


def pass_gets(state: dict) -> dict:
    """What the bidder to act gets by passing now: `house` (None: no house), coins `back` and
    the `bid` they pass with.

    The lowest house and half the bid (RULES.md §2 "Pass"); in the variant the first passers
    get no house and all their coins back. A player who has not bid (`bid` 0) pays nothing;
    one who has bid gets half back even when they pass for lack of money to raise (RULES.md
    §2, the seed's "pays nothing" sentence as decided).
    """
    auction = state["auction"]
    bid_now = state["players"][auction["turn"]]["bid"]
    if auction["passes"] < houseless_passes(state):
        return {"house": None, "back": bid_now, "bid": bid_now}
    back = cards.refund(bid_now, state["refund"])
    return {"house": state["offer"][0], "back": back, "bid": bid_now}


def pass_(state: dict, seat: int) -> None:
    """`seat` (the bidder to act) passes and gets what `pass_gets` says."""
    auction = state["auction"]
    player = state["players"][seat]
    gets = pass_gets(state)
    _spend(state, player, player["bid"] - gets["back"])
    player["coins"] += gets["back"]
    if gets["house"] is not None:
        _take(player, state["offer"].pop(0))
    player["bid"] = 0
    auction["passes"] += 1
    following = _next_bidder(auction, seat)
    auction["active"] = [other for other in auction["active"] if other != seat]
    auction["turn"] = following
    if len(auction["active"]) == 1:
        _last_buys(state, auction["active"][0])


def houseless_passes(state: dict) -> int:
    """How many of the first passers this round get no house (and all their coins back).

    One in the variant (RULES.md §2 variant: "the first player to pass takes back all
    their coins and gets no house"); none in the normal game. When the variant's last round
    turns over fewer houses, the rule is read as "one house short per passer without one".
    """
    return len(state["players"]) - state["auction"]["houses"]


def _last_buys(state: dict, seat: int) -> None:
    """The last player left pays the whole bid and takes the highest house; they lead next."""
    player = state["players"][seat]
    _spend(state, player, player["bid"])
    player["bid"] = 0
    _take(player, state["offer"].pop())
    state["offer"] = []
    state["auction"] = None
    state["leader"] = seat
    state["phase"] = "buying" if houses_left(state) else "selling"


def _take(player: dict, house: int) -> None:
    """Put a house in the player's hand (kept sorted)."""
    player["houses"] = sorted([*player["houses"], house])


def _spend(state: dict, player: dict, coins: int) -> None:
    """Coins of the player's bid leave the game."""
    player["spent"] += coins
    state["coins_out"] += coins


def _next_bidder(auction: dict, seat: int) -> int:
    """The next seat still in the auction after `seat`, clockwise."""
    active = auction["active"]
    return active[(active.index(seat) + 1) % len(active)]
