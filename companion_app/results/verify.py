"""The verification code printed on every results sheet: a short digest of the game's log.

The digest covers the game name, the table setup and the active moves in order (undone
moves and the undo entries themselves are left out, since they do not shape the result).
Any changed, added or removed move changes the code; the same log always gives the same
code, so a printed sheet can be matched to the stored game and a later edit shows.
"""

import base64
import hashlib
import json
from collections.abc import Iterable

#: Characters of the code shown (base32: A-Z and 2-7, no 0/1/8/9 to misread); 50 bits.
CODE_LENGTH = 10
#: The code is shown in groups of this many characters ("ABCDE-FGHIJ").
GROUP = 5


def active_moves(entries: Iterable) -> list[dict]:
    """The moves still in force, in order, from a table's history (store LogEntry objects)."""
    return [entry.move for entry in entries if entry.kind == "move" and not entry.undone]


def digest_text(game: str, setup: object, moves: list) -> str:
    """The exact text digested: canonical JSON of game, setup and moves (UTF-8, sorted keys)."""
    return json.dumps(
        {"game": game, "setup": setup, "moves": moves},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )


def verification_code(game: str, setup: object, moves: list) -> str:
    """The first 10 base32 characters of SHA-256 over `digest_text`, as "ABCDE-FGHIJ"."""
    digest = hashlib.sha256(digest_text(game, setup, moves).encode("utf-8")).digest()
    code = base64.b32encode(digest).decode("ascii")[:CODE_LENGTH]
    return "-".join(code[start : start + GROUP] for start in range(0, CODE_LENGTH, GROUP))
