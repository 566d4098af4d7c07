"""The end: finish the turn, the final exhibition (+8 / +4) and the ranking (RULES.md §4 "End")."""

from scoring.adel_verpflichtet import cards
from scoring.adel_verpflichtet.table import first_phase
from scoring.common import ranks_by
from scoring.errors import N_, IllegalMove, collect, raise_all


def reached_banquet(state: dict) -> bool:
    """True once a pawn stands at the banquet table."""
    return any(player["position"] >= state["banquet"] for player in state["players"])


def next_turn(state: dict, _move: dict) -> None:
    """The table has seen the resolution: the next turn, or the final exhibition."""
    state["played"] = None
    state["places"] = None
    if reached_banquet(state):
        state["phase"] = "final"
        return
    state["turn"] += 1
    state["report"] = []
    state["phase"] = first_phase(state["variant"])


def proposals(state: dict) -> list[list[dict]]:
    """Each player's best exhibition from their tracked hand (the table may correct it)."""
    return [cards.best_from_hand(player["hand"]) for player in state["players"]]


def final(state: dict, move: dict) -> None:
    """Everyone's final exhibition: best +8, second +4; then the ranking."""
    shows = _read_final(state, move.get("shows"))
    exhibiting = {seat: shown for seat, shown in enumerate(shows) if shown}
    best, second = cards.best_two(exhibiting)
    for seat, spaces in ((best, cards.FINAL_BEST), (second, cards.FINAL_SECOND)):
        if seat is not None:
            state["players"][seat]["position"] += spaces
            state["players"][seat]["gained"]["final"] += spaces
    state["final"] = shows
    state["phase"] = "game_over"
    state["ranks"] = final_ranks([p["position"] for p in state["players"]], shows)


def final_ranks(positions: list[int], shows: list[list[dict]]) -> list[int]:
    """Furthest along first; a tie goes to the better final exhibition; still tied: shared."""
    keys = [
        (position, cards.strength(shown) if shown else (0, []))
        for position, shown in zip(positions, shows, strict=True)
    ]
    return ranks_by(keys)


def _read_final(state: dict, shows: object) -> list[list[dict]]:
    """Per seat the cards of their final exhibition ([] for none), each a valid one in hand."""
    players = state["players"]
    if not isinstance(shows, list) or len(shows) != len(players):
        raise IllegalMove(
            N_("Enter each of the {count} players' final exhibition ([] for none)."),
            count=len(players),
        )
    refusals: list = []
    final_shows = [
        collect(refusals, cards.read_exhibition, player, seat, shown, True)
        for seat, (player, shown) in enumerate(zip(players, shows, strict=True))
    ]
    raise_all(refusals)  # every player's final exhibition at once
    return final_shows
