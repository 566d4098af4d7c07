"""Cech zlodějů on the tablet: setup with the card-cost table, the turn's one next step, history.

Nothing here decides what is legal; `scoring.thieves_guild` does. These helpers read form
fields into moves and arrange the state for `templates/thieves_guild/`.
"""

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion_app.games.forms import GENERAL_AREA, whole_number
from companion_app.games.thieves_guild import score as calculator
from companion_app.games.thieves_guild import text as words
from companion_app.i18n import translate_error
from companion_app.store import get_store
from scoring.errors import IllegalMove
from scoring.thieves_guild import queries, seats, turn
from scoring.thieves_guild.played import BANK
from scoring.thieves_guild.results import results
from scoring.thieves_guild.table import (
    FIRST_CARD_COST,
    GAME,
    MAX_COSTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    gold_each,
)

TITLE = _l("Cech zlodějů")
MIN_PLAYERS, MAX_PLAYERS = MIN_PLAYERS, MAX_PLAYERS
CATEGORY_LABELS = {"gold": _l("Gold")}
#: What breaks a tie of gold (scoring.thieves_guild.results TIEBREAKS), as the results name it.
TIEBREAK_LABELS = {"cards": _l("Cards in hand")}
#: The results' breakdown: the gold, and the cards that break a tie of it.
BREAKDOWN_TITLE = _l("Gold and cards in hand")
#: The score is the gold a player ends with, not points.
SCORE_LABEL = _l("Gold at the end")
#: The box's pixel groups in this game (docs/games/thieves_guild.md "The box").
LED_LABELS = {"police": _l("Loot roll"), "round": _l("Step of the turn")}
SCORE_ENDPOINT = calculator.ENDPOINT
ROUTES = calculator.ROUTES
#: History lines for moves (docs/game-views.md `describe`), kept with the other wording.
describe = words.describe
#: Card names from the Czech rulebook, offered as one-tap chips (any other name is typed).
KNOWN_CARDS = ("Špatná informace", "Černý Petr", "Alarm", "Trezor", "Drzost")
#: Gold amounts offered as chips on the card form (more is typed).
GOLD_CHIPS = range(1, 7)

#: The seat rule shown beside the target roll, by player count (RULES.md §3); 7-9 count freely.
SEAT_RULES = {
    3: _l("3 players: odd robs the left neighbour, even the right."),
    4: _l("4 players: 1-2 robs the left neighbour, 3-4 the one opposite, 5-6 the right."),
    5: _l("5 players: count left or right; a five lands on the robber, a six is rolled again."),
    6: _l("6 players: count left or right; a six lands on the robber."),
}
SEAT_RULE_DISTANCE = _l("Count the target roll left or right.")
PHASES = {
    "start": _l("Who starts?"),
    "buy": _l("Buying cards"),
    "reaction": _l("Loot rolled: cards may be played"),
    "aim": _l("Left or right?"),
    "robbery": _l("The robbery"),
    "ending": _l("Someone lost their last gold"),
    queries.RESUMED: _l("Everyone has gold again: play goes on"),
    "game_over": _l("Game over"),
}
#: Which panel of the table page shows the refusal of each kind of move.
AREAS = {
    "start": "step",
    "buy": "step",
    "loot": "step",
    "target": "step",
    "aim": "step",
    "rob": "step",
    "end_turn": "step",
    "settle": "step",
    "card": "card",
}
PHASE_AREAS = {
    "start": ("step",),
    "buy": ("step",),
    "reaction": ("step", "card"),
    "aim": ("step", "card"),
    "robbery": ("step", "card"),
    "ending": ("step", "card"),
    "game_over": (),
}


def phase_label(phase: str) -> str:
    """The phase as the home list and the table head name it."""
    return str(PHASES.get(phase, phase))


def last_costs() -> list[int]:
    """The card-cost table of the most recent Cech zlodějů table (it is the same every game)."""
    for table in get_store().list_tables():
        if table.game == GAME:
            return list(table.setup.get("card_costs") or [])
    return []


def setup_context() -> dict:
    """The card-cost fields, pre-filled from the last table's (only "1" is known otherwise)."""
    remembered = last_costs()
    return {
        "cost_fields": range(MAX_COSTS),
        "remembered_costs": remembered,
        "known_first": FIRST_CARD_COST,
        "gold_by_count": [
            (count, gold_each(count)) for count in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        ],
    }


def parse_setup(form: MultiDict) -> dict:
    """Players and the card-cost table from the new-table form (trailing blanks dropped)."""
    costs = [form.get(f"cost{index}", "").strip() for index in range(MAX_COSTS)]
    while costs and not costs[-1]:
        costs.pop()
    return {
        "players": [name for name in form.getlist("player") if name.strip()],
        "card_costs": [whole_number(cost) for cost in costs],
    }


def setup_error_area(refused: Exception) -> str:
    """A refusal of the card-cost table shows next to it; anything else by the players."""
    return "card_costs" if str(refused).startswith("card_costs") else "players"


def context(state: dict) -> dict:
    """Names the Cech zlodějů templates read besides the shell's."""
    final = results(state) if state["phase"] == "game_over" else None
    return {
        "phase_label": phase_label(queries.shown_phase(state)),
        "tg": table_facts(state),
        "final": final,
        "known_cards": KNOWN_CARDS,
        "gold_chips": GOLD_CHIPS,
        "bank_value": BANK,
    }


def table_facts(state: dict) -> dict:
    """The turn's facts arranged for the templates: whose turn, the rolls, the victim."""
    count = len(state["players"])
    robber = state["turn"]
    facts: dict = {
        "lap": queries.lap(state),
        "needs_direction": seats.needs_direction(count),
        "seat_rule": seat_rule(count),
    }
    if state["phase"] == "robbery":
        victim = turn.victim(state)
        facts["victim"] = victim
        if victim is not None:
            facts["takes"], fine = turn.takings(state, victim)
            facts["pauper"] = fine > 0
    if state["phase"] == "buy":
        refusal = turn.buy_refusal(state)
        facts["buy_refusal"] = (
            None if refusal is None else translate_error(IllegalMove(*refusal[:1], **refusal[1]))
        )
    if state["phase"] == "ending":
        facts["broke_names"] = [state["players"][seat]["name"] for seat in turn.broke(state)]
        facts["lost_by"] = state.get("lost_by")
    if state["phase"] == "aim":
        facts["sides"] = [
            (side, seats.victim(count, robber, state["target"], side)) for side in seats.DIRECTIONS
        ]
    return facts


def seat_rule(count: int) -> str:
    """The seat rule of this player count, as the rulebook states it."""
    return str(SEAT_RULES.get(count, SEAT_RULE_DISTANCE))


def parse_move(form: MultiDict) -> dict:
    """The move a table-page form describes (fields as the rules name them)."""
    kind = form.get("type", "")
    move: dict = {"type": kind}
    for field in ("seat", "roll"):
        if form.get(field, "") != "":
            move[field] = whole_number(form[field])
    if form.get("direction"):
        move["direction"] = form["direction"]
    if kind == "card":
        move.update(_card(form))
    if kind == "end_turn" and form.get("no_card"):
        move["no_card"] = True
    return move


def tapped_or_typed(form: MultiDict, chip: str, typed: str) -> str | list[str]:
    """A chip's value or the typed one; both, when they disagree, for the rules to refuse.

    A typed value never silently beats a chip tapped after it (nor the other way round).
    """
    tapped, written = form.get(chip, ""), form.get(typed, "").strip()
    if tapped and written and tapped != written:
        return [tapped, written]
    return written or tapped


def _card(form: MultiDict) -> dict:
    """The card form: its name, one gold effect, jail, Černý Petr, and whether it stopped."""
    fields: dict = {"card": tapped_or_typed(form, "card", "card_typed")}
    giver, to = form.get("from", ""), form.get("to", "")
    amount = tapped_or_typed(form, "gold", "gold_typed")
    if giver or to or amount:
        fields["transfers"] = [
            {
                "from": whole_number(giver),
                "to": to if to == BANK else whole_number(to),
                "gold": [whole_number(one) for one in amount]
                if isinstance(amount, list)
                else whole_number(amount),
            }
        ]
    if form.get("stop"):
        fields["stop"] = True
    for field in ("jail", "black_peter"):
        if form.get(field, "") != "":
            fields[field] = whole_number(form[field])
    if form.get("new_roll", "") != "":
        fields["roll"] = whole_number(form["new_roll"])
    return fields


def area_of(move: dict) -> str:
    """The panel that shows this move's errors."""
    return AREAS.get(move.get("type"), GENERAL_AREA)


def areas_shown(state: dict) -> tuple[str, ...]:
    """The panels of the table page that show their own errors in this phase."""
    return PHASE_AREAS.get(state["phase"], ())


def ranking(final: dict) -> list[dict]:
    """The players of `results(state)` best first (ties keep seat order)."""
    return sorted(final["players"], key=lambda row: (row["rank"], row["seat"]))
