"""Klub ztroskotanců arithmetic shared by the live table and the calculator (RULES.md §5)."""

from scoring.common import ranks_by
from scoring.prodigals_club.board import (
    COMPETITIONS,
    FEWEST_GAIN,
    HANDICAP_KEYS,
    HYDE_PARK_PLACES,
    LEGACY,
    TILE_PENALTY,
)


def handicaps(playing: list[str], player_count: int) -> list[dict]:
    """Handicaps by place in round 1's turn order (RULES.md §5 "Handicaps at setup").

    The last player gets none, the second-to-last 1, and so on; they are handed out one
    at a time cycling through +£1, +1 vote, society token up, skipping competitions not
    in play. With Legacy nobody gets any (seed: "nepřidělujte nikomu žádné handicapy").
    """
    if LEGACY in playing:
        return [dict.fromkeys(HANDICAP_KEYS.values(), 0) for _ in range(player_count)]
    cycle = [HANDICAP_KEYS[name] for name in COMPETITIONS if name in playing]
    result = []
    for place in range(player_count):
        given = dict.fromkeys(HANDICAP_KEYS.values(), 0)
        for handed in range(player_count - 1 - place):
            given[cycle[handed % len(cycle)]] += 1
        result.append(given)
    return result


def property_score(cash: int, tiles: list[int], game_end: bool) -> int:
    """Cash plus face values; at game end each remaining tile adds £3 (RULES.md §5)."""
    return cash + sum(tiles) + (TILE_PENALTY * len(tiles) if game_end else 0)


def hyde_park(megaphones: list[int], losses: list[int]) -> list[int]:
    """The change to each player's votes (RULES.md §5 "Hyde Park").

    Everyone tied for the fewest megaphones gains 1 and nothing else; the others are
    placed by megaphones, tied players share a place and do not shift later places.
    """
    fewest = min(megaphones)
    changes = []
    for count in megaphones:
        if count == fewest:
            changes.append(FEWEST_GAIN)
            continue
        place = 1 + sum(1 for other in megaphones if other > count)
        changes.append(-losses[place - 1] if place <= HYDE_PARK_PLACES else 0)
    return changes


def tie_key(scores: list[int]) -> tuple[int, ...]:
    """What ranks a player: highest competition first, then second, then third; lower wins."""
    return tuple(sorted(scores, reverse=True))


def final_score(scores: list[int]) -> int:
    """The final score: the player's highest competition score (RULES.md §5 "End of game")."""
    return max(scores)


def ranks(score_lists: list[list[int]]) -> list[int]:
    """1 + the number of players strictly better (lowest highest score, then tie-breaks)."""
    return ranks_by([tie_key(scores) for scores in score_lists], lowest_wins=True)


def game_over(score_lists: list[list[int]]) -> bool:
    """Any score in any competition at 0 or below ends the game (RULES.md §5 "End of game")."""
    return any(score <= 0 for scores in score_lists for score in scores)
