"""The end: finish the turn, the final exhibition (+8 / +4) and the ranking (RULES.md §4 "End")."""

from scoring.adel_verpflichtet import cards, places
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
    """Each player's best exhibition from their tracked hand (the table may correct it).

    With the hands left to the players, nothing is proposed: the table enters what is shown.
    """
    if not state.get("tracked", True):
        return [[] for _ in state["players"]]
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
        collect(refusals, cards.read_exhibition, player["name"], seat, shown, True)
        for seat, (player, shown) in enumerate(zip(players, shows, strict=True))
    ]
    raise_all(refusals)  # every player's final exhibition at once
    state["shows"] = [None] * len(players)
    for seat, shown in enumerate(final_shows):
        collect(refusals, _show_final, state, seat, shown)
    raise_all(refusals)  # each card held by its player and in one place only
    for seat, shown in enumerate(final_shows):
        players[seat]["hand"] = [*players[seat]["hand"], *shown]  # shown, then kept
    state["shows"] = None
    return final_shows


def _show_final(state: dict, seat: int, shown: list[dict]) -> None:
    """`seat` lays out their final exhibition (refused if they do not hold it)."""
    places.take_shown(state, seat, shown)
    state["shows"][seat] = shown
