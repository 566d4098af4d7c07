"""What the box shows for a table (display + reveal + etag) and which table the box follows.

docs/device-api.md is the contract. The display comes from the game's pure
`device_display(state)`; the etag names the table version and the reveal's progress, so it
can be recomputed with two small queries while a long poll waits.
"""

import json

from flask import current_app

from companion_app.device import frame as device_frame
from companion_app.device.check import get_check
from companion_app.store import TableNotFound, db, get_store, reveals
from scoring.games import get_game

#: settings key of the table the box follows (a table id).
FOLLOW_KEY = "device_table"
#: etag of "the box follows no table".
NO_TABLE_ETAG = "none"


def make_etag(version: int, reveal_tag: str) -> str:
    """`<table version>:<reveal tag>`; changes whenever the body does (never goes back)."""
    return f"{version}:{reveal_tag}"


def table_etag(table_id: str) -> str:
    """The table's current etag, read without loading its state (TableNotFound if none)."""
    row = db.get_db().execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise TableNotFound(table_id)
    return make_etag(row["version"], reveals.current_and_tag(table_id)[1])


def device_body(table_id: str) -> dict:
    """The device view of a table: display, reveal, player names, version and etag."""
    table = get_store().get(table_id)
    rules = get_game(table.game)
    current, tag = reveals.current_and_tag(table_id)
    return {
        "table": table.id,
        "version": table.version,
        "etag": make_etag(table.version, tag),
        "display": rules.device_display(table.state),
        "reveal": None if current is None else current.as_json(),
        "players": list(rules.summary(table.state)["players"]),
    }


def frame_body(table_id: str, connected: bool = True) -> dict:
    """The panel's view of a table: the firmware-rendered pixels, seat states, reveal and the
    timeline of the strip; `connected` False (a bridge that lost its box): the violet dot."""
    table = get_store().get(table_id)
    current, tag = reveals.current_and_tag(table_id)
    display = get_game(table.game).device_display(table.state)
    return {
        "table": table.id,
        "etag": make_etag(table.version, tag),
        "reveal": None if current is None else current.as_json(),
        **device_frame.render(display, current, table.updated_at, connected=connected),
    }


def _chosen_table() -> str | None:
    """The table id stored as the box's choice, if that table still exists."""
    conn = db.get_db()
    row = conn.execute("SELECT value_json FROM settings WHERE key = ?", (FOLLOW_KEY,)).fetchone()
    if row is None:
        return None
    table_id = json.loads(row["value_json"])
    found = conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone()
    return table_id if found else None


def _latest_unfinished() -> str | None:
    """The unfinished table with the latest activity, or None."""
    row = (
        db.get_db()
        .execute(
            "SELECT id FROM tables WHERE finished = 0"
            " AND id NOT IN (SELECT table_id FROM abandoned_tables)"
            " ORDER BY updated_at DESC, created_at DESC, id LIMIT 1"
        )
        .fetchone()
    )
    return None if row is None else row["id"]


def followed_table() -> dict:
    """`{"table": id | None, "chosen": bool}`: the choice, else the latest unfinished table."""
    chosen = _chosen_table()
    if chosen is not None:
        return {"table": chosen, "chosen": True}
    return {"table": _latest_unfinished(), "chosen": False}


def follow(table_id: str | None) -> dict:
    """Make the box follow `table_id` (TableNotFound if none); None goes back to the default."""
    conn = db.get_db()
    with db.write_transaction(conn):
        if table_id is None:
            conn.execute("DELETE FROM settings WHERE key = ?", (FOLLOW_KEY,))
        else:
            get_store().get(table_id)
            conn.execute(
                "INSERT INTO settings (key, value_json) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json",
                (FOLLOW_KEY, json.dumps(table_id)),
            )
    return followed_table()


def followed_etag() -> str:
    """The etag of the followed table's device view, prefixed with its id (and a box check
    asked for from the box page, which the bridge must see)."""
    table_id = followed_table()["table"]
    etag = NO_TABLE_ETAG if table_id is None else f"{table_id}/{table_etag(table_id)}"
    check = get_check(current_app).pending()
    return etag if check is None else f"{etag}/check{check}"


def followed_body() -> dict:
    """The followed table's device view, or an empty one when there is no table to follow;
    `check`: the number of a box check the bridge should run now, else null."""
    table_id = followed_table()["table"]
    check = get_check(current_app).pending()
    if table_id is None:
        body = {
            "table": None,
            "version": None,
            "etag": NO_TABLE_ETAG,
            "display": None,
            "reveal": None,
            "players": [],
        }
    else:
        body = device_body(table_id)
        body["etag"] = f"{table_id}/{body['etag']}"
    if check is not None:
        body["etag"] += f"/check{check}"
    return {**body, "check": check}
