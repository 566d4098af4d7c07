"""Translated labels for the game's words: loot kinds, score categories, reasons, phases.

Czech terms follow the Czech Razzia! rulebook. Values are lazy strings, so the
dicts live at import time and translate when a page renders them.
"""

from flask_babel import lazy_gettext as _l

from scoring.razzia import cards

KINDS = {
    "ring": _l("ring"),
    "watch": _l("watch"),
    "brooch": _l("brooch"),
    "necklace": _l("necklace"),
    "diamond": _l("diamond"),
    "bodyguard": _l("bodyguard"),
    "car": _l("car"),
    "driver": _l("driver"),
    "thief": _l("thief"),
    "gold": _l("gold coins"),
    "casino": _l("casino"),
    "transport": _l("transport"),
    "film": _l("film"),
    "horse_racing": _l("horse racing"),
    "real_estate": _l("real estate"),
    "nightclub": _l("nightclub"),
    "restaurant": _l("restaurant"),
    cards.POLICE: _l("police officer"),
}

#: Several cards of a kind, as score-sheet messages name them ("5 rings at the table").
PLURAL_KINDS = {
    "ring": _l("rings"),
    "watch": _l("watches"),
    "brooch": _l("brooches"),
    "necklace": _l("necklaces"),
    "diamond": _l("diamonds"),
    "bodyguard": _l("bodyguards"),
    "car": _l("cars"),
    "driver": _l("drivers"),
    "thief": _l("thieves"),
    "gold": _l("gold coins"),
    "casino": _l("casino cards"),
    "transport": _l("transport cards"),
    "film": _l("film cards"),
    "horse_racing": _l("horse racing cards"),
    "real_estate": _l("real estate cards"),
    "nightclub": _l("nightclub cards"),
    "restaurant": _l("restaurant cards"),
    cards.POLICE: _l("police cards"),
}

#: Loot groups in the order a family lays them out.
GROUPS = {
    "jewelry": (_l("Jewelry"), cards.JEWELRY),
    "others": (_l("Cars, drivers, bodyguards, thieves, gold"), cards.OTHER_LOOT),
    "businesses": (_l("Businesses"), cards.BUSINESSES),
}

CATEGORIES = {
    "cars_drivers": _l("Cars and drivers"),
    "jewelry": _l("Jewelry"),
    "gold": _l("Gold coins"),
    "thieves": _l("Thieves"),
    "bodyguards": _l("Bodyguards"),
    "businesses": _l("Businesses"),
    "checks": _l("Checks"),
    "total": _l("Round total"),
}

AUCTION_REASONS = {
    "police": _l("Regular auction: a police officer was drawn"),
    "seventh_loot": _l("Regular auction: the seventh loot card"),
    "forced": _l("Forced auction"),
}

ROUND_END_REASONS = {
    "police": _l("Raid! The police row is full."),
    "checks": _l("Every player has used all their checks."),
}

PHASES = {
    "deal": _l("Deal the checks"),
    "turn": _l("Turn"),
    "auction": _l("Auction"),
    "round_end": _l("Round over"),
    "game_over": _l("Game over"),
}


def kind(name: str) -> str:
    """The label of a card kind, or the raw name if it is unknown."""
    return str(KINDS.get(name, name))
