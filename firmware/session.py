"""The host session the box serves: whose commands it applies and which it already applied.

A host session is named by the host's nonce (`HELLO host=`, docs/protocol.md "Sessions").
Every command a host sends carries that nonce (`host=`), so sequence numbers, duplicates and
answers all belong to one session: a late command of an earlier host process is refused,
never applied, and never makes the box call a new host's command a duplicate. Commands
without `host=` come from a protocol-1 host without nonces and belong to its session ("").
"""

import protocol as P

NONCE_LEN = 8  # hex digits of a host nonce


class Session:
    """The current host session: its nonce and the last command applied in each slot."""

    def __init__(self) -> None:
        self.host: str | None = None  # None: no host session since boot
        self._last_set: int | None = None  # seq of the last SET applied in this session...
        self._last_reveal: int | None = None  # ...and of the last ARM/DISARM

    @property
    def settled(self) -> bool:
        """True once this session has set both the display and the reveal state."""
        return (
            self.host is not None and self._last_set is not None and self._last_reveal is not None
        )

    def hello(self, host: str) -> None:
        """A host HELLO with nonce `host`: a new nonce (or "", a host without nonces) starts a
        session, forgetting the previous one's sequence numbers; the same nonce changes nothing."""
        if host == "" or host != self.host:
            self.host = host
            self._last_set = None
            self._last_reveal = None

    def owns(self, host: str) -> bool:
        """True if a command or answer sent with nonce `host` ("" if none) is this session's."""
        return self.host is not None and host == self.host

    def fresh(self, kind: str, seq: int) -> bool:
        """True if command `seq` is newer than the last one applied in its slot (per slot, so a
        late SET never blocks an ARM); older or equal: a duplicate or a reordered late copy."""
        return P.seq_newer(seq, self._last_set if kind == P.SET else self._last_reveal)

    def applied(self, kind: str, seq: int) -> None:
        """Command `seq` was applied: older or equal seqs in its slot are duplicates from now."""
        if kind == P.SET:
            self._last_set = seq
        else:
            self._last_reveal = seq

    def tag(self) -> str:
        """` host=<nonce>` naming this session in an answer ("" for a host without nonces)."""
        return " host=" + self.host if self.host else ""


def valid_nonce(text: str) -> bool:
    """True for "" or 1..NONCE_LEN lower-case hex digits."""
    if len(text) > NONCE_LEN:
        return False
    for ch in text:
        if ch not in "0123456789abcdef":
            return False
    return True
