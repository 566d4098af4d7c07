"""The For Sale score sheet: validation and result (SCORESHEETS.md, "For Sale")."""

from collections import Counter

from scoring.common import sheet_names
from scoring.errors import N_, InvalidSheet
from scoring.for_sale import cards
from scoring.for_sale.selling import ranks

GAME = "for_sale"
TOP_LEVEL_KEYS = ("game", "players")
PLAYER_KEYS = ("name", "checks", "coins")


def _is_count(value: object) -> bool:
    """A whole number of 0 or more; booleans are not numbers here."""
    return type(value) is int and value >= 0


def _players(sheet: object) -> list[dict]:
    """The validated list of 3 to 6 player objects with known keys only."""
    if not isinstance(sheet, dict):
        raise InvalidSheet(N_("sheet: must be a JSON object with game and players."))
    for key in sheet:
        if key not in TOP_LEVEL_KEYS:
            raise InvalidSheet(
                N_("sheet: unknown key {key}; a For Sale sheet has game and players."),
                key=repr(key),
            )
    players = sheet.get("players")
    if not isinstance(players, list) or not (
        cards.MIN_PLAYERS <= len(players) <= cards.MAX_PLAYERS
    ):
        raise InvalidSheet(N_("players: must be a list of 3 to 6 players."))
    for index, player in enumerate(players):
        if not isinstance(player, dict):
            raise InvalidSheet(
                N_("players[{index}]: must be an object with name, checks and coins."),
                index=index,
            )
        for key in player:
            if key not in PLAYER_KEYS:
                raise InvalidSheet(
                    N_("players[{index}]: unknown key {key}; a player has name, checks and coins."),
                    index=index,
                    key=repr(key),
                )
    return players


def _coins(player: dict, index: int, dealt: int) -> int:
    """The player's coins: a whole number no larger than the coins dealt to each player."""
    coins = player.get("coins", 0)
    if not _is_count(coins):
        raise InvalidSheet(
            N_("players[{index}].coins: must be a whole number of 0 or more, not {value}."),
            index=index,
            value=repr(coins)[:40],
        )
    if coins > dealt:
        raise InvalidSheet(
            N_(
                "players[{index}].coins: {coins}, but each player is dealt only {dealt} "
                "coins at this player count."
            ),
            index=index,
            coins=coins,
            dealt=dealt,
        )
    return coins


def _checks(players: list[dict]) -> list[list[int]]:
    """Every player's checks: values of the deck, each value at most twice at the table."""
    counts: Counter = Counter()
    held = []
    for index, player in enumerate(players):
        values = player.get("checks", [])
        if not isinstance(values, list):
            raise InvalidSheet(
                N_("players[{index}].checks: must be a list of check values."), index=index
            )
        for position, value in enumerate(values):
            field = f"players[{index}].checks[{position}]"
            if type(value) is not int or value not in cards.CHECK_VALUES:
                raise InvalidSheet(
                    N_(
                        "{field}: {value} is not a check of the game (0, or 2000 to 15000 "
                        "in steps of 1000)."
                    ),
                    field=field,
                    value=repr(value)[:40],
                )
            counts[value] += 1
            if counts[value] > cards.COPIES_PER_CHECK:
                raise InvalidSheet(
                    N_("{field}: a third check of {value}; the game has two of each."),
                    field=field,
                    value=value,
                )
        held.append(values)
    return held


def score_sheet(sheet: dict) -> dict:
    """Score a For Sale sheet: money = checks + coins x 1000, rank (more coins break ties)."""
    players = _players(sheet)
    names = sheet_names(players)
    dealt = cards.COINS[len(players)]
    coins = [_coins(player, index, dealt) for index, player in enumerate(players)]
    held = _checks(players)
    standing = [
        {"checks": values, "coins": count, "bid": 0}
        for values, count in zip(held, coins, strict=True)
    ]
    places = ranks(standing)
    rows = [
        {
            "name": name,
            "money": sum(values) + count * cards.COIN_VALUE,
            "checks": sum(values),
            "coins": count,
            "rank": place,
        }
        for name, values, count, place in zip(names, held, coins, places, strict=True)
    ]
    winners = [row["name"] for row in rows if row["rank"] == 1]
    return {"game": GAME, "players": rows, "winners": winners}
