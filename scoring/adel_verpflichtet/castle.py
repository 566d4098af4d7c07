"""The castle's arithmetic, shared by the live table and the calculator (RULES.md §4 "Castle").

Exhibitions advance by the fraction on the leader's space, caught thieves shift through the
prison cells, detectives move by their owner's rank. Pure functions on plain values.
"""

from scoring.adel_verpflichtet import cards


def ranks(positions: list[int]) -> list[int]:
    """Rank on the track: 1 + players strictly ahead (tied players share, the next is skipped)."""
    return [1 + sum(other > mine for other in positions) for mine in positions]


def exhibition_advance(
    shows: dict[int, list[dict]], fraction: list[int] | None
) -> tuple[int | None, int | None, dict[int, int]]:
    """(best, second, spaces per exhibitor): top number for the best, bottom for the second."""
    best, second = cards.best_two(shows)
    advance = dict.fromkeys(shows, 0)
    if best is not None and fraction is not None:
        advance[best] = fraction[0]
        if second is not None:
            advance[second] = fraction[1]
    return best, second, advance


def imprison(jail: list[dict], caught: list[dict], cells: int) -> tuple[list[dict], list[dict]]:
    """(jail after, thieves released): each caught thief takes cell 1, lowest number first.

    Earlier prisoners shift one cell along; one pushed past the last cell goes back to its owner.
    """
    after = list(jail)
    released: list[dict] = []
    for thief in sorted(caught, key=lambda entry: entry["number"]):
        after.insert(0, thief)
        if len(after) > cells:
            released.append(after.pop())
    return after, released


def detective_advance(positions: list[int], detectives: list[int], caught: bool) -> dict[int, int]:
    """Spaces each detective's owner moves: their rank now, all at once; nobody without a catch."""
    if not caught:
        return dict.fromkeys(detectives, 0)
    place = ranks(positions)
    return {seat: place[seat] for seat in detectives}
