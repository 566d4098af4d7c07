"""Razzia! on the tablet: its setup form, table panels, move forms and history lines.

Nothing here decides what is legal; `actions(state)` does that. These helpers only
arrange what the state already says for the templates in `templates/razzia/`.
"""

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion_app.games.forms import GENERAL_AREA, whole_number
from companion_app.games.razzia import score as calculator
from companion_app.games.razzia.text import deal_steps, round_end_steps, turn_banner
from companion_app.i18n import labels, money
from scoring.razzia import cards
from scoring.secrecy import is_hidden

GAME = "razzia"
TITLE = _l("Razzia!")
MIN_PLAYERS, MAX_PLAYERS = cards.MIN_PLAYERS, cards.MAX_PLAYERS
CATEGORY_LABELS = labels.CATEGORIES
SCORE_ENDPOINT = "score_razzia"
#: The head's banner and the round-end steps, worded with the other texts (text.py).
__all__ = ["deal_steps", "round_end_steps", "turn_banner"]
ROUTES = [("/score/razzia", SCORE_ENDPOINT, calculator.score_form, ["GET", "POST"])]

#: Which panel of the table page shows the refusal of each kind of move.
AREAS = {
    "deal": "deal",
    "draw": "draw",
    "thief": "thief",
    "forced_auction": "forced",
    "bid": "auction",
    "pass": "auction",
    "next_round": "next_round",
}
#: The panels that show their own errors in each phase; others go to the top of the page.
PHASE_AREAS = {
    "deal": ("deal",),
    "turn": ("draw", "thief", "forced"),
    "auction": ("auction",),
    "round_end": ("next_round",),
    "game_over": (),
}


def phase_label(phase: str) -> str:
    """The phase as the home list and the table head name it."""
    return str(labels.PHASES.get(phase, phase))


def setup_context() -> dict:
    """The variants table shown under the player names."""
    return {"variants": variants()}


def parse_setup(form: MultiDict) -> dict:
    """Razzia! needs only the seated players."""
    return {"players": [name for name in form.getlist("player") if name.strip()]}


def context(state: dict) -> dict:
    """Names the Razzia! table templates read besides the shell's."""
    return {"row_limit": cards.ROW_LIMIT, "rounds": cards.ROUNDS}


def parse_move(form: MultiDict) -> dict:
    """The move a table-page form describes (fields as the rules name them)."""
    move: dict = {"type": form.get("type", "")}
    if "seat" in form:
        move["seat"] = whole_number(form["seat"])
    kind = move["type"]
    if kind == "draw":
        move["card"] = form.get("card", "")
    elif kind == "thief":
        move["take"] = form.getlist("take")
    elif kind == "bid":
        move["check"] = whole_number(form.get("check", ""))
    elif kind == "deal" and form.get("how") == "by_hand":
        move["sets"] = _sets(form)
    return move


def _sets(form: MultiDict) -> list[str]:
    """The set each seat drew, tapped as one chip row per seat ("set0", "set1" ...)."""
    sets = []
    while f"set{len(sets)}" in form:
        sets.append(form[f"set{len(sets)}"])
    return sets or form.getlist("sets")


def area_of(move: dict) -> str:
    """The panel that shows this move's errors."""
    return AREAS.get(move.get("type"), GENERAL_AREA)


def areas_shown(state: dict) -> tuple[str, ...]:
    """The panels of the table page that show their own errors in this phase."""
    return PHASE_AREAS.get(state["phase"], ())


def family_groups(family: dict) -> list[dict]:
    """A family's loot by group (jewelry, others, businesses), only the kinds held."""
    groups = []
    for key, (label, kinds) in labels.GROUPS.items():
        held = [(kind, labels.kind(kind), family[kind]) for kind in kinds if family.get(kind)]
        if held:
            groups.append({"key": key, "label": label, "cards": held})
    return groups


def draw_order(offered: list[str]) -> list[tuple[str, str]]:
    """The loot kinds the actor may turn up, in the family layout order, with labels."""
    return [
        (kind, labels.kind(kind))
        for _label, kinds in labels.GROUPS.values()
        for kind in kinds
        if kind in offered
    ]


def auction_seats(state: dict) -> list[dict]:
    """Each bidder of the running auction in order, with their bid, pass or waiting status."""
    running = state["auction"]
    said = {bid["seat"]: bid["check"] for bid in running["bids"]}
    seats = []
    for position, seat in enumerate(running["order"]):
        if seat in said:
            status = "bid" if said[seat] is not None else "passed"
        else:
            status = "acting" if position == running["next"] else "waiting"
        seats.append(
            {
                "seat": seat,
                "name": state["players"][seat]["name"],
                "status": status,
                "check": said.get(seat),
            }
        )
    return seats


def variants() -> list[dict]:
    """The player-count variants: checks in play, checks per player, police that end a round."""
    rows = []
    for count in range(cards.MIN_PLAYERS, cards.MAX_PLAYERS + 1):
        in_play = cards.checks_in_play(count)
        rows.append(
            {
                "players": count,
                "low": min(in_play),
                "high": max(in_play),
                "per_player": len(cards.CHECK_SETS[count][0]),
                "police": cards.police_limit(count),
            }
        )
    return rows


def check_sets(count: int) -> dict[str, tuple[int, ...]]:
    """The checks of each set label (A: 2,000, 6,000, 13,000 ...) for this many players."""
    return dict(zip(cards.SET_LABELS, cards.CHECK_SETS[count], strict=False))


def ranking(state: dict) -> list[dict]:
    """The final ranking as the rules ranked it, best first (ties keep seat order)."""
    rows = [
        {"seat": seat, "name": player["name"], "total": total, "rank": rank}
        for seat, (player, total, rank) in enumerate(
            zip(state["players"], state["totals"], state["ranks"] or [], strict=False)
        )
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


#: What a history line shows where the log holds a secret back (scoring/secrecy.log_view).
HIDDEN_TEXT = "?"


def describe(move: dict | None, names: list[str]) -> str:
    """A history line for a move, in the page's language; "?" where the log holds a secret."""
    move = move or {}
    seat = move.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    kind = move.get("type")
    if kind == "deal":
        sets = ", ".join(f"{n}: {s}" for n, s in zip(names, move.get("sets") or [], strict=False))
        return gettext("Check sets dealt (%(sets)s)", sets=sets)
    if kind == "draw":
        return gettext(
            "%(name)s turned up: %(card)s", name=name, card=labels.kind(str(move.get("card")))
        )
    if kind == "thief":
        taken = ", ".join(labels.kind(str(card)) for card in move.get("take") or [])
        return gettext("%(name)s used thieves to take: %(cards)s", name=name, cards=taken)
    if kind == "forced_auction":
        return gettext("%(name)s called a forced auction", name=name)
    if kind == "bid":
        check = move.get("check")
        shown = HIDDEN_TEXT if is_hidden(check) else money(check)
        return gettext("%(name)s bid %(check)s", name=name, check=shown)
    if kind == "pass":
        return gettext("%(name)s passed", name=name)
    if kind == "next_round":
        return gettext("Next round started")
    return str(kind)
