"""A turn's secret choices: locations, then action cards, each revealed together (RULES.md §4)."""

from scoring.adel_verpflichtet import cards, places, resolve
from scoring.adel_verpflichtet.table import CONFLICT
from scoring.errors import N_, IllegalMove, collect, raise_all


def conflict_place(turn: int) -> str:
    """Conflict of interest: odd turns at the auction house, even turns at the castle."""
    return cards.AUCTION if turn % 2 else cards.CASTLE


def allowed_cards(state: dict, seat: int, place: str) -> list[dict]:
    """The action cards `seat` may play at `place`: what they still hold and what fits there."""
    player = state["players"][seat]
    thieves = [{"card": cards.THIEF, "value": number} for number in player["thieves"]]
    if place == cards.AUCTION:
        checks = [{"card": cards.CHECK, "value": value} for value in player["checks"]]
        found = checks + thieves
        return found or [{"card": cards.NOTHING}]
    exhibit = [{"card": cards.EXHIBIT}] if can_exhibit(state, player) else []
    return exhibit + thieves + [{"card": cards.DETECTIVE}]


def can_exhibit(state: dict, player: dict) -> bool:
    """Whether a player may play "exhibit": a valid exhibition in their tracked hand, or (hands
    left to the players) at least 3 cards in hand, as the app cannot see which."""
    if state.get("tracked", True):
        return bool(cards.best_from_hand(player["hand"]))
    return places.held(player) >= cards.MIN_EXHIBITION


def read_places(state: dict, places: object) -> list[str]:
    """One location per seat, auction or castle."""
    count = len(state["players"])
    if not isinstance(places, list) or len(places) != count:
        raise IllegalMove(
            N_("Enter the location of each of the {count} players: auction house or castle."),
            count=count,
        )
    raise_all(
        [
            IllegalMove(
                N_("Enter where {name} goes: the auction house or the castle."),
                name=state["players"][seat]["name"],
            )
            for seat, place in enumerate(places)
            if place not in cards.PLACES
        ]
    )
    return list(places)


def read_actions(state: dict, places: list[str], played: object) -> list[dict]:
    """One action card per seat, each one the player holds and may play at their location.

    Every seat's card is checked, so one refusal names each player whose card is wrong; a
    seat whose location was refused (not a place) is left to that refusal.
    """
    players = state["players"]
    if not isinstance(played, list) or len(played) != len(players):
        raise IllegalMove(
            N_("Enter the action card of each of the {count} players."), count=len(players)
        )
    raise_all(
        [
            IllegalMove(
                card_refusal(state, seat, places[seat], action), **refusal_params(state, seat)
            )
            for seat, action in enumerate(played)
            if places[seat] in cards.PLACES
            and (
                not _plain_action(action) or action not in allowed_cards(state, seat, places[seat])
            )
        ]
    )
    return [dict(action) for action in played]


def _plain_action(action: object) -> bool:
    """An action entry of the right shape: a card name and, for a check or thief, a number."""
    return (
        isinstance(action, dict)
        and set(action) <= {"card", "value"}
        and type(action.get("value", 0)) is int
    )


def refusal_params(state: dict, seat: int) -> dict:
    """The names a refused action's message fills in."""
    player = state["players"][seat]
    return {
        "name": player["name"],
        "checks": ", ".join(str(value) for value in player["checks"]) or "-",
        "thieves": ", ".join(str(number) for number in player["thieves"]) or "-",
    }


def card_refusal(state: dict, seat: int, place: str, action: object) -> str:
    """Why `action` is not a card `seat` may play at `place`, in the table's words."""
    kind = action.get("card") if isinstance(action, dict) else None
    if kind == cards.CHECK and place == cards.AUCTION:
        return N_("{name} does not hold that check; {name} holds checks {checks}.")
    if kind == cards.THIEF:
        return N_(
            "{name} does not have that thief at hand (in prison or not theirs); free: {thieves}."
        )
    if kind == cards.EXHIBIT and place == cards.CASTLE:
        if not state.get("tracked", True):
            return N_("{name} holds fewer than 3 cards: an exhibition needs 3 or more.")
        return N_("{name} holds no valid exhibition (3 or more cards of consecutive letters).")
    if kind == cards.NOTHING:
        return N_("{name} still has an action card to play.")
    if kind in (cards.CHECK, cards.DETECTIVE, cards.EXHIBIT):
        return N_(
            "{name} cannot play that card there: checks and thieves go to the auction "
            "house; exhibit, thieves and the detective to the castle."
        )
    return N_("{name}'s action card is not one of: a check, a thief, the detective, exhibit.")


def locations(state: dict, move: dict) -> None:
    """Everyone's location, revealed; next everyone chooses an action card."""
    state["places"] = read_places(state, move.get("places"))
    state["phase"] = "action"


def actions(state: dict, move: dict) -> None:
    """Everyone's action card, revealed; the turn resolves (auction house first)."""
    if state["variant"] == CONFLICT:
        state["places"] = [conflict_place(state["turn"])] * len(state["players"])
    state["played"] = read_actions(state, state["places"], move.get("actions"))
    resolve.start(state)


def choices(state: dict, move: dict) -> None:
    """Surprise variant: location and action card chosen at once, one reveal.

    Locations and cards are checked together, so every refusal shows at once.
    """
    refusals: list = []
    places = move.get("places")
    collect(refusals, read_places, state, places)
    if isinstance(places, list) and len(places) == len(state["players"]):
        played = collect(refusals, read_actions, state, places, move.get("actions"))
    raise_all(refusals)
    state["played"] = played
    state["places"] = list(places)
    resolve.start(state)
