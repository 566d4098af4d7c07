"""The three Klub ztroskotanců calculators: final, hyde_park, handicaps (SCORESHEETS.md)."""

from collections.abc import Mapping

from scoring.common import is_int
from scoring.errors import N_, InvalidSheet
from scoring.names import sheet_names
from scoring.prodigals_club import standings
from scoring.prodigals_club.board import (
    ELECTION,
    GAME,
    HYDE_PARK_PLACES,
    LEGACY,
    MAX_PLAYERS,
    MAX_VOTES,
    MIN_PLAYERS,
    PLAYABLE,
    PROPERTY,
    SOCIETY,
    valid_competitions,
)

KEYS = {
    "final": ("game", "kind", "competitions", "players"),
    "hyde_park": ("game", "kind", "losses", "megaphones"),
    "handicaps": ("game", "kind", "competitions", "order"),
}
PROPERTY_KEYS = ("cash", "tiles")
#: The Legacy extension of the final sheet (docs/games/prodigals_club.md).
LEGACY_KEYS = ("cash", "properties")


def _check_keys(value: Mapping, allowed: tuple[str, ...], field: str) -> None:
    """Reject a key that is not in `allowed` and a missing one."""
    for key in value:
        if key not in allowed:
            raise InvalidSheet(
                N_("{field}: unknown key {key}; expected {allowed}."),
                field=field,
                key=repr(key),
                allowed=", ".join(allowed),
            )
    for key in allowed:
        if key not in value:
            raise InvalidSheet(N_("{field}: missing {key}."), field=field, key=key)


def _competitions(value: object) -> list[str]:
    """Two or three distinct competitions; Legacy replaces property, never both."""
    if isinstance(value, list) and PROPERTY in value and LEGACY in value:
        raise InvalidSheet(
            N_("competitions: Legacy replaces the property competition; list one of them.")
        )
    if not valid_competitions(value):
        raise InvalidSheet(
            N_(
                "competitions: must list two or three of property (or legacy), election"
                " and society."
            )
        )
    return list(value)


def _player_count(count: int, field: str) -> None:
    """2 to 5 players."""
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise InvalidSheet(
            N_("{field}: Klub ztroskotanců has 2 to 5 players, not {count}."),
            field=field,
            count=count,
        )


def _names(names: list, fields: list[str]) -> list[str]:
    """Clean, distinct player names (scoring.names); `fields` are their sheet paths."""
    return sheet_names(names, fields)


def _whole(value: object, field: str, minimum: int | None = None) -> int:
    """A whole number (of at least `minimum`)."""
    if not is_int(value) or (minimum is not None and value < minimum):
        if minimum is None:
            raise InvalidSheet(
                N_("{field}: must be a whole number, not {value}."), field=field, value=repr(value)
            )
        raise InvalidSheet(
            N_("{field}: must be a whole number of at least {minimum}, not {value}."),
            field=field,
            minimum=minimum,
            value=repr(value),
        )
    return value


def _property(value: object, field: str) -> int:
    """Property at game end from {"cash", "tiles"}."""
    if not isinstance(value, Mapping):
        raise InvalidSheet(N_("{field}: must be an object with cash and tiles."), field=field)
    _check_keys(value, PROPERTY_KEYS, field)
    cash = _whole(value["cash"], field + ".cash")
    tiles = value["tiles"]
    if not isinstance(tiles, list):
        raise InvalidSheet(N_("{field}.tiles: must be a list of face values."), field=field)
    values = [_whole(tile, f"{field}.tiles[{i}]", 0) for i, tile in enumerate(tiles)]
    if cash < 0 and values:
        raise InvalidSheet(
            N_("{field}.cash: cannot be below 0 while the player still owns property."),
            field=field,
        )
    return standings.property_score(cash, values, game_end=True)


def _legacy(value: object, field: str) -> int:
    """Legacy from {"cash", "properties"}: cash + current market values, no penalty (seed)."""
    if not isinstance(value, Mapping):
        raise InvalidSheet(N_("{field}: must be an object with cash and properties."), field=field)
    _check_keys(value, LEGACY_KEYS, field)
    cash = _whole(value["cash"], field + ".cash")
    owned = value["properties"]
    if not isinstance(owned, list):
        raise InvalidSheet(N_("{field}.properties: must be a list of market values."), field=field)
    values = [_whole(item, f"{field}.properties[{i}]", 0) for i, item in enumerate(owned)]
    return cash + sum(values)


def _scores(player: object, playing: list[str], field: str) -> dict:
    """{competition: score} of one player entry."""
    if not isinstance(player, Mapping):
        raise InvalidSheet(N_("{field}: must be an object."), field=field)
    _check_keys(player, ("name", *playing), field)
    scores = {}
    for name in playing:
        where = f"{field}.{name}"
        if name == PROPERTY:
            scores[name] = _property(player[name], where)
        elif name == LEGACY:
            scores[name] = _legacy(player[name], where)
        elif name == ELECTION:
            scores[name] = _whole(player[name], where)
            if scores[name] > MAX_VOTES:
                raise InvalidSheet(
                    N_("{field}: the election track ends at 44, not {value}."),
                    field=where,
                    value=scores[name],
                )
        elif name == SOCIETY:
            scores[name] = _whole(player[name], where)
    return scores


def final_standings(sheet: Mapping) -> dict:
    """Competition scores, final score (the highest), rank, winners, game over."""
    _check_keys(sheet, KEYS["final"], "sheet")
    playing = [name for name in PLAYABLE if name in _competitions(sheet["competitions"])]
    players = sheet["players"]
    if not isinstance(players, list):
        raise InvalidSheet(N_("players: must be a list of player entries."))
    _player_count(len(players), "players")
    scores = [_scores(player, playing, f"players[{i}]") for i, player in enumerate(players)]
    names = _names(
        [player["name"] for player in players], [f"players[{i}].name" for i in range(len(players))]
    )
    lists = [list(entry.values()) for entry in scores]
    ranks = standings.ranks(lists)
    return {
        "players": [
            {"name": name, "scores": entry, "final": standings.final_score(values), "rank": rank}
            for name, entry, values, rank in zip(names, scores, lists, ranks, strict=True)
        ],
        "winners": [name for name, rank in zip(names, ranks, strict=True) if rank == 1],
        "game_over": standings.game_over(lists),
    }


def hyde_park_sheet(sheet: Mapping) -> dict:
    """The change to each player's votes in Hyde Park."""
    _check_keys(sheet, KEYS["hyde_park"], "sheet")
    losses = sheet["losses"]
    if not isinstance(losses, list) or len(losses) != HYDE_PARK_PLACES:
        raise InvalidSheet(
            N_("losses: must list the votes lost by 1st, 2nd and 3rd place (3 numbers).")
        )
    losses = [_whole(loss, f"losses[{i}]", 0) for i, loss in enumerate(losses)]
    megaphones = sheet["megaphones"]
    if not isinstance(megaphones, Mapping):
        raise InvalidSheet(N_("megaphones: must be an object of player name to megaphones."))
    _player_count(len(megaphones), "megaphones")
    names = _names(list(megaphones), ["megaphones"] * len(megaphones))
    counts = [
        _whole(megaphones[key], f"megaphones.{name}", 0)
        for key, name in zip(megaphones, names, strict=True)
    ]
    return {"votes": dict(zip(names, standings.hyde_park(counts, losses), strict=True))}


def handicap_sheet(sheet: Mapping) -> dict:
    """Each player's handicaps from round 1's turn order."""
    _check_keys(sheet, KEYS["handicaps"], "sheet")
    playing = _competitions(sheet["competitions"])
    order = sheet["order"]
    if not isinstance(order, list):
        raise InvalidSheet(N_("order: must be the list of player names in turn order."))
    _player_count(len(order), "order")
    names = _names(order, [f"order[{i}]" for i in range(len(order))])
    return {"handicaps": dict(zip(names, standings.handicaps(playing, len(names)), strict=True))}


_KINDS = {"final": final_standings, "hyde_park": hyde_park_sheet, "handicaps": handicap_sheet}


def score_sheet(sheet: object) -> dict:
    """Dispatch a Klub ztroskotanců sheet on its "kind"."""
    if not isinstance(sheet, Mapping) or sheet.get("game") != GAME:
        raise InvalidSheet(N_("game: this calculator scores prodigals_club sheets."))
    kind = sheet.get("kind")
    if not isinstance(kind, str) or kind not in _KINDS:
        raise InvalidSheet(
            N_("kind: must be final, hyde_park or handicaps, not {kind}."), kind=repr(kind)
        )
    return _KINDS[kind](sheet)
