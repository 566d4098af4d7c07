"""The JSON API: tables, moves, undo, history and the score-sheet calculator.

Views only check the shape of a request (JSON object, version an integer, move an object,
players a list of names); every rule lives in `scoring`, every write in the store.
"""

from dataclasses import replace

from flask import Blueprint, request, url_for

from companion_app.device import feed as device_feed
from companion_app.i18n import table_label
from companion_app.server import jsonio, rights
from companion_app.server.errors import ApiError
from companion_app.store import LogEntry, Table, get_store
from scoring import secrecy
from scoring.errors import RuleError
from scoring.games import game_names, get_game
from scoring.sheets import score_sheet

bp = Blueprint("api", __name__, url_prefix="/api")

BAD_REQUEST, UNSUPPORTED_MEDIA_TYPE, CREATED = 400, 415, 201
#: Tables a page of `GET /api/tables` lists (issue 33 item 5: 600 tables were 142 KB at once).
API_PAGE_SIZE = 100
#: Shown when a move is not an object with a string "type".
MOVE_EXAMPLE = '{"type": "draw", "seat": 0, "card": "ring"}'


def json_body() -> object:
    """The request's JSON body, or ApiError (415 wrong content type, 400 malformed)."""
    if not request.is_json:
        raise ApiError(
            UNSUPPORTED_MEDIA_TYPE,
            "Send the body as JSON with the header Content-Type: application/json.",
        )
    try:
        return jsonio.parse(request.get_data(cache=False), "The body")
    except jsonio.BadJson as exc:
        raise ApiError(BAD_REQUEST, str(exc)) from None


def object_body() -> dict:
    """The request's JSON body, which must be an object."""
    body = json_body()
    if not isinstance(body, dict):
        raise ApiError(BAD_REQUEST, f"The body must be a JSON object, not {_kind(body)}.")
    return body


def _kind(value: object) -> str:
    """The JSON name of a value's type, for messages."""
    names = {
        bool: "true/false",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)


def version_field(body: dict) -> int:
    """The `version` the client loaded: a whole number (not true/false)."""
    if "version" not in body:
        raise ApiError(BAD_REQUEST, "version: missing; send the table version you loaded.")
    version = body["version"]
    if type(version) is not int:
        raise ApiError(BAD_REQUEST, f"version must be a whole number, not {_kind(version)}.")
    return version


def table_json(table: Table) -> dict:
    """A table for API clients: its state plus what may be done now and the live standings.

    A reader without edit rights gets what anyone may see while the game runs: the players'
    secrets are markers (scoring/secrecy.py) and `hidden` names them.
    """
    if rights.can_edit(table.id):
        view = {**secrecy.full_view(table.state), "hidden": []}
    else:
        view = secrecy.public_view(table.state)
    return {
        "id": table.id,
        "game": table.game,
        "label": table_label(table),
        "version": table.version,
        "finished": table.finished,
        "abandoned": table.abandoned,
        "state": view["state"],
        "actions": view["actions"],
        "standings": view["standings"],
        "hidden": view["hidden"],
        "created_at": table.created_at.isoformat(),
        "updated_at": table.updated_at.isoformat(),
    }


def summary_json(table: Table) -> dict:
    """A table's summary for lists: totals a secret would give away are markers for viewers."""
    if rights.can_edit(table.id):
        return get_game(table.game).summary(table.state)
    return secrecy.public_view(table.state)["summary"]


def entry_json(entry: LogEntry) -> dict:
    """One history entry for API clients."""
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "move": entry.move,
        "undone": entry.undone,
        "undoes": entry.undoes,
        "created_at": entry.created_at.isoformat(),
    }


@bp.get("/tables")
def list_tables() -> tuple[dict, int, dict]:
    """The tables, most recent activity first (without live standings), API_PAGE_SIZE a page:
    `?page=N` (from 1); a `Link: <...>; rel="next"` header names the next page, if any."""
    page = _page_asked()
    found = get_store().list_tables(offset=(page - 1) * API_PAGE_SIZE, limit=API_PAGE_SIZE + 1)
    headers = {}
    if len(found) > API_PAGE_SIZE:
        headers["Link"] = f'<{url_for("api.list_tables", page=page + 1)}>; rel="next"'
    rows = [
        {
            "id": t.id,
            "game": t.game,
            "label": table_label(t),
            "version": t.version,
            "finished": t.finished,
            "summary": summary_json(t),
            "updated_at": t.updated_at.isoformat(),
        }
        for t in found[:API_PAGE_SIZE]
    ]
    return {"tables": rows}, 200, headers


def _page_asked() -> int:
    """The `page` argument: a whole number from 1 (1 when absent), else ApiError 400."""
    text = request.args.get("page", "1")
    if not (text.isdecimal() and len(text) < 7 and int(text) > 0):
        raise ApiError(BAD_REQUEST, f"page must be a whole number from 1, not {text[:20]!r}.")
    return int(text)


@bp.post("/tables")
def create_table() -> tuple[dict, int, dict]:
    """Start a table: {"game": "razzia", "players": ["Ann", "Bob", ...], "label": "Bar"}.

    `label` is optional (issue 32 item 6): without it the table is "Table <number>".
    A name that only differs from a roster person's by accents is refused (400 naming the
    person) unless "new_people" lists it: ["Cyril"] seats a new Cyril beside Cýril.
    """
    body = object_body()
    if "game" not in body:
        raise ApiError(BAD_REQUEST, f"game: missing; known games: {', '.join(game_names())}.")
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise ApiError(BAD_REQUEST, 'players must be a list of names, like ["Ann", "Bob"].')
    new_people = body.get("new_people", [])
    if not isinstance(new_people, list) or not all(isinstance(name, str) for name in new_people):
        raise ApiError(BAD_REQUEST, 'new_people must be a list of names, like ["Cyril"].')
    setup = {
        key: value for key, value in body.items() if key not in ("game", "new_people", "label")
    }
    try:
        table = get_store().create_table(
            body["game"],
            setup,
            origin=rights.origin(),
            new_people=new_people,
            label=body.get("label"),
        )
    except RuleError as refused:
        if not getattr(refused, "others", None):
            raise  # one refusal: {"error": ...} as for every other request
        return every_refusal(refused), BAD_REQUEST, {}
    rights.grant(table.id, rights.HOST)  # a browser session that creates a table hosts it
    device_feed.take_if_free(table.id)  # only if the box shows no game in play
    created = {
        **table_json(table),
        "edit_key": rights.table_key(table.id, rights.HOST),
        "scorer_key": rights.table_key(table.id, rights.SCORER),
    }
    return created, CREATED, {"Location": url_for("api.get_table", table_id=table.id)}


@bp.get("/tables/<table_id>")
def get_table(table_id: str) -> dict:
    """The table's current version, state, actions and standings."""
    return table_json(get_store().get(table_id))


@bp.post("/tables/<table_id>/moves")
def post_move(table_id: str) -> dict:
    """Apply one move: {"version": n, "move": {...}}; 409 if the table moved on."""
    body = object_body()
    version = version_field(body)
    move = body.get("move")
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise ApiError(BAD_REQUEST, f"move must be an object with a type, like {MOVE_EXAMPLE}.")
    try:
        return table_json(get_store().apply_move(table_id, move, version))
    except RuleError as refused:
        if not getattr(refused, "others", None):
            raise  # one refusal: {"error": ...} as for every other request
        return every_refusal(refused), BAD_REQUEST


def every_refusal(refused: RuleError) -> dict:
    """A refusal with several parts as the one API error shape: every sentence in "error"."""
    return {"error": " ".join(_sentence(str(each)) for each in (refused, *refused.others))}


def _sentence(text: str) -> str:
    """The text ending in a full stop, so joined refusals read as separate sentences."""
    return text if text.endswith((".", "!", "?")) else f"{text}."


@bp.post("/tables/<table_id>/undo")
def post_undo(table_id: str) -> dict:
    """Undo the latest active move: {"version": n}."""
    version = version_field(object_body())
    return table_json(get_store().undo(table_id, version))


@bp.post("/tables/<table_id>/abandon")
def abandon_table(table_id: str) -> dict:
    """The host gives up an unfinished table: out of lists, results and statistics."""
    return table_json(get_store().abandon(table_id))


@bp.post("/tables/<table_id>/restore")
def restore_table(table_id: str) -> dict:
    """The host brings back a table that left the home page (never moved for a day)."""
    return table_json(get_store().restore(table_id))


@bp.get("/tables/<table_id>/history")
def get_history(table_id: str) -> dict:
    """Every move and undo in order; undone moves are kept and flagged.

    A reader without edit rights gets, while the game runs, the fields that would give a
    players' secret away as markers (scoring.secrecy.log_view), undone moves too, and
    `hidden` naming them; with a key or from this computer all of it, `"hidden": []`.
    """
    store = get_store()
    table = store.get(table_id)
    entries = store.history(table_id)
    moves = [entry.move for entry in entries]
    log = secrecy.log_view(table.state, moves, reveal=rights.can_edit(table_id))
    shown = [replace(entry, move=move) for entry, move in zip(entries, log["moves"], strict=True)]
    return {
        "id": table_id,
        "version": len(entries),
        "history": [entry_json(entry) for entry in shown],
        "hidden": log["hidden"],
    }


@bp.post("/score")
def post_score() -> dict:
    """The score-sheet calculator (SCORESHEETS.md): the sheet in, the breakdown out."""
    return score_sheet(json_body())
