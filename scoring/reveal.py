"""The generic reveal flow: arm the seats that must choose, lock them in, reveal when all have.

A reveal is a plain dict `{"id": 7, "seats": [0, 2, 3], "locked": [2], "revealed": False}`,
seats 0-based. Any game that needs simultaneous choices uses it; the table box's buttons and
the on-screen panel press seats. Pure: the app stores reveals, these functions decide.
"""

from scoring.errors import N_, RuleError

#: Reveal ids go on the wire as 1..65535 (docs/protocol.md, `ARM id=`).
FIRST_ID = 1
MAX_ID = 65535


class RevealRefused(RuleError):
    """An arm or press the reveal flow does not allow (bad seats, a seat not armed)."""


class StaleReveal(RuleError):
    """A press for a reveal that is not the table's current one (old, disarmed or unknown)."""


def _is_int(value: object) -> bool:
    """A JSON whole number (true/false are not numbers here)."""
    return type(value) is int


def check_seat(seat: object, seat_count: int) -> int:
    """`seat` if it is a seat at this table, else RevealRefused naming the valid range."""
    if not _is_int(seat) or not 0 <= seat < seat_count:
        raise RevealRefused(
            N_("Seat {seat} is not at this table; seats are numbered 0 to {last}."),
            seat=str(seat)[:20],
            last=seat_count - 1,
        )
    return seat


def arm(last_id: int, seats: object, seat_count: int) -> dict:
    """A new reveal after `last_id` (0: none yet) for `seats`, nobody locked yet."""
    if not isinstance(seats, list) or not seats:
        raise RevealRefused(N_("seats must be a non-empty list of seat numbers, like [0, 2, 3]."))
    armed = [check_seat(seat, seat_count) for seat in seats]
    if len(set(armed)) != len(armed):
        raise RevealRefused(N_("Each seat may be armed only once in a reveal."))
    if last_id >= MAX_ID:
        raise RevealRefused(N_("This table has used all {count} reveal numbers."), count=MAX_ID)
    return {"id": last_id + 1, "seats": sorted(armed), "locked": [], "revealed": False}


def check_id(reveal_id: object) -> int:
    """`reveal_id` if it can name a reveal, else RevealRefused."""
    if not _is_int(reveal_id) or not FIRST_ID <= reveal_id <= MAX_ID:
        raise RevealRefused(
            N_("id must be the reveal's number, a whole number from {first} to {last}."),
            first=FIRST_ID,
            last=MAX_ID,
        )
    return reveal_id


def press(reveal: dict | None, reveal_id: object, seat: object, seat_count: int) -> tuple:
    """(the reveal after `seat` locks in, duplicate?); a locked seat pressing again is a no-op."""
    check_id(reveal_id)
    check_seat(seat, seat_count)
    if reveal is None:
        raise StaleReveal(N_("Reveal {sent} is over; no reveal is armed now."), sent=reveal_id)
    if reveal["id"] != reveal_id:
        raise StaleReveal(
            N_("Reveal {sent} is over; the current reveal is {current}."),
            sent=reveal_id,
            current=reveal["id"],
        )
    if seat not in reveal["seats"]:
        raise RevealRefused(N_("Seat {seat} is not armed in this reveal."), seat=seat)
    if seat in reveal["locked"]:
        return reveal, True
    locked = sorted([*reveal["locked"], seat])
    revealed = locked == reveal["seats"]
    return {**reveal, "locked": locked, "revealed": revealed}, False
