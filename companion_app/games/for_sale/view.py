"""For Sale on the tablet: its setup form, table panels, move forms, history lines, calculator.

Nothing here decides what is legal; `actions(state)` does that. These helpers only arrange
what the state already says for the templates in `templates/for_sale/`.
"""

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion_app.games.for_sale import score as calculator
from companion_app.games.for_sale.seat import seat_label, seat_secrets
from companion_app.games.for_sale.text import bid_banner, setup_steps
from companion_app.games.forms import GENERAL_AREA, whole_number
from companion_app.i18n import money
from scoring.for_sale import buying, cards, queries
from scoring.for_sale import selling as selling_rules
from scoring.for_sale.results import results
from scoring.for_sale.selling import HOUSE_FIELD
from scoring.secrecy import is_hidden

GAME = "for_sale"
TITLE = _l("For Sale")
MIN_PLAYERS, MAX_PLAYERS = cards.MIN_PLAYERS, cards.MAX_PLAYERS
CATEGORY_LABELS = {"checks": _l("Checks"), "coins": _l("Coins")}
#: What breaks a tie of money (scoring.for_sale.results TIEBREAKS): the number of coins held.
TIEBREAK_LABELS = {"coins": _l("Coins held")}
#: The box's pixel groups in For Sale (docs/games/for_sale.md): progress and phase.
LED_LABELS = {"police": _l("Progress through the phase"), "round": _l("Phase: buying, selling")}
SCORE_ENDPOINT = calculator.ENDPOINT
ROUTES = calculator.ROUTES
#: The sale's lock-ins are part of the decision: the table page puts the box beside the controls.
BOX_BESIDE_CHOICE = True
#: The bidding banner and the setup steps, worded with the other texts (text.py).
__all__ = ["bid_banner", "seat_label", "seat_secrets", "setup_steps"]

PHASES = {
    "start": _l("Start player"),
    "buying": _l("Buying houses"),
    "auction": _l("Bidding"),
    "selling": _l("Selling houses"),
    "reveal": _l("Everyone chooses a house"),
    "game_over": _l("Game over"),
}
#: Which panel of the table page shows the refusal of each kind of move.
AREAS = {
    "start": "start",
    "houses": "houses",
    "bid": "auction",
    "pass": "auction",
    "checks": "checks",
    "sell": "sell",
}
PHASE_AREAS = {
    "start": ("start",),
    "buying": ("houses",),
    "auction": ("auction",),
    "selling": ("checks",),
    "reveal": ("sell",),
    "game_over": (),
}


def phase_label(phase: str) -> str:
    """The phase as the home list and the table head name it."""
    return str(PHASES.get(phase, phase))


def setup_context() -> dict:
    """Coins and cards in play by player count, for the table under the setup fields."""
    rows = [
        {
            "players": count,
            "coins": cards.COINS[count],
            "in_play": cards.in_play(count, False),
            "in_play_variant": cards.in_play(count, True),
        }
        for count in range(cards.MIN_PLAYERS, cards.MAX_PLAYERS + 1)
    ]
    return {"for_sale_counts": rows}


def parse_setup(form: MultiDict) -> dict:
    """Players, the variant and the refund rounding from the new-table form."""
    return {
        "players": [name for name in form.getlist("player") if name.strip()],
        "variant": form.get("variant") == "on",
        "refund": form.get("refund", "up"),
    }


def context(state: dict) -> dict:
    """Names the For Sale templates read besides the shell's."""
    final = results(state) if state["phase"] == "game_over" else None
    return {"phase_label": phase_label(state["phase"]), "fs": table_facts(state), "final": final}


def table_facts(state: dict) -> dict:
    """Round, counts and the running auction arranged for the templates."""
    selling = state["phase"] in ("selling", "reveal", "game_over")
    facts: dict = {
        "selling": selling,
        "round": queries.round_in_play(state),
        "houses_left": buying.houses_left(state),
        "checks_left": selling_rules.checks_left(state),
    }
    if state["auction"]:
        facts["bidders"] = bidders(state)
        facts["pass_gets"] = buying.pass_gets(state)
    return facts


def bidders(state: dict) -> list[dict]:
    """Everyone in seat order with their stack and whether they are still in this round."""
    running = state["auction"]
    return [
        {
            "seat": seat,
            "name": player["name"],
            "bid": player["bid"],
            "status": (
                "acting"
                if seat == running["turn"]
                else ("in" if seat in running["active"] else "passed")
            ),
        }
        for seat, player in enumerate(state["players"])
    ]


def bid_range(actions: dict) -> tuple[int | None, int | None]:
    """(lowest, highest) bid the form offers; no bid form when the lowest is None.

    While coins are held in secret the rules' limits are hidden (`scoring/for_sale/secrets.py`):
    the form then offers any bid above the highest (the rules still refuse one the bidder
    cannot pay), so the page never tells what the bidder holds or that they cannot raise.
    """
    low, top = actions["min_bid"], actions["max_bid"]
    if not is_hidden(low):
        return low, top
    return (0 if actions["high"] is None else actions["high"] + 1), None


def parse_move(form: MultiDict) -> dict:
    """The move a table-page form describes (fields as the rules name them)."""
    kind = form.get("type", "")
    move: dict = {"type": kind}
    if form.get("seat", "") != "":
        move["seat"] = whole_number(form["seat"])
    if kind == "houses":
        move["houses"] = [whole_number(value) for value in form.getlist("houses")]
    elif kind == "bid":
        coins = form.getlist("coins") or [""]  # typed, then a tapped quick bid's: the last counts
        move["coins"] = whole_number(coins[-1].strip())
    elif kind == "checks":
        move["checks"] = [whole_number(v) for v in form.getlist("checks") if v.strip()]
    elif kind == "sell":
        move["houses"] = _sale(form)
    return move


def _sale(form: MultiDict) -> list:
    """One revealed house per seat field on the form (empty: a seat without houses).

    A seat's field comes first empty, then as the tapped house chip, if any: the last counts.
    """
    houses = []
    for seat in range(cards.MAX_PLAYERS):
        field = HOUSE_FIELD.format(seat=seat)
        if field not in form:
            break
        text = form.getlist(field)[-1].strip()
        houses.append(whole_number(text) if text else None)
    return houses


def area_of(move: dict) -> str:
    """The panel that shows this move's errors."""
    return AREAS.get(move.get("type"), GENERAL_AREA)


def areas_shown(state: dict) -> tuple[str, ...]:
    """The panels of the table page that show their own errors in this phase."""
    return PHASE_AREAS.get(state["phase"], ())


def check_chips(state: dict, offered: list[int]) -> list[tuple[int, str]]:
    """One chip per check copy still unseen (two 0 checks are two chips), with its amount."""
    seen = state["checks_seen"]
    return [
        (value, money(value))
        for value in offered
        for _copy in range(cards.COPIES_PER_CHECK - seen.count(value))
    ]


def ranking(results: dict) -> list[dict]:
    """The players of `results(state)` best first (ties keep seat order)."""
    return sorted(results["players"], key=lambda row: (row["rank"], row["seat"]))


#: What a history line shows where the log holds a secret back (scoring/secrecy.log_view).
HIDDEN_TEXT = "?"


def _checks_text(checks: object) -> str:
    """A selling round's checks, highest first, or one "?" per check the log holds back."""
    if is_hidden(checks):
        return ", ".join([HIDDEN_TEXT] * checks.get("count", 1))  # type: ignore[union-attr]
    return ", ".join(money(v) for v in sorted(checks or [], reverse=True))  # type: ignore[arg-type]


def describe(move: dict | None, names: list[str]) -> str:
    """A history line for a move, in the page's language; "?" where the log holds a secret."""
    move = move or {}
    seat = move.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    kind = move.get("type")
    if kind == "start":
        return gettext("Start player by lot: %(name)s", name=name)
    if kind == "houses":
        houses = ", ".join(str(house) for house in sorted(move.get("houses") or []))
        return gettext("Houses turned over: %(houses)s", houses=houses)
    if kind == "bid":
        coins = HIDDEN_TEXT if is_hidden(move.get("coins")) else move.get("coins")
        if not isinstance(coins, int):
            return gettext("%(name)s bid %(coins)s coins", name=name, coins=coins)
        return ngettext("%(name)s bid %(num)s coin", "%(name)s bid %(num)s coins", coins, name=name)
    if kind == "pass":
        return gettext("%(name)s passed", name=name)
    if kind == "checks":
        return gettext("Checks turned over: %(checks)s", checks=_checks_text(move.get("checks")))
    if kind == "sell":
        sold = ", ".join(
            f"{names[seat]} {HIDDEN_TEXT if is_hidden(house) else house}"
            for seat, house in enumerate(move.get("houses") or [])
            if house is not None and seat < len(names)
        )
        return gettext("Houses revealed: %(sold)s", sold=sold)
    return str(kind)
