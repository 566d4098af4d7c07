"""The app's device view (docs/device-api.md) as the box's full state (docs/protocol.md)."""

from firmware import protocol as P

POLICE_LEDS, ROUND_LEDS, SEAT_LEDS = 7, 5, 6
#: What the box shows when no table is followed: empty police row, no round, no seats.
NO_TABLE = {"police": 0, "limit": POLICE_LEDS, "round": 0, "rounds": ROUND_LEDS, "seats": 0}
MAX_REVEAL_ID = P.SEQ_MOD - 1  # the wire's reveal ids are 1..65535


def _clamp(value, low, high):
    """`value` as an int in low..high (a bad value becomes `low`)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return low
    return max(low, min(high, number))


def set_payload(display):
    """`police= limit= round= rounds= seats=` from the view's display (None: no table)."""
    d = display or NO_TABLE
    limit = _clamp(d.get("limit"), 1, POLICE_LEDS)
    rounds = _clamp(d.get("rounds", ROUND_LEDS), 1, ROUND_LEDS)
    pairs = [
        ("police", _clamp(d.get("police"), 0, limit)),
        ("limit", limit),
        ("round", _clamp(d.get("round"), 0, rounds)),
        ("rounds", rounds),
        ("seats", _clamp(d.get("seats"), 0, SEAT_LEDS)),
    ]
    return P.format_fields(pairs)


def wire_id(app_id):
    """The app's reveal id (1, 2, ...) on the wire (1..65535, wrapping)."""
    return (int(app_id) - 1) % MAX_REVEAL_ID + 1


def _seats(indexes):
    """App seat indexes (0-based) -> the wire's seat list "1,3" (seats past the box dropped)."""
    numbers = sorted({int(i) + 1 for i in indexes or () if 0 <= int(i) < SEAT_LEDS})
    return ",".join(str(n) for n in numbers)


def reveal_command(reveal):
    """(kind, payload): `ARM id= seats= [locked=] [revealed=1]` for a reveal, `DISARM` for None.

    `revealed=1` once the app revealed it: a box that was reset meanwhile shows the reveal as
    it is instead of counting down again (docs/protocol.md, ARM).
    """
    if not reveal:
        return P.DISARM, ""
    payload = f"id={wire_id(reveal['id'])} seats={_seats(reveal.get('seats'))}"
    locked = _seats(reveal.get("locked"))
    if locked:
        payload += f" locked={locked}"
    if reveal.get("revealed"):
        payload += " revealed=1"
    return P.ARM, payload


def desired(view):
    """(SET payload, reveal kind, reveal payload) for a device view (None: no table)."""
    if view is None:
        return (set_payload(None), P.DISARM, "")
    kind, payload = reveal_command(view.get("reveal"))
    return (set_payload(view.get("display")), kind, payload)


def app_reveal_id(view, rid):
    """The app's id of wire reveal id `rid`, given the view the box follows."""
    reveal = (view or {}).get("reveal")
    if reveal and wire_id(reveal["id"]) == rid:
        return int(reveal["id"])
    return rid
