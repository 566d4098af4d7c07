"""The Razzia! score sheet: validation and result (SCORESHEETS.md, "Razzia!")."""

from collections.abc import Mapping

from scoring.common import sheet_names
from scoring.errors import N_, InvalidSheet
from scoring.razzia import score
from scoring.razzia.cards import (
    BUSINESSES,
    CARD_COUNTS,
    CHECK_SETS,
    JEWELRY,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    checks_in_play,
)

GAME = "razzia"
TOP_LEVEL_KEYS = ("game", "round", "players")
#: Plain count fields of a player and the card kind each one counts.
COUNT_FIELDS = {
    "cars": "car",
    "drivers": "driver",
    "gold": "gold",
    "thieves": "thief",
    "bodyguards": "bodyguard",
}
#: Fields holding {kind: count} objects and the kinds each one accepts.
KIND_FIELDS = {"jewelry": JEWELRY, "businesses": BUSINESSES}
PLAYER_KEYS = ("name", *COUNT_FIELDS, *KIND_FIELDS, "checks")
#: How a message names several cards of a kind; other kinds read "<kind> cards".
PLURALS = {
    "ring": "rings",
    "watch": "watches",
    "brooch": "brooches",
    "necklace": "necklaces",
    "diamond": "diamonds",
    "car": "cars",
    "driver": "drivers",
    "thief": "thieves",
    "gold": "gold coins",
    "bodyguard": "bodyguards",
}


def _is_count(value: object) -> bool:
    """A whole number of 0 or more; booleans are not numbers here."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _listing(names: tuple[str, ...], conjunction: str = "or") -> str:
    """'a, b or c' for a message."""
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def _plural(kind: str) -> str:
    """The name of several cards of a kind, for a message."""
    return PLURALS.get(kind, f"{kind.replace('_', ' ')} cards")


def _check_keys(value: Mapping, allowed: tuple[str, ...], field: str, what: str) -> None:
    """Reject any key of `value` that is not in `allowed`."""
    for key in value:
        if key not in allowed:
            raise InvalidSheet(
                N_("{field}: unknown key {key}; the keys of {what} are {allowed}."),
                field=field,
                key=repr(key),
                what=what,
                allowed=_listing(allowed, "and"),
            )


def _round(sheet: Mapping) -> int:
    """The validated round number."""
    if "round" not in sheet:
        raise InvalidSheet(N_("round: missing; give 1, 2 or 3."))
    value = sheet["round"]
    if not _is_count(value) or not 1 <= value <= ROUNDS:
        raise InvalidSheet(N_("round: must be 1, 2 or 3, not {value}."), value=repr(value))
    return value


def _players(sheet: Mapping) -> list:
    """The validated list of player entries (2 to 5 objects)."""
    players = sheet.get("players")
    if not isinstance(players, list):
        raise InvalidSheet(
            N_("players: must be a list of {low} to {high} players."),
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
        )
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidSheet(
            N_("players: {count} given, but Razzia! is played by {low} to {high} players."),
            count=len(players),
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
        )
    for index, player in enumerate(players):
        if not isinstance(player, dict):
            raise InvalidSheet(
                N_("players[{index}]: must be an object with the player's cards."), index=index
            )
        _check_keys(player, PLAYER_KEYS, f"players[{index}]", "a player")
    return players


def _count(value: object, field: str) -> int:
    """A validated card count."""
    if not _is_count(value):
        raise InvalidSheet(
            N_("{field}: must be a whole number of 0 or more, not {value}."),
            field=field,
            value=repr(value),
        )
    return value


def _kind_counts(player: Mapping, field: str, prefix: str) -> dict[str, int]:
    """The validated {kind: count} object of a jewelry or businesses field."""
    value = player.get(field, {})
    kinds = KIND_FIELDS[field]
    if not isinstance(value, dict):
        raise InvalidSheet(
            N_("{field}: must be an object of kind to count, not {value}."),
            field=f"{prefix}.{field}",
            value=repr(value),
        )
    for kind, count in value.items():
        if kind not in kinds:
            raise InvalidSheet(
                N_("{field}: unknown {what} kind; use {kinds}."),
                field=f"{prefix}.{field}.{kind}",
                what=field,
                kinds=_listing(kinds),
            )
        _count(count, f"{prefix}.{field}.{kind}")
    return {kind: count for kind, count in value.items() if count}


def _family(player: Mapping, index: int) -> tuple[dict[str, int], dict[str, str]]:
    """The player's cards by kind, and the sheet field naming each kind."""
    prefix = f"players[{index}]"
    family: dict[str, int] = {}
    fields: dict[str, str] = {}
    for field, kind in COUNT_FIELDS.items():
        family[kind] = _count(player.get(field, 0), f"{prefix}.{field}")
        fields[kind] = f"{prefix}.{field}"
    for field in KIND_FIELDS:
        for kind, count in _kind_counts(player, field, prefix).items():
            family[kind] = count
            fields[kind] = f"{prefix}.{field}.{kind}"
    return family, fields


def _check_table_counts(families: list[tuple[dict[str, int], dict[str, str]]]) -> None:
    """No kind appears more often across the table than the game has cards of it."""
    totals: dict[str, int] = {}
    for family, fields in families:
        for kind, count in family.items():
            totals[kind] = totals.get(kind, 0) + count
            if totals[kind] > CARD_COUNTS[kind]:
                raise InvalidSheet(
                    N_("{field}: {total} {cards} at the table, but the game has only {limit}."),
                    field=fields[kind],
                    total=totals[kind],
                    cards=_plural(kind),
                    limit=CARD_COUNTS[kind],
                )


def _check_list(player: Mapping, index: int, round_no: int) -> list | None:
    """The player's raw checks list, required in the last round."""
    field = f"players[{index}].checks"
    if "checks" not in player:
        if round_no != score.FINAL_ROUND:
            return None
        raise InvalidSheet(
            N_(
                "{field}: missing; round {round} scores checks, so list every check "
                "the player holds (face up and face down)."
            ),
            field=field,
            round=round_no,
        )
    value = player["checks"]
    if not isinstance(value, list):
        raise InvalidSheet(
            N_("{field}: must be a list of check values, not {value}."),
            field=field,
            value=repr(value),
        )
    return value


def _check_value(value: object, field: str, in_play: frozenset[int], holder: dict) -> None:
    """One check: a whole number, in play at this player count, not listed before."""
    if not _is_count(value):
        raise InvalidSheet(
            N_("{field}: must be a check value in whole numbers, not {value}."),
            field=field,
            value=repr(value),
        )
    if value not in in_play:
        raise InvalidSheet(
            N_("{field}: {value} is not a check in play at this table ({low} to {high})."),
            field=field,
            value=value,
            low=min(in_play),
            high=max(in_play),
        )
    if value in holder:
        raise InvalidSheet(
            N_("{field}: {value} is also at {other}; each check exists once."),
            field=field,
            value=value,
            other=holder[value],
        )
    holder[value] = field


def _check_values(players: list, round_no: int) -> list[list[int]]:
    """Every player's checks: in play for this player count and each value held once."""
    in_play = checks_in_play(len(players))
    holder: dict[int, str] = {}
    held: list[list[int]] = []
    for index, player in enumerate(players):
        values = _check_list(player, index, round_no) or []
        for position, value in enumerate(values):
            _check_value(value, f"players[{index}].checks[{position}]", in_play, holder)
        held.append(values)
    return held


def _check_final_counts(held: list[list[int]]) -> None:
    """In the last round everyone holds as many checks as they were dealt."""
    dealt = len(CHECK_SETS[len(held)][0])
    for index, values in enumerate(held):
        if len(values) != dealt:
            raise InvalidSheet(
                N_(
                    "players[{index}].checks: {count} checks, but with {players} players "
                    "everyone ends the game with {dealt} (the centre check belongs to nobody)."
                ),
                index=index,
                count=len(values),
                players=len(held),
                dealt=dealt,
            )


def _validate(sheet: object) -> tuple[int, list[str], list[dict[str, int]], list[list[int]]]:
    """Round, names, families and checks of a valid sheet, or InvalidSheet."""
    if not isinstance(sheet, dict):
        raise InvalidSheet(N_("sheet: must be a JSON object with game, round and players."))
    _check_keys(sheet, TOP_LEVEL_KEYS, "sheet", "a Razzia! sheet")
    round_no = _round(sheet)
    players = _players(sheet)
    names = sheet_names(players)
    families = [_family(player, index) for index, player in enumerate(players)]
    _check_table_counts(families)
    held = _check_values(players, round_no)
    if round_no == score.FINAL_ROUND:
        _check_final_counts(held)
    return round_no, names, [family for family, _ in families], held


def score_razzia_sheet(sheet: dict) -> dict:
    """Score a Razzia! sheet: points per category, total, rank and winners."""
    round_no, names, families, held = _validate(sheet)
    rows = score.score_round(families, round_no, held)
    totals = [row["total"] for row in rows]
    ranks = score.ranks(totals)
    players = [
        {
            "name": name,
            "points": {category: row[category] for category in score.CATEGORIES},
            "total": row["total"],
            "rank": rank,
        }
        for name, row, rank in zip(names, rows, ranks, strict=True)
    ]
    winners = [name for name, rank in zip(names, ranks, strict=True) if rank == 1]
    return {"game": GAME, "round": round_no, "players": players, "winners": winners}
