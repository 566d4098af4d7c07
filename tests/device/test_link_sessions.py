"""The host's side of session-scoped sequence numbers (docs/protocol.md "Sessions", issue 25).

Every command and every answer to a box event names our session (`host=<nonce>`); an answer
naming another host's session settles nothing of ours; a NAK `err=session` naming us means the
box serves another host now, and we greet it again before sending anything more.
"""

from companion_app.bridge.link import E_SESSION, Link
from firmware import protocol as P
from tests.device.test_link import NONCE, Wire, box_hello, greet

OTHER = "0c0ffee9"


def test_every_command_names_our_session():
    w = Wire()
    greet(w)
    w.link.command(P.SET, "police=1 limit=7 round=1 rounds=3 seats=4")
    w.link.command(P.DISARM)
    sent = [(m.kind, m.payload) for m in w.lines()]
    assert sent == [
        (P.SET, f"police=1 limit=7 round=1 rounds=3 seats=4 host={NONCE}"),
        (P.DISARM, f"host={NONCE}"),
    ]


def test_an_unchanged_state_is_still_not_resent():
    """The tag is the link's, not the state's: the same state twice is one command."""
    w = Wire()
    greet(w)
    assert w.link.command(P.ARM, "id=1 seats=1,2")
    assert not w.link.command(P.ARM, "id=1 seats=1,2")


def test_an_answer_naming_another_session_settles_nothing_of_ours():
    """The other host's command had the same seq: its ACK is not ours."""
    w = Wire()
    greet(w)
    w.link.command(P.SET, "police=2 limit=7 round=1 rounds=3 seats=4")
    (cmd,) = w.lines()
    w.device(P.ACK, f"of={cmd.seq} host={OTHER}")
    assert w.link.pending() == [cmd.seq] and w.link.errors["foreign"] == 1
    w.clock.now += Link.RETRY_S + 0.01
    w.link.poll()
    assert [m.seq for m in w.lines() if m.kind == P.SET] == [cmd.seq]  # retried
    w.device(P.ACK, f"of={cmd.seq} host={NONCE}")
    assert w.link.pending() == []


def test_an_answer_without_a_session_tag_settles_ours():
    """Firmware before session tags answers without `host=`: still our command's answer."""
    w = Wire()
    greet(w)
    w.link.command(P.SET, "police=2 limit=7 round=1 rounds=3 seats=4")
    (cmd,) = w.lines()
    w.device(P.ACK, f"of={cmd.seq}")
    assert w.link.pending() == []


def test_a_session_nak_naming_us_greets_the_box_again_and_resends_the_state():
    w = Wire()
    greet(w)
    w.link.command(P.SET, "police=2 limit=7 round=1 rounds=3 seats=4")
    (cmd,) = w.lines()
    w.device(P.NAK, f"of={cmd.seq} err={E_SESSION} host={NONCE}")
    assert not w.link.ready and w.link.errors["session"] == 1 and w.link.errors["nak"] == 0
    assert [(m.kind, m.payload) for m in w.lines()] == [(P.HELLO, f"proto=1 host={NONCE}")]
    assert not w.link.command(P.DISARM)  # nothing more until the box serves us again
    hellos = len(w.events.hellos)
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    assert w.link.ready and len(w.events.hellos) == hellos + 1  # the bridge sends the state


def test_a_session_nak_naming_another_host_is_not_ours():
    w = Wire()
    greet(w)
    w.link.command(P.SET, "police=2 limit=7 round=1 rounds=3 seats=4")
    (cmd,) = w.lines()
    w.device(P.NAK, f"of={cmd.seq} err={E_SESSION} host={OTHER}")
    assert w.link.ready and w.link.pending() == [cmd.seq]
