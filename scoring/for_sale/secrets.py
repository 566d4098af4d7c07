"""What For Sale players keep hidden while the game runs (RULES.md §2, docs/games/for_sale.md).

Coins "may be held secretly" and the checks won in the sale lie face down: the table sees
how many checks a player holds, never their values, and nobody's coins or money. The stack
in a running auction is public (it lies on the table), so is who bid and who passed.

The move log is held to the same: replayed through the rules, the bids give every player's
coins (coins each − what the stacks cost), and the checks turned over with the houses each
seat sold give the checks won (highest house, highest check). So while the game runs the log
shows who bid, not how much, and who sold, not which house for which check (`LOG_SECRETS`).
"""

from scoring.secrecy import LogSecret, Secret

#: Places that add up a player's money, which would give both secrets away.
_MONEY = ("standings.*.total", "summary.totals")

COINS = Secret(
    "coins",
    (
        "state.players.*.coins",
        # coins = coins each - stack - spent: the coins spent would give the coins away
        "state.players.*.spent",
        # what the bidder may bid says what they hold (and `None` that they cannot raise)
        "actions.min_bid",
        "actions.max_bid",
        "standings.*.points.coins",
        *_MONEY,
    ),
    'RULES.md §2 "Coins per player"; seed: "Mince mohou být drženy tajně."',
)
CHECKS = Secret(
    "checks",
    (
        "state.players.*.checks",
        "state.sales.*.got.*",
        # highest house takes the highest check: the houses each seat sold give `got` away
        "state.sales.*.houses",
        "standings.*.points.checks",
        *_MONEY,
    ),
    'RULES.md §2 "Phase 2"; seed: "Získané šeky si hráči pokládají lícem dolů před sebe."',
)
SECRETS = (COINS, CHECKS)

#: The log's fields behind each secret: a bid's stack (the stacks paid and half refunded
#: add up to the coins); the checks of a selling round and each seat's house sold (which
#: check each seat took).
LOG_SECRETS = (
    LogSecret(COINS, moves=("bid.coins",)),
    LogSecret(CHECKS, moves=("checks.checks", "sell.houses.*")),
)
