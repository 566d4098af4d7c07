"""Razzia! table setup: players, check sets by lot, the first state (RULES.md §1 "Checks")."""

import random

from scoring.common import only_known_fields, player_names
from scoring.errors import N_, IllegalMove, InvalidSetup, at_field, raise_all
from scoring.razzia import cards

#: Every field a Razzia! setup takes; any other is refused by name.
SETUP_KEYS = ("players",)


def new_table(setup: object) -> dict:
    """The state of a fresh table waiting for its check sets to be dealt."""
    names = _player_names(setup)
    count = len(names)
    return {
        "game": "razzia",
        "players": [{"name": name, "up": [], "down": [], "family": {}} for name in names],
        "sets": None,
        "phase": "deal",
        "round": 1,
        "centre": cards.CENTRE_START_CHECK,
        "row": [],
        "police": 0,
        "police_limit": cards.police_limit(count),
        "deck": dict(cards.CARD_COUNTS),
        "box": dict.fromkeys(cards.CARD_COUNTS, 0),
        "turn": 0,
        "auction": None,
        "round_end_reason": None,
        "rounds": [],
        "totals": [0] * count,
        "ranks": None,
    }


def _player_names(setup: object) -> list[str]:
    """Validated player names in seat order (clockwise)."""
    if not isinstance(setup, dict):
        raise InvalidSetup(N_("The table setup must be an object with a list of players."))
    only_known_fields(setup, SETUP_KEYS)
    return player_names(
        setup.get("players"),
        cards.MIN_PLAYERS,
        cards.MAX_PLAYERS,
        N_("Razzia! is played by 2 to 5 players, not {count}."),
    )


def set_labels(player_count: int) -> list[str]:
    """The labels of the check sets in play (A, B, ...)."""
    return list(cards.SET_LABELS[:player_count])


def draw_sets(player_count: int, rng: random.Random) -> list[str]:
    """Check-set labels per seat, drawn by lot."""
    labels = set_labels(player_count)
    rng.shuffle(labels)
    return labels


def validate_sets(sets: object, names: list[str]) -> list[str]:
    """The dealt labels, or IllegalMove if they are not one set per seat.

    The general sentence comes first; then every seat with a set the game does not have,
    every set dealt to several seats and every set dealt to nobody, so all show at once.
    """
    labels = set_labels(len(names))
    every = IllegalMove(
        N_("Deal each of the sets {labels} to exactly one seat."), labels=", ".join(labels)
    )
    if not isinstance(sets, list) or not all(isinstance(label, str) for label in sets):
        raise at_field(every, "sets")
    if sorted(sets) != labels:
        details = _set_refusals(sets, names, labels) if len(sets) == len(names) else []
        raise_all([at_field(refused, "sets") for refused in (every, *details)])
    return sets


def _set_refusals(sets: list[str], names: list[str], labels: list[str]) -> list[IllegalMove]:
    """Each seat's unknown set, each set dealt to several seats, each set dealt to nobody."""
    refusals = [
        IllegalMove(
            N_("{name}'s set: there is no set {label}; the sets are {labels}."),
            name=name,
            label=label[:12],
            labels=", ".join(labels),
        )
        for name, label in zip(names, sets, strict=True)
        if label not in labels
    ]
    for label in labels:
        holders = [name for name, dealt in zip(names, sets, strict=True) if dealt == label]
        if len(holders) > 1:
            refusals.append(
                IllegalMove(
                    N_("Set {label} is dealt to {names}; each set goes to one seat."),
                    label=label,
                    names=", ".join(holders),
                )
            )
    refusals += [
        IllegalMove(N_("No seat has set {label} yet."), label=label)
        for label in labels
        if label not in sets
    ]
    return refusals


def deal(state: dict, sets: list[str]) -> None:
    """Give each seat its check set face up; the highest check starts."""
    count = len(state["players"])
    for player, label in zip(state["players"], sets, strict=True):
        player["up"] = sorted(cards.CHECK_SETS[count][cards.SET_LABELS.index(label)])
    state["sets"] = list(sets)
    state["phase"] = "turn"
    state["turn"] = seat_with_highest_check(state)


def seat_with_highest_check(state: dict) -> int:
    """The seat holding the highest check (face up or down)."""
    players = state["players"]
    return max(
        range(len(players)), key=lambda seat: max(players[seat]["up"] + players[seat]["down"])
    )
