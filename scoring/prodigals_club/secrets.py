"""What Klub ztroskotanců players keep hidden while the game runs (RULES.md §5).

Nothing the app tracks. The app follows the competitions' tracks (money, votes, society
tokens, property tiles laid out by district), which lie open on the boards; the seed hides
none of them. The only hidden things are the action cards in hand ("Vykládáte je z ruky"),
which the app does not track.
"""

from scoring.secrecy import LogSecret, Secret

SECRETS: tuple[Secret, ...] = ()

#: The log hides nothing either: its moves change the open tracks only.
LOG_SECRETS: tuple[LogSecret, ...] = ()
