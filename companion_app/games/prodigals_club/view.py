"""Klub ztroskotanců on the tablet: setup with board values, the scorekeeper's panels, history.

Nothing here decides what is legal; the rules in `scoring/prodigals_club` do. These helpers
read form fields into moves and arrange the state for `templates/prodigals_club/`.
"""

import re

from flask import has_request_context, request
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion_app.games.forms import GENERAL_AREA, whole_number
from companion_app.games.prodigals_club import chart as chart_form
from companion_app.games.prodigals_club import notes
from companion_app.games.prodigals_club import score as calculator
from companion_app.games.prodigals_club import text as words
from companion_app.games.prodigals_club.text import notice_text, tile_text
from companion_app.store import get_store
from scoring.prodigals_club import board
from scoring.prodigals_club.board import GAME, HYDE_PARK_PLACES, ROUNDS
from scoring.prodigals_club.chart import SOCIETY_TOKENS
from scoring.prodigals_club.queries import results
from scoring.prodigals_club.rounds import next_order

TITLE = _l("Klub ztroskotanců")
MIN_PLAYERS, MAX_PLAYERS = board.MIN_PLAYERS, board.MAX_PLAYERS
CATEGORY_LABELS = {
    "property": _l("Property"),
    "legacy": _l("Legacy"),
    "election": _l("Election"),
    "society": _l("Society"),
}
#: What breaks a tie of final scores (scoring.prodigals_club.queries TIEBREAKS); lower wins.
TIEBREAK_LABELS = {
    "second_highest": _l("Second-highest score"),
    "third_highest": _l("Third-highest score"),
}
#: The box's pixel groups in Klub (docs/games/prodigals_club.md): the step, then the round.
LED_LABELS = {"police": _l("Step of the round"), "round": _l("Round")}
PHASES = {
    "order": _l("Turn order"),
    "play": _l("Actions"),
    "hyde_park": _l("Hyde Park"),
    "old_lady": _l("Old Lady"),
    "round_end": _l("End of round"),
    "game_over": _l("Game over"),
}
#: History lines for moves (docs/game-views.md `describe`), kept with the other wording.
describe = words.describe
SCORE_ENDPOINT = "score_prodigals_club"
ROUTES = [("/score/prodigals_club", SCORE_ENDPOINT, calculator.score_form, ["GET", "POST"])]
#: Board-value fields of the setup form (single numbers).
BOARD_FIELDS = ("messengers", "money", "districts", "district", "votes")
#: Board values the setup form copies from an earlier table: not the district marker, which
#: starts on a district drawn at random (RULES.md §5; seed: "náhodně zvolenou čtvrť").
REMEMBERED_FIELDS = tuple(name for name in BOARD_FIELDS if name != "district")
#: A tile typed as "value/district", e.g. "5/2".
TILE_TEXT = re.compile(r"^\s*(-?\d+)\s*/\s*(-?\d+)\s*$")
#: A Legacy property chosen in a list: "seat:id", e.g. "0:2".
PROPERTY_CHOICE = re.compile(r"^\s*(\d+):(\d+)\s*$")
#: An owned tile tapped as a chip: "seat:value/district", e.g. "1:5/2" (the tile names its owner).
OWNED_TILE = re.compile(r"^\s*(\d+):(.*)$")
#: The one-tap steppers ("votes:-1"): the move each stands for, and its amount of 1.
STEPS = {
    "votes:-1": {"type": "votes", "delta": -1},
    "votes:+1": {"type": "votes", "delta": 1},
    "cash:-1": {"type": "property", "action": "spend", "amount": 1},
    "cash:+1": {"type": "property", "action": "receive", "amount": 1},
    "legacy:-1": {"type": "legacy", "action": "spend", "amount": 1},
    "legacy:+1": {"type": "legacy", "action": "receive", "amount": 1},
}
#: The panel of the steppers, which shows their refusals.
STEPS_AREA = "steps"
#: Which panel shows the refusal of each move; property entries by action.
AREAS = {
    "order": "order",
    "votes": "votes",
    "society": "society",
    "reserve": "reserve",
    "end_actions": "end_actions",
    "hyde_park": "hyde_park",
    "old_lady": "old_lady",
    "end_round": "end_round",
}
PROPERTY_ACTIONS = ("add", "sell", "exchange", "spend", "receive", "set_cash")
LEGACY_ACTIONS = ("spend", "receive", "set_cash", "add", "value", "remove")
PHASE_AREAS = {
    "order": ("order",),
    "play": (
        STEPS_AREA,
        *(f"property-{action}" for action in PROPERTY_ACTIONS),
        *(f"legacy-{action}" for action in LEGACY_ACTIONS),
        "votes",
        "society",
        "reserve",
        "end_actions",
    ),
    "hyde_park": ("hyde_park",),
    "old_lady": (STEPS_AREA, "society", "old_lady"),
    "round_end": ("end_round",),
    "game_over": (),
}
#: Setup fields a refusal can name ("money: ..."); anything else shows by the players.
SETUP_FIELDS = (
    *BOARD_FIELDS,
    "competitions",
    "hyde_park",
    "society_tokens",
    "society_range",
    "society_chart",
)


def phase_label(phase: str) -> str:
    """The phase as the home list and the table head name it."""
    return str(PHASES.get(phase, phase))


def last_setups() -> dict[int, dict]:
    """Player count -> the setup of the most recent Klub table with that many players.

    Starting money, votes and messengers are per player count (RULES.md §5), so a table
    only copies the board values of one with as many players.
    """
    found: dict[int, dict] = {}
    for table in get_store().list_tables():
        if table.game == GAME:
            found.setdefault(len(table.setup.get("players") or []), table.setup)
    return found


def _player_count() -> int | None:
    """The player count the setup page was asked to pre-fill for (`?players=3`), if any."""
    count = whole_number(request.args.get("players"))
    return count if isinstance(count, int) and MIN_PLAYERS <= count <= MAX_PLAYERS else None


def _text(value: object) -> str:
    """A remembered value as the form shows it ("" when none)."""
    return "" if value is None else str(value)


def remembered_fields(setup: dict) -> dict:
    """Form field -> value from a previous setup (board values and competitions)."""
    values = setup.get("board") or {}
    fields = {name: _text(values.get(name)) for name in REMEMBERED_FIELDS}
    for round_no, column in enumerate(values.get("hyde_park") or []):
        for place, loss in enumerate(column):
            fields[f"hp{round_no + 1}_{place + 1}"] = _text(loss)
    for index, value in enumerate(values.get("society_tokens") or []):
        fields[f"token{index}"] = _text(value)
    low_high = values.get("society_range") or [None, None]
    fields["society_low"], fields["society_high"] = (_text(value) for value in low_high)
    fields["competitions"] = list(setup.get("competitions") or ["property", "election"])
    return fields


def setup_context() -> dict:
    """The board-value fields pre-filled from the last Klub table with as many players."""
    setups = last_setups()
    count = _player_count()
    remembered = remembered_fields(setups.get(count, {}) if count else {})
    return {
        # The chart is the same printed board at any player count: always pre-filled.
        "remembered": {**chart_form.remembered_chart(), **remembered},
        **chart_form.setup_grid(),
        "prefill_counts": sorted(setups),
        "prefill_count": count,
        "competition_labels": CATEGORY_LABELS,
        "rounds": range(1, ROUNDS + 1),
        "places": range(1, HYDE_PARK_PLACES + 1),
        "token_fields": range(SOCIETY_TOKENS),
    }


def _optional_range(form: MultiDict) -> list | None:
    """The society chart range, or None when both ends are blank."""
    low, high = form.get("society_low", "").strip(), form.get("society_high", "").strip()
    if not low and not high:
        return None
    return [whole_number(low), whole_number(high)]


def parse_setup(form: MultiDict) -> dict:
    """Players, competitions and board values from the new-table form."""
    entered: dict = {name: whole_number(form.get(name, "").strip()) for name in BOARD_FIELDS}
    entered["hyde_park"] = [
        [whole_number(form.get(f"hp{r}_{p}", "").strip()) for p in range(1, HYDE_PARK_PLACES + 1)]
        for r in range(1, ROUNDS + 1)
    ]
    entered["society_tokens"] = [
        whole_number(form.get(f"token{index}", "").strip()) for index in range(SOCIETY_TOKENS)
    ]
    entered["society_range"] = _optional_range(form)
    entered["society_chart"] = chart_form.parse_chart(form)
    return {
        "players": [name for name in form.getlist("player") if name.strip()],
        "competitions": form.getlist("competition"),
        "board": entered,
    }


def setup_error_area(refused: Exception) -> str:
    """The setup field a refusal names, so it shows next to that field."""
    field = str(refused).split(":", 1)[0]
    return field if field in SETUP_FIELDS else "players"


def context(state: dict) -> dict:
    """Names the Klub table templates read besides the shell's."""
    order = state["order"] or list(range(len(state["players"])))
    return {
        "rounds": ROUNDS,
        "labels_pc": CATEGORY_LABELS,
        "phase_name": phase_label(state["phase"]),
        "turn_order": order,
        "next_order": next_order(order, state["reserved"]) if state["order"] else order,
        "notice": notice_text(state),
        "property_actions": PROPERTY_ACTIONS,
        "legacy_choices": legacy_choices(state),
        "no_handicaps": "legacy" in state["competitions"],
        "token_fields": range(SOCIETY_TOKENS),
        "handicap_lines": handicap_lines(state),
        "hyde_park_table": state["board"].get("hyde_park"),
        "tile_text": tile_text,
        "picked": picked_seat(state),
        "token_rows": chart_form.token_rows(state),
        "change_notes": notes.change_notes(state),
    }


def picked_seat(state: dict) -> int | None:
    """The player whose row was tapped (`?seat=1`): chosen in every form of the page."""
    if not has_request_context():
        return None
    seat = whole_number(request.args.get("seat"))
    return seat if isinstance(seat, int) and 0 <= seat < len(state["players"]) else None


def parse_tile(text: str | None) -> object:
    """A tile typed as "value/district"; anything else stays text for the rules to refuse."""
    found = TILE_TEXT.match(text or "")
    if not found:
        return text
    return {"value": int(found.group(1)), "district": int(found.group(2))}


def parse_tiles(text: str | None) -> list:
    """Several tiles separated by spaces or commas."""
    return [parse_tile(part) for part in re.split(r"[\s,;]+", text or "") if part]


def _owned_tile(form: MultiDict, name: str, move: dict) -> object:
    """A tile tapped as "seat:value/district": its owner becomes the move's seat."""
    text = form.get(name)
    found = OWNED_TILE.match(text or "")
    if not found:
        return parse_tile(text)
    move["seat"] = int(found.group(1))
    return parse_tile(found.group(2))


def _order(form: MultiDict) -> list:
    """The turn order by hand: one chip row per place ("order0", "order1" ...)."""
    places = []
    while f"order{len(places)}" in form:
        places.append(whole_number(form[f"order{len(places)}"]))
    return places or _numbers(form, "order")


def _numbers(form: MultiDict, name: str) -> list:
    """A list field of numbers, one input each."""
    return [whole_number(value.strip()) for value in form.getlist(name)]


def _property_move(form: MultiDict, move: dict) -> None:
    """The fields of a property entry, by its action."""
    action = form.get("action", "")
    move["action"] = action
    if action == "add":
        move["tiles"] = parse_tiles(form.get("tiles"))
    elif action == "sell":
        move["tile"] = _owned_tile(form, "tile", move)
        discount = form.get("discount", "").strip()
        move["discount"] = whole_number(discount) if discount else 0
    elif action == "exchange":
        move["give"] = _owned_tile(form, "give", move)
        move["take"] = parse_tile(form.get("take"))
        limit = form.get("limit", "").strip()
        move["limit"] = whole_number(limit) if limit else None
    elif action in ("spend", "receive"):
        move["amount"] = whole_number(form.get("amount", "").strip())
    elif action == "set_cash":
        move["cash"] = whole_number(form.get("cash", "").strip())


def _legacy_move(form: MultiDict, move: dict) -> None:
    """The fields of a Legacy entry; a property is chosen as "seat:id" (owner and property)."""
    action = form.get("action", "")
    move["action"] = action
    if action in ("spend", "receive"):
        move["amount"] = whole_number(form.get("amount", "").strip())
    elif action == "set_cash":
        move["cash"] = whole_number(form.get("cash", "").strip())
    elif action == "add":
        move["label"] = form.get("label", "")
        move["value"] = whole_number(form.get("value", "").strip())
    elif action in ("value", "remove"):
        chosen = form.get("property", "")
        found = PROPERTY_CHOICE.match(chosen)
        if found:
            move["seat"], move["property"] = int(found.group(1)), int(found.group(2))
        else:
            move["property"] = chosen
        if action == "value":
            move["value"] = whole_number(form.get("value", "").strip())


def parse_move(form: MultiDict) -> dict:
    """The move a table-page form describes (fields as the rules name them)."""
    kind = form.get("type", "")
    move: dict = {"type": kind}
    if "seat" in form:
        move["seat"] = whole_number(form["seat"])
    if kind == "step":
        step = form.get("step", "")
        known = STEPS.get(step) or chart_form.token_step(step) or {"type": "step"}
        return {**known, "seat": move.get("seat")}
    if kind == "order" and form.get("how") == "by_hand":
        move["order"] = _order(form)
    elif kind == "property":
        _property_move(form, move)
    elif kind == "legacy":
        _legacy_move(form, move)
    elif kind == "votes":
        move["delta"] = whole_number(form.get("delta", "").strip())
    elif kind == "society":
        tokens = _numbers(form, "tokens")
        total = form.get("sum", "").strip()
        if any(value != "" for value in tokens):
            move["tokens"] = tokens
            if total:
                move["sum"] = whole_number(total)  # the rules refuse one that disagrees
        else:
            move["sum"] = whole_number(total)
    elif kind == "reserve":
        move["place"] = whole_number(form.get("place", ""))
    elif kind == "hyde_park":
        move["megaphones"] = [
            None if value == "" else value for value in _numbers(form, "megaphones")
        ]
    elif kind == "old_lady":
        move["exempt"] = _numbers(form, "exempt")
    return move


def area_of(move: dict) -> str:
    """The panel that shows this move's errors (a stepper's, by the steppers)."""
    if has_request_context() and request.form.get("type") == "step":
        return STEPS_AREA
    action = move.get("action")
    if move.get("type") == "property":
        return f"property-{action}" if action in PROPERTY_ACTIONS else "property-add"
    if move.get("type") == "legacy":
        return f"legacy-{action}" if action in LEGACY_ACTIONS else "legacy-add"
    return AREAS.get(move.get("type"), GENERAL_AREA)


def _panel_shown(area: str, playing: list[str]) -> bool:
    """Whether a panel of the actions step is on the page for these competitions."""
    if area.startswith(("property-", "legacy-")):
        return area.split("-")[0] in playing
    if area == "votes":
        return "election" in playing
    if area == "society":
        return "society" in playing
    if area == "reserve":
        # With Legacy the Last Will rules set the turn order, so no reservation panel.
        return "legacy" not in playing
    return True


def areas_shown(state: dict) -> tuple[str, ...]:
    """The panels of the table page that show their own errors in this phase."""
    areas = PHASE_AREAS.get(state["phase"], ())
    if state["phase"] != "play":
        return areas
    return tuple(area for area in areas if _panel_shown(area, state["competitions"]))


def handicap_lines(state: dict) -> list[dict]:
    """Round 1's handicap checklist in round 1's turn order: who gets what (RULES.md §5)."""
    if not state["handicaps"] or state["round"] != 1:
        return []
    return [
        {"seat": seat, "name": state["players"][seat]["name"], **state["handicaps"][seat]}
        for seat in state["order"]
    ]


def legacy_choices(state: dict) -> list[dict]:
    """Every Legacy property on the table, for the revalue and remove lists ("seat:id")."""
    if "legacy" not in state["competitions"]:
        return []
    return [
        {
            "value": f"{seat}:{item['id']}",
            "name": player["name"],
            "label": item["label"],
            "id": item["id"],
            "worth": item["value"],
        }
        for seat, player in enumerate(state["players"])
        for item in player["legacy"]["properties"]
    ]


def order_names(order: list[int], names: list[str]) -> str:
    """A turn order as names, first player first."""
    return ", ".join(names[seat] for seat in order)


def final_rows(state: dict) -> list[dict]:
    """The results' players best first (ties keep seat order)."""
    rows = results(state)["players"]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))
