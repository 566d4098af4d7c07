"""Host sessions own their sequence numbers, and a rebooted box learns a finished reveal.

docs/protocol.md "Sessions" and "Reliability" (issue 25, item 1): every command and answer
names its host session (`host=`), so a late line of an earlier host process is refused and
never makes a new host's command a duplicate. "Messages, host to device", ARM `revealed=1`
(item 3): a box reset after the reveal shows it as it is, without replaying the countdown.
"""

import frame as F
import protocol as P
from box import E_SESSION, Box

from .conftest import HOST_NONCE

NEW_HOST = "0c0ffee2"
STATE = "police={} limit=7 round=1 rounds=3 seats=4"


def kinds(replies):
    """The message types of the replies."""
    return [m.kind for m in replies]


def seat_states(box):
    """The box's seat states (frame.SEAT_*), seat 1 first."""
    return list(box.scene.seat)


def new_host(host, nonce=NEW_HOST):
    """A new host process says HELLO with its own nonce, numbering from 1 again."""
    host.nonce = nonce
    host.seq = 1
    return host.send(P.HELLO, f"proto=1 host={nonce}")


def test_a_stale_set_of_the_previous_host_after_a_restart_is_refused(host, box):
    """Issue 25's measurement: the old host's SET seq 36 came after the new host's state, was
    applied, and the new host's SETs 6 and 7 were answered "dup"; the strip stayed wrong."""
    host.open()
    host.send(P.SET, STATE.format(2), seq=35)
    new_host(host)
    (ack,) = host.send(P.SET, STATE.format(3), seq=2)
    assert ack.fields() == {"of": "2", "host": NEW_HOST} and box.scene.police == 3
    (nak,) = host.send(P.SET, STATE.format(2), seq=36, host=HOST_NONCE)  # late, from the old one
    assert (nak.kind, nak.fields()) == (P.NAK, {"of": "36", "err": E_SESSION, "host": HOST_NONCE})
    assert box.scene.police == 3 and box.errors[E_SESSION] == 1
    for seq, police in ((6, 4), (7, 5)):
        (ack,) = host.send(P.SET, STATE.format(police), seq=seq)
        assert ack.fields() == {"of": str(seq), "host": NEW_HOST}  # never "dup"
        assert box.scene.police == police
    assert box.errors["dup"] == 0


def test_a_late_arm_or_disarm_of_an_earlier_session_changes_nothing(host, box):
    host.open()
    new_host(host)
    host.send(P.SET, STATE.format(1))
    host.send(P.ARM, "id=4 seats=1,2")
    for kind, payload in ((P.DISARM, ""), (P.ARM, "id=9 seats=3")):
        (nak,) = host.send(kind, payload, seq=500, host=HOST_NONCE)
        assert (nak.kind, nak.fields()["err"]) == (P.NAK, E_SESSION)
    assert box._reveal_id == 4 and box._armed == 0b11


def test_a_command_without_a_nonce_does_not_belong_to_a_nonce_session(host, box):
    """An untagged command is a protocol-1 host's: not the session of a host with a nonce."""
    host.open()
    (nak,) = host.send(P.SET, STATE.format(5), seq=9, host="")
    assert (nak.kind, nak.fields()) == (P.NAK, {"of": "9", "err": E_SESSION})
    assert box.scene.police == 0


def test_a_stale_command_before_any_session_is_not_answered(host, box):
    """After a boot no session exists yet: the command is not answered at all (its host's
    retry follows the HELLO exchange), as docs/protocol.md "Sessions" says."""
    host.at(0)
    assert host.send(P.SET, STATE.format(5), host=HOST_NONCE) == []
    assert box.errors["nosession"] == 1


def test_an_answer_naming_another_session_leaves_the_press_pending(host, box):
    """A host's ACK of a PRESS counts only from the session the box serves: that host has
    handed the press to the app; an older host's late ACK has not told this one."""
    host.open()
    host.send(P.SET, STATE.format(0))
    host.send(P.ARM, "id=2 seats=1,2")
    host.now = 10
    (press,) = host.press(1)
    new_host(host)
    host.send(P.ACK, f"of={press.seq}", host=HOST_NONCE)  # the old host's, arriving late
    assert [m.seq for m in host.at(10 + Box.RETRY_MS + 5) if m.kind == P.PRESS] == [press.seq]
    host.send(P.ACK, f"of={press.seq}")
    assert P.PRESS not in kinds(host.at(10 + 2 * Box.RETRY_MS + 10))


def test_the_hello_answer_to_a_new_host_names_it(host):
    host.open()
    (hello, _beat) = new_host(host)
    assert hello.fields()["host"] == NEW_HOST


def test_a_rebooted_box_shows_a_finished_reveal_at_once_without_a_countdown(host, box):
    """ARM revealed=1 on a reveal the box does not hold (it was reset after the reveal)."""
    host.start()
    replies = host.send(P.ARM, "id=7 seats=1,2,3 locked=1,2,3 revealed=1")
    assert kinds(replies) == [P.ACK]
    assert seat_states(box)[:4] == [F.SEAT_REVEALED] * 3 + [F.SEAT_IDLE]
    assert not box.scene.countdown
    later = host.at(host.now + Box.COUNTDOWN_MS + 100)
    assert P.REVEAL not in kinds(later)  # the app revealed it already: nothing to tell
    assert seat_states(box)[:3] == [F.SEAT_REVEALED] * 3


def test_revealed_on_the_reveal_the_box_holds_counts_down_as_usual(host, box):
    """The last seat chose on the tablet: the box, holding the reveal, still counts down and
    reveals (the same as `locked=` for every seat)."""
    host.start()
    host.send(P.ARM, "id=7 seats=1,2")
    host.now = 10
    host.press(1)
    host.now = 100
    host.send(P.ARM, "id=7 seats=1,2 locked=1,2 revealed=1")
    assert box.scene.countdown and seat_states(box)[:2] == [F.SEAT_LOCKED] * 2
    replies = host.at(100 + Box.COUNTDOWN_MS)
    assert [m.fields() for m in replies if m.kind == P.REVEAL] == [{"id": "7", "seats": "1,2"}]


def test_revealed_during_the_countdown_does_not_cut_it_short(host, box):
    host.start()
    host.send(P.ARM, "id=3 seats=1")
    host.now = 10
    host.press(1)
    started = box.scene.countdown_at
    host.now = 200
    host.send(P.ARM, "id=3 seats=1 locked=1 revealed=1")
    assert box.scene.countdown and box.scene.countdown_at == started
    assert seat_states(box)[0] == F.SEAT_LOCKED


def test_revealed_must_be_0_or_1(host, box):
    host.start()
    (nak,) = host.send(P.ARM, "id=3 seats=1 locked=1 revealed=2")
    assert (nak.kind, nak.fields()["err"]) == (P.NAK, P.E_RANGE)
    assert box._reveal_id == 0


def test_the_longest_tagged_commands_fit_a_line():
    """Every command with its session tag, at its longest, stays within 120 bytes."""
    tag = f" host={'f' * 8}"
    longest = (
        (P.SET, "police=7 limit=7 round=5 rounds=5 seats=6 bright=100" + tag),
        (P.ARM, "id=65535 seats=1,2,3,4,5,6 locked=1,2,3,4,5,6 revealed=1" + tag),
        (P.NAK, "of=65535 err=session" + tag),
        (P.ACK, "of=65535 dup=1" + tag),
    )
    for kind, payload in longest:
        assert len(P.encode(65535, kind, payload)) <= P.MAX_LINE
