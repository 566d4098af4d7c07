"""Read-only views of an Adel Verpflichtet state: what the table does next, standings, summary."""

from scoring.adel_verpflichtet import cards, castle, ending, resolve, turn
from scoring.adel_verpflichtet.table import CONFLICT

#: Phases in which every player chooses secretly and the box's reveal gates the entry.
CHOOSING = ("location", "action", "choose")


def reveal_seats(state: dict) -> list[int]:
    """Seats that must choose at the same time now: everyone while a choice is secret."""
    return list(range(len(state["players"]))) if state["phase"] in CHOOSING else []


def reveal_step(state: dict) -> list:
    """Which secret choice is pending ([turn, phase]): location and action arm separate reveals."""
    return [state["turn"], state["phase"]] if state["phase"] in CHOOSING else []


def places_now(state: dict) -> list[str] | None:
    """Everyone's location this turn, once known (conflict of interest: fixed by the turn)."""
    if state["variant"] == CONFLICT and state["phase"] == "action":
        return [turn.conflict_place(state["turn"])] * len(state["players"])
    return state["places"]


def actions(state: dict) -> dict:
    """What the table may do now, for the UI (the rules decide, the UI shows)."""
    phase = state["phase"]
    result: dict = {"phase": phase, "turn": state["turn"], "places": places_now(state)}
    if phase == "action":
        places = result["places"]
        result["cards"] = [
            turn.allowed_cards(state, seat, places[seat]) for seat in range(len(places))
        ]
    elif phase == "choose":
        result["cards"] = [
            {place: turn.allowed_cards(state, seat, place) for place in cards.PLACES}
            for seat in range(len(state["players"]))
        ]
    elif phase == "buy":
        seat, value = resolve.buyer(state)
        result.update(buyer=seat, check=value, piles=resolve.open_piles(state))
    elif phase == "exhibit":
        tracked = state.get("tracked", True)
        exhibitors = [s for s, _ in resolve.played_at(state, cards.CASTLE, cards.EXHIBIT)]
        space = resolve.leader_space(state)
        result.update(
            exhibitors=exhibitors,
            proposals={
                s: cards.best_from_hand(state["players"][s]["hand"]) if tracked else []
                for s in exhibitors
            },
            leader_space=space,
            fraction=state["fractions"][space],
        )
    elif phase == "steal":
        number = state["queue"][0]
        owner = next(
            t["owner"] for t in resolve.thieves_at(state, cards.CASTLE) if t["number"] == number
        )
        result.update(thief=number, owner=owner, shows=state["shows"])
    elif phase == "final":
        result["proposals"] = ending.proposals(state)
    return result


def legal_moves(state: dict) -> list[dict]:
    """A few legal moves of the current phase (samples; for tests)."""
    options = actions(state)
    phase = options["phase"]
    count = len(state["players"])
    if phase == "location":
        return [{"type": "locations", "places": [place] * count} for place in cards.PLACES]
    if phase == "action":
        return [{"type": "actions", "actions": [found[0] for found in options["cards"]]}]
    if phase == "choose":
        place = cards.CASTLE
        return [
            {
                "type": "choices",
                "places": [place] * count,
                "actions": [found[place][0] for found in options["cards"]],
            }
        ]
    if phase == "buy":
        # The card that comes up next is the table's to enter: add "next" when a pile goes on.
        return [{"type": "buy", "pile": pile} for pile in options["piles"]]
    if phase == "review":
        return [{"type": "next"}]
    if phase == "final":
        return [{"type": "final", "shows": options["proposals"]}]
    if phase == "exhibit" and not state.get("tracked", True):
        return []  # the hands are the players': only the table knows what can be shown
    if phase == "exhibit":
        shows = [options["proposals"].get(seat) for seat in range(count)]
        fraction = None if options["fraction"] else [2, 1]
        return [{"type": "exhibitions", "shows": shows, "fraction": fraction}]
    if phase == "steal":
        picks = [shown[0] if shown else None for shown in options["shows"]]
        return [{"type": "steal", "thief": options["thief"], "cards": picks}]
    return []


def summary(state: dict) -> dict:
    """Players, phase and turn, positions and winners, for lists of tables."""
    names = [player["name"] for player in state["players"]]
    ranks = state["ranks"] or [0] * len(names)
    return {
        "players": names,
        "phase": state["phase"],
        "round": state["turn"],
        "rounds": None,  # the game has no set number of turns: it ends at the banquet table
        "finished": state["phase"] == "game_over",
        "winners": [name for name, rank in zip(names, ranks, strict=True) if rank == 1],
        "totals": [player["position"] for player in state["players"]],
    }


def live_standings(state: dict) -> list[dict]:
    """Per player: spaces gained by exhibitions, detectives and the final exhibition."""
    return [
        {
            "name": player["name"],
            "points": dict(player["gained"]),
            "total": player["position"],
            "rank": rank,
        }
        for player, rank in zip(
            state["players"],
            castle.ranks([player["position"] for player in state["players"]]),
            strict=True,
        )
    ]
