"""A scripted 4-player game of Razzia! with its scores worked out by hand (RULES.md §1).

Seats: Ann 0, Bob 1, Cid 2, Dee 3, dealt by hand A, B, C, D:
Ann 2,6,13 · Bob 3,7,12 · Cid 4,8,11 · Dee 5,9,10 (thousands). Ann holds 13,000 and starts.
Every step is (seat, action, argument): "draw" a card kind, "bid" a check, "pass",
"thief" with the kinds taken, "forced" (call a forced auction).
"""

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
SETS = ["A", "B", "C", "D"]
ANN, BOB, CID, DEE = range(4)


def all_pass(first: int) -> list[tuple]:
    """Four passes, starting left of the trigger."""
    return [((first + step) % 4, "pass", None) for step in range(4)]


ROUND_1 = [
    (ANN, "draw", "ring"),
    (BOB, "draw", "car"),
    (CID, "draw", "police"),  # 1/7: Dee 5,000, Ann passes, Bob 7,000, Cid passes
    (DEE, "bid", 5000),
    (ANN, "pass", None),
    (BOB, "bid", 7000),
    (CID, "pass", None),
    (DEE, "draw", "thief"),
    (ANN, "forced", None),  # everyone passes, so Ann must bid: 2,000
    (BOB, "pass", None),
    (CID, "pass", None),
    (DEE, "pass", None),
    (ANN, "bid", 2000),
    (BOB, "draw", "driver"),
    (CID, "draw", "gold"),
    (DEE, "draw", "police"),  # 2/7: Cid wins with 4,000
    (ANN, "pass", None),
    (BOB, "pass", None),
    (CID, "bid", 4000),
    (DEE, "pass", None),
    (ANN, "draw", "car"),
    (BOB, "draw", "police"),  # 3/7: all pass, the car stays in the row
    *all_pass(CID),
    (CID, "draw", "watch"),
    (DEE, "draw", "bodyguard"),
    (ANN, "thief", ["watch"]),
    (BOB, "draw", "police"),  # 4/7: Dee wins car and bodyguard with 9,000
    (CID, "pass", None),
    (DEE, "bid", 9000),
    (ANN, "pass", None),
    (BOB, "pass", None),
    (CID, "draw", "police"),
    *all_pass(DEE),  # 5/7
    (DEE, "draw", "police"),
    *all_pass(ANN),  # 6/7
    (ANN, "draw", "police"),  # 7/7: raid, the round ends
]
# Families: Ann watch · Bob ring, car · Cid driver, gold · Dee car, bodyguard.
ROUND_1_SCORES = [
    {
        "cars_drivers": 0,
        "jewelry": 0,
        "gold": 0,
        "thieves": 0,
        "bodyguards": -2,
        "businesses": 0,
        "checks": 0,
        "total": -2,
    },
    {
        "cars_drivers": 0,
        "jewelry": 0,
        "gold": 0,
        "thieves": 0,
        "bodyguards": -2,
        "businesses": 0,
        "checks": 0,
        "total": -2,
    },
    {
        "cars_drivers": 1,
        "jewelry": -5,
        "gold": 3,
        "thieves": 0,
        "bodyguards": -2,
        "businesses": 0,
        "checks": 0,
        "total": -3,
    },
    {
        "cars_drivers": 0,
        "jewelry": -5,
        "gold": 0,
        "thieves": 0,
        "bodyguards": 5,
        "businesses": 0,
        "checks": 0,
        "total": 0,
    },
]
ROUND_1_TOTALS = [-2, -2, -3, 0]

# Checks now: Ann 6,7,13 · Bob 1,3,12 · Cid 2,8,11 · Dee 4,5,10; centre 9,000; Ann starts.
ROUND_2 = [
    (ANN, "draw", "diamond"),
    (BOB, "draw", "necklace"),
    (CID, "draw", "brooch"),
    (DEE, "draw", "casino"),
    (ANN, "draw", "casino"),
    (BOB, "draw", "driver"),
    (CID, "draw", "ring"),  # the seventh loot card: Ann takes all seven with 13,000
    (DEE, "pass", None),
    (ANN, "bid", 13000),
    (BOB, "pass", None),
    (CID, "pass", None),
    (DEE, "draw", "police"),
    *all_pass(ANN),  # 1/7
    (ANN, "draw", "bodyguard"),
    (BOB, "draw", "bodyguard"),
    (CID, "draw", "police"),  # 2/7: Dee 4,000, Bob 12,000 takes both bodyguards
    (DEE, "bid", 4000),
    (ANN, "pass", None),
    (BOB, "bid", 12000),
    (CID, "pass", None),
    (DEE, "draw", "police"),
    *all_pass(ANN),  # 3/7
    (ANN, "draw", "police"),
    *all_pass(BOB),  # 4/7
    (BOB, "draw", "police"),
    *all_pass(CID),  # 5/7
    (CID, "draw", "police"),
    *all_pass(DEE),  # 6/7
    (DEE, "draw", "police"),  # 7/7
]
# Families: Ann diamond, necklace, brooch, ring, 2 casinos, driver · Bob car, 2 bodyguards ·
# Cid nothing · Dee car, bodyguard (cars and bodyguards stayed from round 1).
ROUND_2_SCORES = [
    {
        "cars_drivers": 1,
        "jewelry": 10,
        "gold": 0,
        "thieves": 0,
        "bodyguards": -2,
        "businesses": 0,
        "checks": 0,
        "total": 9,
    },
    {
        "cars_drivers": 0,
        "jewelry": -5,
        "gold": 0,
        "thieves": 0,
        "bodyguards": 5,
        "businesses": 0,
        "checks": 0,
        "total": 0,
    },
    {
        "cars_drivers": 0,
        "jewelry": -5,
        "gold": 0,
        "thieves": 0,
        "bodyguards": -2,
        "businesses": 0,
        "checks": 0,
        "total": -7,
    },
    {
        "cars_drivers": 0,
        "jewelry": -5,
        "gold": 0,
        "thieves": 0,
        "bodyguards": 0,
        "businesses": 0,
        "checks": 0,
        "total": -5,
    },
]
ROUND_2_TOTALS = [7, -2, -10, -5]

# Checks now: Ann 6,7,9 · Bob 1,3,13 · Cid 2,8,11 · Dee 4,5,10; centre 12,000; Bob starts.
ROUND_3 = [
    (BOB, "draw", "casino"),
    (CID, "draw", "thief"),
    (DEE, "draw", "police"),  # 1/7: Ann 9,000, Cid 11,000 wins casino and thief
    (ANN, "bid", 9000),
    (BOB, "pass", None),
    (CID, "bid", 11000),
    (DEE, "pass", None),
    (ANN, "draw", "real_estate"),
    (BOB, "draw", "driver"),
    (CID, "forced", None),  # Dee 10,000, Bob 13,000; Cid may pass since someone bid
    (DEE, "bid", 10000),
    (ANN, "pass", None),
    (BOB, "bid", 13000),
    (CID, "pass", None),
    (DEE, "draw", "police"),
    *all_pass(ANN),  # 2/7
    (ANN, "draw", "police"),
    *all_pass(BOB),  # 3/7
    (BOB, "draw", "police"),
    *all_pass(CID),  # 4/7
    (CID, "draw", "police"),
    *all_pass(DEE),  # 5/7
    (DEE, "draw", "police"),
    *all_pass(ANN),  # 6/7
    (ANN, "draw", "police"),  # 7/7: the game ends
]
# Families: Ann 2 casinos · Bob car, driver, 2 bodyguards, real estate · Cid casino, thief ·
# Dee car, bodyguard. Check sums: Ann 22,000, Bob 15,000, Cid 22,000, Dee 19,000.
ROUND_3_SCORES = [
    {
        "cars_drivers": 0,
        "jewelry": -5,
        "gold": 0,
        "thieves": 0,
        "bodyguards": -2,
        "businesses": 1,
        "checks": 5,
        "total": -1,
    },
    {
        "cars_drivers": 2,
        "jewelry": -5,
        "gold": 0,
        "thieves": 0,
        "bodyguards": 5,
        "businesses": 1,
        "checks": -5,
        "total": -2,
    },
    {
        "cars_drivers": 0,
        "jewelry": -5,
        "gold": 0,
        "thieves": 2,
        "bodyguards": -2,
        "businesses": 1,
        "checks": 5,
        "total": 1,
    },
    {
        "cars_drivers": 0,
        "jewelry": -5,
        "gold": 0,
        "thieves": 0,
        "bodyguards": 0,
        "businesses": 0,
        "checks": 0,
        "total": -5,
    },
]
FINAL_TOTALS = [6, -4, -9, -10]
FINAL_RANKS = [1, 2, 3, 4]

ROUNDS = [
    (ROUND_1, ROUND_1_SCORES, ROUND_1_TOTALS),
    (ROUND_2, ROUND_2_SCORES, ROUND_2_TOTALS),
    (ROUND_3, ROUND_3_SCORES, FINAL_TOTALS),
]


def as_form(step: tuple) -> dict:
    """The form fields a table-page button posts for one scripted step (without version)."""
    seat, action, argument = step
    if action == "draw":
        return {"type": "draw", "seat": seat, "card": argument}
    if action == "bid":
        return {"type": "bid", "seat": seat, "check": argument}
    if action == "thief":
        return {"type": "thief", "seat": seat, "take": argument}
    if action == "forced":
        return {"type": "forced_auction", "seat": seat}
    return {"type": "pass", "seat": seat}
