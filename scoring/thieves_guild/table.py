"""Cech zlodějů table setup: players, gold, cards and the card-cost table (RULES.md §3)."""

from scoring.common import only_known_fields, player_names
from scoring.errors import N_, InvalidSetup, RuleError, raise_all

GAME = "thieves_guild"
MIN_PLAYERS = 3
MAX_PLAYERS = 9
#: The box holds 120 gold tokens and 50 cards (RULES.md §3 "Material").
GOLD_IN_BOX = 120
CARDS_IN_BOX = 50
CARDS_EACH = 3
#: Gold dealt to each player: 13, or 20 with three players (seed: "Varianta hry pro 3 hráče").
GOLD_EACH = 13
GOLD_EACH_THREE = 20
#: The only entry of the card-cost table the seed kept: "První karta stojí jeden zlatý".
FIRST_CARD_COST = 1
#: Entries the setup form offers for the card-cost table (a board value, asked at setup).
MAX_COSTS = 10
#: Every field a Cech zlodějů setup takes; any other is refused by name.
SETUP_KEYS = ("players", "card_costs")


def gold_each(players: int) -> int:
    """Gold dealt to each player at this player count."""
    return GOLD_EACH_THREE if players == MIN_PLAYERS else GOLD_EACH


def new_table(setup: object) -> dict:
    """The state of a fresh table waiting for the first player (highest roll or by lot)."""
    if not isinstance(setup, dict):
        raise InvalidSetup(N_("The table setup must be an object with a list of players."))
    only_known_fields(setup, SETUP_KEYS)
    names, costs = _checked_setup(setup)
    gold = gold_each(len(names))
    return {
        "game": GAME,
        "players": [{"name": name, "gold": gold, "cards": CARDS_EACH} for name in names],
        "card_costs": costs,
        "gold_each": gold,
        "bank": 0,
        "supply": GOLD_IN_BOX - gold * len(names),
        "deck": CARDS_IN_BOX - CARDS_EACH * len(names),
        "discard": 0,
        "black_peter": None,
        "jailed": [],
        "phase": "start",
        "start_player": None,
        "turn": None,
        "turn_no": 0,
        "bought": 0,
        "cards_played": 0,
        "loot": None,
        "target": None,
        "direction": None,
        "resume": None,
        "lost_by": None,
        "ranks": None,
    }


def _checked_setup(setup: dict) -> tuple[list[str], list[int]]:
    """The players and the card-cost table; every refusal among them raised at once."""
    refusals: list[RuleError] = []
    names: list[str] = []
    costs: list[int] = []
    try:
        names = player_names(
            setup.get("players"),
            MIN_PLAYERS,
            MAX_PLAYERS,
            N_("Cech zlodějů is played by 3 to 9 players, not {count}."),
        )
    except InvalidSetup as refused:
        refusals.append(refused)
    try:
        costs = card_costs(setup.get("card_costs"))
    except InvalidSetup as refused:
        refusals += [refused, *getattr(refused, "others", [])]
    raise_all(refusals)
    return names, costs


def card_costs(costs: object) -> list[int]:
    """The card-cost table as entered: 1 for the first card, each further card dearer."""
    if (
        not isinstance(costs, list)
        or not 1 <= len(costs) <= MAX_COSTS
        or not all(type(cost) is int for cost in costs)
    ):
        raise InvalidSetup(
            N_(
                "card_costs: enter the card-cost table from the rulebook: the price of the "
                "1st, 2nd, 3rd ... card bought in one turn, whole numbers, 1 to {most} of them."
            ),
            most=MAX_COSTS,
        )
    # Every wrong price is named at once, so the table fixes the whole list in one go.
    refusals = []
    if costs[0] != FIRST_CARD_COST:
        refusals.append(
            InvalidSetup(
                N_("card_costs: the first card costs 1 gold (the rulebook says so), not {cost}."),
                cost=costs[0],
            )
        )
    for position in range(1, len(costs)):
        if not costs[position - 1] < costs[position] <= GOLD_IN_BOX:
            refusals.append(
                InvalidSetup(
                    N_(
                        "card_costs: card {number} costs {cost}; each further card in a turn "
                        "costs more than the one before (and at most 120 gold)."
                    ),
                    number=position + 1,
                    cost=costs[position],
                )
            )
    raise_all(refusals)
    return list(costs)
