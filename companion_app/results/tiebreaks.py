"""Which players' ties a game's tie-break decided, from `results(state)` (game-agnostic).

A game's results name what breaks a tie of score (`"tiebreaks"`: its own keys, in order) and
give each player's values (`"tiebreak"`, same order; docs/game-contract.md "Final results").
Every page that ranks players shows those values beside the players who tied on score.
"""

from collections.abc import Callable


def keys(final: dict) -> list[str]:
    """What breaks a tie of score in this game, in order ([] where ties are shared)."""
    return list(final.get("tiebreaks") or [])


def values(player: dict) -> list:
    """A player's tie-break values, in the order of `keys` (None where they have none)."""
    return list(player.get("tiebreak") or [])


def tied_seats(final: dict) -> set[int]:
    """Seats whose score another player shares, when the game breaks such ties."""
    if not keys(final):
        return set()
    scores = [player["score"] for player in final["players"]]
    return {player["seat"] for player in final["players"] if scores.count(player["score"]) > 1}


def tie_groups(final: dict) -> list[list[dict]]:
    """The players of each shared score (2 or more), best rank first, by seat within."""
    tied = tied_seats(final)
    groups: dict[object, list[dict]] = {}
    for player in sorted(final["players"], key=lambda each: (each["rank"], each["seat"])):
        if player["seat"] in tied:
            groups.setdefault(player["score"], []).append(player)
    return list(groups.values())


def pairs(final: dict, player: dict, label: Callable[[str], str]) -> list[tuple[str, object]]:
    """(label, value) of each tie-break of `player`, labelled by `label(key)`."""
    return list(zip((label(key) for key in keys(final)), values(player), strict=False))
