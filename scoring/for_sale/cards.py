"""For Sale card and coin counts of the ALBI edition (RULES.md §2 "Cards", "Coins per player")."""

MIN_PLAYERS = 3
MAX_PLAYERS = 6
#: Houses are numbered 1 to 30, one card each.
HOUSES = range(1, 31)
#: Check values: two $0 and two each of $2,000 ... $15,000.
CHECK_VALUES = (0, *range(2000, 16000, 1000))
COPIES_PER_CHECK = 2
DECK_SIZE = 30
COIN_VALUE = 1000
#: Coins dealt to each player, by player count (this edition; the seed dropped 28's 8).
COINS = {3: 28, 4: 21, 5: 16, 6: 14}
#: Houses and checks removed unseen at setup, by player count: normal game / variant.
REMOVED = {3: 0, 4: 2, 5: 0, 6: 0}
REMOVED_VARIANT = {3: 10, 4: 0, 5: 3, 6: 0}
#: Refund rounding on a pass: the rulebook's "half rounded up" or the house rule "down".
REFUNDS = ("up", "down")


def removed(players: int, variant: bool) -> int:
    """How many houses (and as many checks) leave the game unseen at setup."""
    return (REMOVED_VARIANT if variant else REMOVED)[players]


def in_play(players: int, variant: bool) -> int:
    """How many houses (and as many checks) are played."""
    return DECK_SIZE - removed(players, variant)


def houses_per_round(players: int, variant: bool) -> int:
    """Houses turned over each buying round: one per player, one fewer in the variant."""
    return players - 1 if variant else players


def refund(bid: int, rounding: str) -> int:
    """Coins a passing player takes back from a bid of `bid`: half, rounded as chosen."""
    return (bid + 1) // 2 if rounding == "up" else bid // 2
