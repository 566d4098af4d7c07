"""What Adel Verpflichtet players keep hidden while the game runs (RULES.md §4).

"Hidden information. Hands are secret: exhibitions are laid face down 'so that it is not at
once clear how many cards they hold' and revealed together." The table sees how many cards a
player holds, never which; the app's best-exhibition proposals, read from tracked hands, would
tell the same. Pawns, checks and thieves played, the register, the prison, pile tops and bought
cards are public.

The move log holds only what the table saw: pawns, action cards, purchases, exhibitions and
thefts, all laid open. The hands dealt, when the table has the app track them, are in the
setup, which the game's export carries: held back with the hands (`LOG_SECRETS`).
"""

from scoring.secrecy import LogSecret, Secret

HANDS = Secret(
    "hands",
    ("state.players.*.hand", "actions.proposals"),
    'RULES.md §4 "Hidden information": "Hands are secret"',
)
SECRETS = (HANDS,)

#: The dealt hands of a tracked game, in the setup (the export's).
LOG_SECRETS = (LogSecret(HANDS, setup=("hands",)),)
