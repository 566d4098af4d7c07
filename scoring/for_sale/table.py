"""For Sale table setup: players, variant, refund rounding and the first state (RULES.md §2)."""

from scoring.common import only_known_fields, player_names
from scoring.errors import N_, InvalidSetup
from scoring.for_sale import cards

#: Every field a For Sale setup takes; any other is refused by name.
SETUP_KEYS = ("players", "variant", "refund")


def new_table(setup: object) -> dict:
    """The state of a fresh table waiting for the start player to be drawn."""
    names, variant, rounding = _validate(setup)
    count = len(names)
    coins = cards.COINS[count]
    return {
        "game": "for_sale",
        "players": [
            {"name": name, "coins": coins, "bid": 0, "spent": 0, "houses": [], "checks": []}
            for name in names
        ],
        "variant": variant,
        "refund": rounding,
        "coins_each": coins,
        "in_play": cards.in_play(count, variant),
        "phase": "start",
        "start_player": None,
        "leader": None,
        "buying_round": 0,
        "selling_round": 0,
        "houses_seen": [],
        "checks_seen": [],
        "offer": [],
        "auction": None,
        "checks_up": [],
        "houses_out": [],
        "coins_out": 0,
        "sales": [],
        "ranks": None,
    }


def _validate(setup: object) -> tuple[list[str], bool, str]:
    """Names, variant flag and refund rounding of a valid setup, or InvalidSetup."""
    if not isinstance(setup, dict):
        raise InvalidSetup(N_("The table setup must be an object with a list of players."))
    only_known_fields(setup, SETUP_KEYS)
    variant = setup.get("variant", False)
    if not isinstance(variant, bool):
        raise InvalidSetup(N_("variant must be true or false."))
    rounding = setup.get("refund", "up")
    if rounding not in cards.REFUNDS:
        raise InvalidSetup(
            N_("refund must be up (the rulebook: half rounded up) or down (house rule).")
        )
    return _player_names(setup.get("players")), variant, rounding


def _player_names(names: object) -> list[str]:
    """Validated player names in seat order (clockwise)."""
    return player_names(
        names,
        cards.MIN_PLAYERS,
        cards.MAX_PLAYERS,
        N_("For Sale is played by 3 to 6 players, not {count}."),
    )
