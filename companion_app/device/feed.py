"""What the box shows for a table (display + reveal + etag) and which table the box follows.

docs/device-api.md is the contract. The display comes from the game's pure
`device_display(state)`; the etag names the table version and the reveal's progress, so it
can be recomputed with two small queries while a long poll waits.

The box belongs to its table (issue 24): it follows the table it was pointed at (`follow`,
with rights: api/device.py), else the table it already shows (SHOWN_KEY). A new table takes
the box only when the box shows no table in play (`take_if_free`, called when a table is
created); a stranger's new table never moves it. A database from before SHOWN_KEY shows the
unfinished table with the latest activity until a table is created, which pins it.
"""

import json

from flask import current_app

from companion_app.device import frame as device_frame
from companion_app.device.check import get_check
from companion_app.device.status import strip_connected
from companion_app.store import TableNotFound, db, get_store, reveals
from scoring.games import get_game

#: settings key of the table the box follows (a table id).
FOLLOW_KEY = "device_table"
#: settings key of the table the box shows when nobody pointed it (a table id).
SHOWN_KEY = "device_shown"
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


def frame_body(table_id: str, connected: bool = True, drawn: dict | None = None) -> dict:
    """The panel's view of a table: the firmware-rendered pixels, seat states, reveal and the
    timeline of the strip; `connected` False (a bridge that lost its box): the violet dot;
    `drawn`: the box's animation anchors (its raid and countdown), None: the table's own."""
    table = get_store().get(table_id)
    current, tag = reveals.current_and_tag(table_id)
    display = get_game(table.game).device_display(table.state)
    return {
        "table": table.id,
        "etag": make_etag(table.version, tag),
        "reveal": None if current is None else current.as_json(),
        **device_frame.render(display, current, table.updated_at, connected=connected, drawn=drawn),
    }


def panel_frame(table_id: str, status: dict) -> dict:
    """`frame_body` as the bridge `status` (a snapshot) says the box draws it: the violet dot
    while its bridge cannot reach it, the box's own raid and countdown on the table it
    follows (issue 34 item 4); every other table's panel keeps the table's own timeline."""
    connected = strip_connected(status)
    drawn = status.get("drawn") if connected else None
    if drawn is not None and followed_table()["table"] != table_id:
        drawn = None
    return frame_body(table_id, connected=connected, drawn=drawn)


def _setting(key: str) -> object | None:
    """A stored setting's value, or None when it was never stored."""
    row = db.get_db().execute("SELECT value_json FROM settings WHERE key = ?", (key,)).fetchone()
    return None if row is None else json.loads(row["value_json"])


def _store_setting(key: str, value: object) -> None:
    """Store a setting (inside the caller's write transaction)."""
    db.get_db().execute(
        "INSERT INTO settings (key, value_json) VALUES (?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json",
        (key, json.dumps(value)),
    )


def _existing(table_id: object) -> str | None:
    """`table_id` if such a table exists and was not abandoned."""
    if not isinstance(table_id, str):
        return None
    found = (
        db.get_db()
        .execute(
            "SELECT 1 FROM tables WHERE id = ?"
            " AND id NOT IN (SELECT table_id FROM abandoned_tables)",
            (table_id,),
        )
        .fetchone()
    )
    return table_id if found else None


def in_play(table_id: str | None) -> bool:
    """True for a table that exists, is not finished and was not abandoned."""
    if table_id is None:
        return False
    row = (
        db.get_db()
        .execute(
            "SELECT 1 FROM tables WHERE id = ? AND finished = 0"
            " AND id NOT IN (SELECT table_id FROM abandoned_tables)",
            (table_id,),
        )
        .fetchone()
    )
    return row is not None


def _chosen_table() -> str | None:
    """The table id stored as the box's choice, if that table still exists."""
    chosen = _setting(FOLLOW_KEY)
    if chosen is None:
        return None
    found = db.get_db().execute("SELECT 1 FROM tables WHERE id = ?", (chosen,)).fetchone()
    return chosen if found else None


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


def _shown_table() -> str | None:
    """The table the box shows when nobody pointed it: the one it showed (kept when over,
    dropped when abandoned); before any was stored, the latest unfinished table."""
    shown = _setting(SHOWN_KEY)
    if shown is None:
        return _latest_unfinished()
    return _existing(shown)


def followed_table() -> dict:
    """`{"table": id | None, "chosen": bool}`: the table pointed at, else the one it shows."""
    chosen = _chosen_table()
    if chosen is not None:
        return {"table": chosen, "chosen": True}
    return {"table": _shown_table(), "chosen": False}


def follow(table_id: str | None) -> dict:
    """Point the box at `table_id` (TableNotFound if none); None: back to what it showed."""
    conn = db.get_db()
    with db.write_transaction(conn):
        if table_id is None:
            shown = followed_table()["table"]
            conn.execute("DELETE FROM settings WHERE key = ?", (FOLLOW_KEY,))
            if shown is not None:
                _store_setting(SHOWN_KEY, shown)  # the box keeps showing what it showed
        else:
            get_store().get(table_id)
            _store_setting(FOLLOW_KEY, table_id)
    return followed_table()


def take_if_free(table_id: str) -> bool:
    """A new table takes the box only if the box shows no table in play (True if it did).

    Otherwise the table it shows is pinned (SHOWN_KEY), so an older database's default no
    longer drifts to the newest table either.
    """
    conn = db.get_db()
    with db.write_transaction(conn):
        current = followed_table()
        if current["table"] != table_id and in_play(current["table"]):
            if not current["chosen"] and _setting(SHOWN_KEY) is None:
                _store_setting(SHOWN_KEY, current["table"])
            return False
        conn.execute("DELETE FROM settings WHERE key = ?", (FOLLOW_KEY,))
        _store_setting(SHOWN_KEY, table_id)
    return True


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
