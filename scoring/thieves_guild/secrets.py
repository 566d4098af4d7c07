"""What Cech zlodějů players keep hidden while the game runs (RULES.md §3).

Nothing the app tracks. Gold lies in front of each player as tokens (the seed hides none of
it: "obdrží všichni hráči 3 karty a 13 žlutých žetonů"), the bank beside the deck; cards are
held in hand, so what each card is stays secret, but the app records only how many cards a
player holds, which the table sees, and each card's gold effect once it is played (public).
Who holds Černý Petr is public: it was played onto them, and they pay its fee openly.
"""

from scoring.secrecy import LogSecret, Secret

SECRETS: tuple[Secret, ...] = ()

#: The log hides nothing either: gold, card counts and the cards played are all open.
LOG_SECRETS: tuple[LogSecret, ...] = ()
