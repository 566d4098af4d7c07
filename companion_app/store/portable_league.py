"""Evenings and seasons of an imported club: matched to what is there, or added.

An evening is the one of its day (days are unique); an unnamed evening there takes the
file's name, and one without a picked points rule the file's. A season is already there
when one has its name and creation moment; a new one keeps the file's id when it is free.
Names and rules pass the checks the organiser's forms use (store/league.py,
scoring/league/points.py), checked with the file's shape (store/portable_shape.py) before
anything is written.
"""

import json
import sqlite3
from dataclasses import dataclass, field

from scoring.league.points import check_rule


@dataclass
class Mapped:
    """File id -> id here, and how many were added and found."""

    ids: dict[int, int] = field(default_factory=dict)
    added: int = 0
    found: int = 0


def import_evenings(conn: sqlite3.Connection, evenings: list[dict]) -> Mapped:
    """Match or add every evening of the file, by day."""
    mapped = Mapped()
    for evening in evenings:
        name = evening.get("name", "")
        row = conn.execute(
            "SELECT id, name FROM evenings WHERE day = ?", (evening["day"],)
        ).fetchone()
        if row is None:
            mapped.ids[evening["id"]] = _insert_evening(conn, evening, name)
            mapped.added += 1
            continue
        if not row["name"] and name:
            conn.execute("UPDATE evenings SET name = ? WHERE id = ?", (name, row["id"]))
        mapped.ids[evening["id"]] = row["id"]
        mapped.found += 1
    for evening in evenings:
        if "rule" in evening:  # a rule picked here stays
            conn.execute(
                "INSERT OR IGNORE INTO evening_rules (evening_id, rule_json) VALUES (?, ?)",
                (
                    mapped.ids[evening["id"]],
                    json.dumps(check_rule(evening["rule"]), separators=(",", ":")),
                ),
            )
    return mapped


def _insert_evening(conn: sqlite3.Connection, evening: dict, name: str) -> int:
    """A new evening, with the file's id when it is free."""
    taken = conn.execute("SELECT 1 FROM evenings WHERE id = ?", (evening["id"],)).fetchone()
    cursor = conn.execute(
        "INSERT INTO evenings (id, day, name) VALUES (?, ?, ?)",
        (None if taken else evening["id"], evening["day"], name),
    )
    return int(cursor.lastrowid)


def import_seasons(conn: sqlite3.Connection, seasons: list[dict], evenings: Mapped) -> Mapped:
    """Match or add every season of the file, its evenings mapped."""
    mapped = Mapped()
    for season in seasons:
        name, rule = season["name"], check_rule(season["rule"])
        row = conn.execute(
            "SELECT id FROM seasons WHERE name = ? AND created_at = ?",
            (name, season["created_at"]),
        ).fetchone()
        if row is not None:
            mapped.ids[season["id"]] = row["id"]
            mapped.found += 1
            continue
        mapped.ids[season["id"]] = _insert_season(conn, season, name, rule, evenings)
        mapped.added += 1
    return mapped


def _insert_season(
    conn: sqlite3.Connection, season: dict, name: str, rule: dict, evenings: Mapped
) -> int:
    """A new season with its evenings, with the file's id when it is free."""
    taken = conn.execute("SELECT 1 FROM seasons WHERE id = ?", (season["id"],)).fetchone()
    cursor = conn.execute(
        "INSERT INTO seasons (id, name, rule_json, created_at) VALUES (?, ?, ?, ?)",
        (
            None if taken else season["id"],
            name,
            json.dumps(rule, separators=(",", ":")),
            season["created_at"],
        ),
    )
    season_id = int(cursor.lastrowid)
    conn.executemany(
        "INSERT INTO season_evenings (season_id, evening_id) VALUES (?, ?)",
        [(season_id, each) for each in sorted({evenings.ids[e] for e in season["evenings"]})],
    )
    return season_id
