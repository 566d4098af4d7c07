"""Finished games as a history: filters, per-player statistics, CSV and JSON exports.

A play is a plain dict built from a finished table and its `results(state)`:
{"id", "game", "title", "ended" (datetime), "highest_wins", "code", "tiebreaks",
 "players": [{"seat", "name", "score", "rank", "winner", "tiebreak"}]}; a player may also
carry "person" (the roster's id) and "person_name" (their name now): statistics then count
the person, whatever spelling each table used.
"""

import csv
import io
import unicodedata
from collections.abc import Iterable

from scoring import secrecy

CSV_COLUMNS = (
    "table_id",
    "game",
    "finished_at",
    "verification_code",
    "seat",
    "player",
    "score",
    "rank",
    "winner",
    "tiebreak_by",
    "tiebreak_1",
    "tiebreak_2",
)
#: Tie-break values a CSV line carries (Adel and Klub have two; the rest one or none).
CSV_TIEBREAKS = 2
#: Between the keys of `tiebreak_by` ("final_cards/oldest_object").
KEY_SEPARATOR = "/"
#: A spreadsheet treats a cell starting with one of these as a formula; such text is quoted.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
EXPORT_FORMAT = "companion-game/1"


def make_play(table, final: dict, title: str, code: str) -> dict:
    """A history row from a finished table (store Table) and its final results."""
    return {
        "id": table.id,
        "game": table.game,
        "title": title,
        "ended": table.updated_at,
        "highest_wins": bool(final["highest_wins"]),
        "code": code,
        "tiebreaks": list(final.get("tiebreaks") or []),
        "players": [
            {
                **{key: player[key] for key in ("seat", "name", "score", "rank", "winner")},
                "tiebreak": list(player.get("tiebreak") or []),
            }
            for player in final["players"]
        ],
    }


def filter_plays(plays: Iterable[dict], game: str = "", player: str = "") -> list[dict]:
    """The plays of `game` (any when empty) in which `player` (case-insensitive) took part."""
    wanted = player.strip().casefold()
    return [
        play
        for play in plays
        if (not game or play["game"] == game)
        and (not wanted or any(wanted in _spellings(p) for p in play["players"]))
    ]


def _spellings(player: dict) -> set[str]:
    """The names a player of a play answers to: the table's spelling and the person's name."""
    return {player["name"].casefold(), player.get("person_name", player["name"]).casefold()}


def player_stats(plays: Iterable[dict]) -> list[dict]:
    """Per player and game: plays, wins, win rate, average and best score (best = the
    highest, or the lowest where the lowest score wins). Sorted by player, then game."""
    rows: dict[tuple[str, str], dict] = {}
    for play in plays:
        for player in play["players"]:
            name = player.get("person_name", player["name"])
            key = (player.get("person", name.casefold()), play["game"])
            row = rows.setdefault(
                key,
                {
                    "name": name,
                    "game": play["game"],
                    "title": play["title"],
                    "highest_wins": play["highest_wins"],
                    "scores": [],
                    "wins": 0,
                },
            )
            row["scores"].append(player["score"])
            row["wins"] += bool(player["winner"])
    ordered = sorted(rows.items(), key=lambda item: (_sort_key(item[1]["name"]), str(item[0])))
    return [_summarise(row) for _key, row in ordered]


def _sort_key(name: str) -> str:
    """A name without its accents, so Čeněk sorts with C, not after Z."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _summarise(row: dict) -> dict:
    """Counts and averages of one player's scores in one game."""
    scores = row.pop("scores")
    best = max(scores) if row["highest_wins"] else min(scores)
    return {
        **row,
        "plays": len(scores),
        "win_rate": row["wins"] / len(scores),
        "average": sum(scores) / len(scores),
        "best": best,
    }


def history_csv(plays: Iterable[dict]) -> str:
    """One CSV line per player per play, newest play first as given."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays:
        for player in play["players"]:
            writer.writerow(
                (
                    play["id"],
                    play["game"],
                    play["ended"].isoformat(timespec="seconds"),
                    play["code"],
                    player["seat"],
                    _cell(player["name"]),
                    player["score"],
                    player["rank"],
                    int(bool(player["winner"])),
                    KEY_SEPARATOR.join(play.get("tiebreaks", [])),
                    *_tiebreak_cells(player),
                )
            )
    return out.getvalue()


def _tiebreak_cells(player: dict) -> list:
    """The player's tie-break values, one cell each ("" where there is none)."""
    found = list(player.get("tiebreak") or [])[:CSV_TIEBREAKS]
    cells = ["" if value is None else value for value in found]
    return cells + [""] * (CSV_TIEBREAKS - len(cells))


def _cell(text: str) -> str:
    """Text a spreadsheet will show as text, never run as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def game_export(table, entries: Iterable, final: dict, code: str) -> dict:
    """A table as JSON: setup, the full log (undone moves marked), results and code."""
    return {
        "format": EXPORT_FORMAT,
        "id": table.id,
        "game": table.game,
        "setup": table.setup,
        "created_at": table.created_at.isoformat(),
        "updated_at": table.updated_at.isoformat(),
        "version": table.version,
        "finished": bool(final["finished"]),
        "verification_code": code,
        "log": [
            {
                "seq": entry.seq,
                "kind": entry.kind,
                "move": entry.move,
                "undone": entry.undone,
                "undoes": entry.undoes,
                "at": entry.created_at.isoformat(),
            }
            for entry in entries
        ],
        "results": final,
    }


def concealed_export(data: dict, setup: object, hidden: list[str]) -> dict:
    """A running game's export with its secrets held back: the setup as concealed, the results
    and the verification code as markers, and `hidden` naming what is held back."""
    return {
        **data,
        "setup": setup,
        "verification_code": secrecy.hidden(data["verification_code"]),
        "results": secrecy.hidden(data["results"]),
        "hidden": hidden,
    }
