"""The BG Stats play import: https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>.

BG Stats matches a game by `bggId` when given, else by name, so only ids a public source
confirms are listed (docs/results.md says where each came from).
"""

import json
from datetime import datetime
from urllib.parse import quote

CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"
#: The app that logged the play, as BG Stats shows it.
SOURCE_NAME = "Tabletop Companion"
#: BoardGameGeek names (English, as BG Stats knows them) and confirmed ids per game.
GAMES: dict[str, dict] = {
    "razzia": {"name": "Razzia!"},
    "for_sale": {"name": "For Sale", "bggId": 172},
    "prodigals_club": {"name": "The Prodigals Club"},
    "thieves_guild": {"name": "Thieves' Guild"},
    "adel_verpflichtet": {"name": "Adel Verpflichtet"},
}
PLAY_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
SECONDS_PER_MINUTE = 60
#: JSON punctuation left unescaped in the query: both decodeURIComponent and
#: URLSearchParams read it back, and it keeps the QR code smaller.
URL_SAFE = ":,"
#: A club person's BG Stats id: stable through renames and merges (issue 32 item 7).
PERSON_ID = "person-{id}"


def player_id(name: str, person: int | None) -> str:
    """The id BG Stats keeps a player by: the club's person, else the name casefolded."""
    return name.casefold() if person is None else PERSON_ID.format(id=person)


def game_entry(game: str, final: dict, fallback_name: str) -> dict:
    """The `game` object: name, bggId when confirmed, who wins, and our game key."""
    known = GAMES.get(game, {})
    entry = {"name": known.get("name", fallback_name)}
    if "bggId" in known:
        entry["bggId"] = known["bggId"]
    entry.update(highestWins=bool(final["highest_wins"]), noPoints=False, sourceGameId=game)
    return entry


def play_payload(
    game: str,
    final: dict,
    *,
    play_id: str,
    started: datetime,
    ended: datetime,
    fallback_name: str = "",
    location: str = "",
    comments: str = "",
    people: dict[int, int] | None = None,
) -> dict:
    """The play as BG Stats imports it, from a finished game's `results(state)`.

    `people` maps a seat to the club's person sitting there (their id stays when they are
    renamed); a seat without one is known by its name.
    """
    people = people or {}
    minutes = max(0, round((ended - started).total_seconds() / SECONDS_PER_MINUTE))
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id,
        "game": game_entry(game, final, fallback_name or game),
        "playDate": ended.strftime(PLAY_DATE_FORMAT),
        "durationMin": minutes,
        "location": location,
        "comments": comments,
        "players": [
            {
                "name": player["name"],
                "score": player["score"],
                "rank": player["rank"],
                "winner": bool(player["winner"]),
                "startPlayer": bool(player.get("start_player", False)),
                "role": player.get("role", ""),
                "sourcePlayerId": player_id(player["name"], people.get(player.get("seat"))),
            }
            for player in final["players"]
        ],
    }


#: Keys a QR code's payload leaves out when they hold BG Stats' default (or only our own id):
#: an empty role or location, no start player, points counted, the player's source id.
COMPACT_DEFAULTS = {"role": "", "startPlayer": False, "location": "", "noPoints": False}
COMPACT_DROPPED = ("sourcePlayerId",)


def _without_defaults(entry: dict) -> dict:
    """`entry` without the keys that hold their default and without the dropped keys."""
    return {
        key: value
        for key, value in entry.items()
        if key not in COMPACT_DROPPED
        and not (key in COMPACT_DEFAULTS and value == COMPACT_DEFAULTS[key])
    }


def compact(payload: dict) -> dict:
    """The play with defaults left out, so a direct QR code stays coarse enough to print.

    BG Stats fills the defaults itself and matches players by name; the companion's short
    link (/r/<table>) still hands BG Stats the whole payload.
    """
    short = _without_defaults(payload)
    short["game"] = _without_defaults(payload["game"])
    short["players"] = [_without_defaults(player) for player in payload["players"]]
    return short


def import_url(payload: dict) -> str:
    """The createPlay link carrying `payload` as compact, URL-encoded UTF-8 JSON."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY_URL}?data={quote(text, safe=URL_SAFE)}"
