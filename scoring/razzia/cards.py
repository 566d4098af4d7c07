"""Razzia! card and check constants (RULES.md §1, "Cards" and "Checks by player count")."""

JEWELRY = ("ring", "watch", "brooch", "necklace", "diamond")
BUSINESSES = (
    "casino",
    "transport",
    "film",
    "horse_racing",
    "real_estate",
    "nightclub",
    "restaurant",
)
OTHER_LOOT = ("bodyguard", "car", "driver", "thief", "gold")
LOOT = JEWELRY + OTHER_LOOT + BUSINESSES
POLICE = "police"

#: How many cards of each kind the box holds; 99 loot + 21 police = 120.
CARD_COUNTS: dict[str, int] = {
    **dict.fromkeys(JEWELRY, 4),
    "bodyguard": 16,
    "car": 16,
    "driver": 10,
    "thief": 6,
    "gold": 3,
    **dict.fromkeys(BUSINESSES, 4),
    POLICE: 21,
}
TOTAL_CARDS = 120

#: Loot that leaves the game after each round's scoring (the black cross).
DISCARDED_AFTER_SCORING = frozenset(JEWELRY + ("driver", "thief", "gold"))
#: Loot that stays in the family across rounds.
KEPT_ACROSS_ROUNDS = frozenset(("bodyguard", "car") + BUSINESSES)

ROW_LIMIT = 7
ROUNDS = 3
CENTRE_START_CHECK = 1000

#: Check sets by player count; which player gets which set is drawn by lot.
CHECK_SETS: dict[int, tuple[tuple[int, ...], ...]] = {
    2: ((2000, 5000, 6000, 9000), (3000, 4000, 7000, 8000)),
    3: ((2000, 5000, 8000, 13000), (3000, 6000, 9000, 12000), (4000, 7000, 10000, 11000)),
    4: ((2000, 6000, 13000), (3000, 7000, 12000), (4000, 8000, 11000), (5000, 9000, 10000)),
    5: (
        (2000, 7000, 16000),
        (3000, 8000, 15000),
        (4000, 9000, 14000),
        (5000, 10000, 13000),
        (6000, 11000, 12000),
    ),
}
SET_LABELS = "ABCDE"
MIN_PLAYERS, MAX_PLAYERS = 2, 5


def police_limit(player_count: int) -> int:
    """Police cards that end a round: 5 with two players, 7 otherwise."""
    return 5 if player_count == 2 else 7


def checks_in_play(player_count: int) -> frozenset[int]:
    """Every check value used at this player count, the centre 1,000 included."""
    values = {value for check_set in CHECK_SETS[player_count] for value in check_set}
    return frozenset(values | {CENTRE_START_CHECK})
