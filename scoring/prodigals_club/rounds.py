"""The end of a round: Hyde Park, the Old Lady, the end-of-game check, the next round."""

from scoring.common import is_int
from scoring.errors import N_, IllegalMove, raise_all
from scoring.prodigals_club import standings
from scoring.prodigals_club.board import ELECTION, MAX_VOTES, ROUNDS, SOCIETY
from scoring.prodigals_club.scores import all_scores


def hyde_park_column(state: dict) -> list[int]:
    """Votes lost by 1st, 2nd, 3rd place this round (the board's column for the round)."""
    return list(state["board"]["hyde_park"][state["round"] - 1])


def after_actions(state: dict) -> None:
    """Go to Hyde Park (election) or the Old Lady (society); one of them is always in play."""
    state["megaphones"] = None
    state["exempt"] = []
    state["phase"] = "hyde_park" if ELECTION in state["competitions"] else "old_lady"


def hyde_park(state: dict, megaphones: object) -> None:
    """Apply the round's column to everyone's votes (RULES.md §5 "Hyde Park")."""
    count = len(state["players"])
    every = IllegalMove(
        N_(
            "megaphones: enter every player's megaphones of this round (a whole number"
            " of 0 or more for each of the {count} players) before Hyde Park."
        ),
        count=count,
    )
    if not isinstance(megaphones, list) or len(megaphones) != count:
        raise every
    wrong = [
        _megaphones_refusal(player["name"], value)
        for player, value in zip(state["players"], megaphones, strict=True)
        if not (is_int(value) and value >= 0)
    ]
    # The general sentence first (as before), then each player whose count is wrong.
    raise_all([every, *wrong] if wrong else [])
    changes = standings.hyde_park(megaphones, hyde_park_column(state))
    for player, change in zip(state["players"], changes, strict=True):
        player["votes"] = min(player["votes"] + change, MAX_VOTES)
    state["megaphones"] = {"counts": list(megaphones), "changes": changes}
    if SOCIETY in state["competitions"]:
        state["phase"] = "old_lady"
    else:
        check_end(state)


def _megaphones_refusal(name: str, value: object) -> IllegalMove:
    """The refusal of one player's megaphone count, naming the player."""
    if value is None:
        return IllegalMove(N_("megaphones: enter {name}'s megaphones of this round."), name=name)
    return IllegalMove(
        N_("megaphones: {name}'s megaphones are a whole number of 0 or more, not {value}."),
        name=name,
        value=repr(value),
    )


def old_lady(state: dict, exempt: object) -> None:
    """Close the Old Lady step, recording who was exempt; then check for the game end."""
    if not isinstance(exempt, list):
        raise IllegalMove(N_("exempt: mark each exempt player at most once."))
    raise_all(_exempt_refusals(state, exempt))
    state["exempt"] = sorted(exempt)
    check_end(state)


def _exempt_refusals(state: dict, exempt: list) -> list[IllegalMove]:
    """Every entry of the exempt list that is not a player, and every player marked twice."""
    players = state["players"]
    refusals, named = [], set()
    for seat in exempt:
        if not (is_int(seat) and 0 <= seat < len(players)):
            refusals.append(
                IllegalMove(
                    N_("exempt: {value} is not a player; mark exempt players by their seat."),
                    value=repr(seat)[:20],
                )
            )
        elif exempt.count(seat) > 1 and seat not in named:
            named.add(seat)
            refusals.append(
                IllegalMove(
                    N_("exempt: {name} is marked exempt more than once."),
                    name=players[seat]["name"],
                )
            )
    return refusals


def check_end(state: dict) -> None:
    """After Hyde Park and the Old Lady: a score at 0 or below, or round 5, ends the game.

    The check counts each tile still owned with its £3 penalty (RULES.md §5 "Property"), so a
    player who owns any tile, even a £0 one with £0 cash, never ends the game through property.
    """
    checked = all_scores(state, game_end=True)
    zero = standings.game_over([list(scores.values()) for scores in checked])
    final_scores = all_scores(state, game_end=zero or state["round"] == ROUNDS)
    state["rounds"].append(
        {
            "round": state["round"],
            "scores": final_scores,
            "final": [standings.final_score(list(scores.values())) for scores in final_scores],
            "megaphones": state["megaphones"],
            "exempt": state["exempt"] if SOCIETY in state["competitions"] else None,
        }
    )
    if zero or state["round"] == ROUNDS:
        state["phase"] = "game_over"
        state["end_reason"] = "zero" if zero else "rounds"
        state["ranks"] = standings.ranks([list(scores.values()) for scores in final_scores])
    else:
        state["phase"] = "round_end"


def next_order(order: list[int], reserved: list[int | None]) -> list[int]:
    """Reserved places first; the others fill the rest keeping their relative order."""
    rest = iter(seat for seat in order if seat not in reserved)
    return [seat if seat is not None else next(rest) for seat in reserved]


def next_round(state: dict) -> None:
    """Round + 1, the reserved turn order, the district marker one district clockwise."""
    state["order"] = next_order(state["order"], state["reserved"])
    state["reserved"] = [None] * len(state["players"])
    if state["district"] is not None:
        state["district"] = state["district"] % state["board"]["districts"] + 1
    state["round"] += 1
    state["megaphones"] = None
    state["exempt"] = []
    state["phase"] = "play"
