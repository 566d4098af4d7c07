"""A finished 9-player Cech zlodějů game where all nine tie on gold: the cards decide.

The game ends when someone loses their last gold, and the last reactions may still move gold
(RULES.md §3 "End"), so everyone can end on 0: Bohumila's Drzost empties eight purses into the
bank, then Svatopluk's Černý Petr takes her 13 and goes to Zdeněk. Cards in hand then rank
everyone: 5, 4, 3 3 3, 2 2 2, 1.
"""

from companion_app.store import get_store

NAMES = [
    "Alžběta",
    "Bohumila",
    "Svatopluk",
    "Zdeněk",
    "Jaroslava",
    "Přemysl",
    "Květoslava",
    "Radoslav",
    "Ludmila",
]
SETUP = {"players": NAMES, "card_costs": [1, 2]}
BANK = "bank"
MOVES = [
    {"type": "start", "seat": 0},
    {"type": "buy"},
    {"type": "buy"},
    {"type": "loot", "roll": 6},
    {
        "type": "card",
        "seat": 1,
        "card": "Drzost",
        "transfers": [
            {"from": seat, "to": BANK, "gold": 10 if seat == 0 else 13}
            for seat in (0, 2, 3, 4, 5, 6, 7, 8)
        ],
    },
    {
        "type": "card",
        "seat": 2,
        "card": "Černý Petr",
        "black_peter": 3,
        "transfers": [{"from": 1, "to": BANK, "gold": 13}],
    },
    {"type": "card", "seat": 4, "card": "Alarm"},
    {"type": "card", "seat": 5, "card": "Alarm"},
    {"type": "card", "seat": 5, "card": "Trezor"},
    {"type": "settle"},
]
#: Cards in hand at the end, by seat, and the ranks they give.
CARDS = [5, 2, 2, 4, 2, 1, 3, 3, 3]
RANKS = [1, 6, 6, 2, 6, 9, 3, 3, 3]


def play(app) -> str:
    """The finished game, played through the store; its table id."""
    with app.app_context():
        store = get_store()
        table = store.create_table("thieves_guild", SETUP)
        for move in MOVES:
            table = store.apply_move(table.id, move, table.version)
        assert table.state["phase"] == "game_over"
        return table.id
