"""The Cech zlodějů score sheets: one robbery, and the final ranking (SCORESHEETS.md)."""

from scoring.common import sheet_names
from scoring.errors import N_, InvalidSheet
from scoring.thieves_guild import seats, turn
from scoring.thieves_guild.table import CARDS_IN_BOX, GOLD_IN_BOX, MAX_PLAYERS, MIN_PLAYERS

GAME = "thieves_guild"
KINDS = ("robbery", "final")
TOP_KEYS = {
    "robbery": ("game", "kind", "players", "robber", "loot_roll", "target_roll", "direction"),
    "final": ("game", "kind", "players"),
}
PLAYER_KEYS = {"robbery": ("name", "gold"), "final": ("name", "gold", "cards")}


def score_sheet(sheet: dict) -> dict:
    """Score a robbery or a final sheet (`kind`)."""
    kind = sheet.get("kind")
    if kind not in KINDS:
        raise InvalidSheet(N_("kind: must be robbery or final, not {kind}."), kind=repr(kind)[:40])
    _known_keys(sheet, TOP_KEYS[kind], "sheet")
    players = _players(sheet, kind)
    names = sheet_names(players)
    gold = [_count(player, index, "gold", GOLD_IN_BOX) for index, player in enumerate(players)]
    _total(gold, GOLD_IN_BOX, N_("players: {total} gold in all, but the box holds only {most}."))
    if kind == "final":
        return _final(players, names, gold)
    return _robbery(sheet, names, gold)


def _known_keys(given: dict, known: tuple[str, ...], where: str) -> None:
    """Refuse the first key that is not in `known`, naming where it is."""
    for key in given:
        if key not in known:
            raise InvalidSheet(
                N_("{where}: unknown key {key}; it takes: {known}."),
                where=where,
                key=repr(key)[:40],
                known=", ".join(known),
            )


def _players(sheet: dict, kind: str) -> list[dict]:
    """The list of 3 to 9 player objects, with known keys only."""
    players = sheet.get("players")
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidSheet(N_("players: must be a list of 3 to 9 players in turn order."))
    for index, player in enumerate(players):
        if not isinstance(player, dict):
            raise InvalidSheet(
                N_("players[{index}]: must be an object with a name and gold."), index=index
            )
        _known_keys(player, PLAYER_KEYS[kind], f"players[{index}]")
    return players


def _count(player: dict, index: int, key: str, most: int) -> int:
    """A whole number 0..`most` of the player's `key` (gold or cards)."""
    value = player.get(key)
    if type(value) is not int or not 0 <= value <= most:
        raise InvalidSheet(
            N_("players[{index}].{key}: must be a whole number from 0 to {most}, not {value}."),
            index=index,
            key=key,
            most=most,
            value=repr(value)[:40],
        )
    return value


def _total(values: list[int], most: int, message: str) -> None:
    """Refuse a table holding more gold (or cards) than the box."""
    if sum(values) > most:
        raise InvalidSheet(message, total=sum(values), most=most)


def _final(players: list[dict], names: list[str], gold: list[int]) -> dict:
    """Most gold wins; a tie goes to more cards in hand; a full tie is shared."""
    cards = [_count(player, index, "cards", CARDS_IN_BOX) for index, player in enumerate(players)]
    _total(cards, CARDS_IN_BOX, N_("players: {total} cards in all, but the game has only {most}."))
    places = turn.ranks([{"gold": g, "cards": c} for g, c in zip(gold, cards, strict=True)])
    rows = [
        {"name": name, "gold": g, "cards": c, "rank": place}
        for name, g, c, place in zip(names, gold, cards, places, strict=True)
    ]
    winners = [row["name"] for row in rows if row["rank"] == 1]
    return {"game": GAME, "kind": "final", "players": rows, "winners": winners}


def _robbery(sheet: dict, names: list[str], gold: list[int]) -> dict:
    """Who the rolls rob, what they give, the pauper's fine and whether the game ends."""
    count = len(names)
    robber = _robber(sheet, names, gold)
    loot = _roll(sheet, "loot_roll")
    target = _target(sheet, count)
    direction = _direction(sheet, count)
    victim = seats.victim(count, robber, target, direction)
    after = list(gold)
    stolen = fine = 0
    if victim is not None:
        stolen = min(loot, gold[victim])
        fine = turn.PAUPER_FINE if gold[victim] < loot else 0
        after[victim] -= stolen
        after[robber] += stolen - fine
    return {
        "game": GAME,
        "kind": "robbery",
        "victim": None if victim is None else names[victim],
        "stolen": stolen,
        "fine": fine,
        "players": [{"name": name, "gold": g} for name, g in zip(names, after, strict=True)],
        "game_over": 0 in after,
    }


def _robber(sheet: dict, names: list[str], gold: list[int]) -> int:
    """The robber's seat: a player of the sheet, named as in players."""
    robber = sheet.get("robber")
    if robber not in names:
        raise InvalidSheet(
            N_("robber: must be the name of one of the players, not {robber}."),
            robber=repr(robber)[:40],
        )
    seat = names.index(robber)
    if gold[seat] == 0:
        raise InvalidSheet(
            N_("players[{index}].gold: the robber has no gold, so the game is already over."),
            index=seat,
        )
    return seat


def _roll(sheet: dict, key: str) -> int:
    """A die roll 1-6 of the sheet (`key`: loot_roll or target_roll)."""
    roll = sheet.get(key)
    if type(roll) is not int or roll not in seats.DIE:
        raise InvalidSheet(
            N_("{key}: must be a die roll from 1 to 6, not {roll}."), key=key, roll=repr(roll)[:40]
        )
    return roll


def _target(sheet: dict, count: int) -> int:
    """The target roll; with five players a six is rolled again, so it is no target."""
    roll = _roll(sheet, "target_roll")
    if count == seats.FIVE and roll == seats.REROLLED_WITH_FIVE:
        raise InvalidSheet(
            N_("target_roll: with five players a six is rolled again; enter the new roll.")
        )
    return roll


def _direction(sheet: dict, count: int) -> str | None:
    """Left or right with 5-9 players (required); absent with 3 and 4 (seat rules decide)."""
    if not seats.needs_direction(count):
        if "direction" in sheet:
            raise InvalidSheet(
                N_(
                    "direction: with {count} players the seat rules decide who is robbed; "
                    "leave the side out."
                ),
                count=count,
            )
        return None
    direction = sheet.get("direction")
    if direction not in seats.DIRECTIONS:
        raise InvalidSheet(
            N_("direction: must be left or right with {count} players, not {value}."),
            count=count,
            value=repr(direction)[:40],
        )
    return direction
