"""The link on its own: framing, retries, acks, duplicates, restarts, bad lines (fake clock)."""

import pytest
import serial

from companion_app.bridge.boxclock import BoxClock
from companion_app.bridge.link import Link, LinkEvents
from firmware import protocol as P

HELLO_FIELDS = "fw=0.1.0 proto=1 board=test uid=1 leds=18 buttons=6 layout=7,5,6"  # no nonces
NONCE = "0c0ffee1"


def box_hello(boot, host=None):
    """A nonce-speaking box's HELLO payload (an announcement when `host` is None)."""
    text = f"fw=0.2.0 proto=1 board=test uid=1 layout=7,5,6 boot={boot}"
    return text + (f" host={host}" if host else "")


class Clock:
    """A settable clock."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Events(LinkEvents):
    """Records what the link reports."""

    def __init__(self):
        self.hellos, self.presses, self.reveals = [], [], []

    def on_hello(self, fields, compatible):
        """Record a HELLO."""
        self.hellos.append((fields, compatible))

    def on_press(self, token, reveal_id, seat):
        """Record a press."""
        self.presses.append((token, reveal_id, seat))

    def on_reveal(self, token, reveal_id, seats):
        """Record a reveal."""
        self.reveals.append((token, reveal_id, seats))


class Wire:
    """A link writing into a list; `device()` feeds it device lines."""

    def __init__(self):
        self.clock = Clock()
        self.events = Events()
        self.out = bytearray()
        self.link = Link(self.out.extend, self.events, clock=self.clock, nonce=NONCE)
        self.dev_seq = 1

    def lines(self):
        """Decoded lines written since the last call."""
        data, self.out[:] = bytes(self.out), b""
        return [P.decode(raw) for raw in data.split(b"\n") if raw]

    def device(self, kind, payload="", seq=None):
        """One device line (next device seq unless given)."""
        if seq is None:
            seq, self.dev_seq = self.dev_seq, self.dev_seq + 1
        self.link.data_received(P.encode(seq, kind, payload))
        return seq

    def connect(self):
        """start() and the device's HELLO: ready for commands."""
        self.link.start()
        self.device(P.HELLO, HELLO_FIELDS)
        self.lines()


@pytest.fixture
def wire():
    """A connected link."""
    w = Wire()
    w.connect()
    return w


def test_start_says_hello_and_waits_for_the_device():
    w = Wire()
    w.link.start()
    assert [(m.kind, m.payload) for m in w.lines()] == [(P.HELLO, f"proto=1 host={NONCE}")]
    assert not w.link.command(P.SET, "police=1 limit=7 round=1 rounds=3 seats=4")
    assert w.lines() == []
    w.device(P.HELLO, HELLO_FIELDS)
    assert w.link.ready and w.events.hellos == [(w.link.hello, True)]
    assert w.link.hello["board"] == "test"


def test_a_lost_ack_means_the_identical_line_again(wire):
    wire.link.command(P.SET, "police=1 limit=7 round=1 rounds=3 seats=4")
    (first,) = wire.lines()
    wire.clock.now += Link.RETRY_S / 2
    wire.link.poll()
    assert wire.lines() == []
    wire.clock.now += Link.RETRY_S
    wire.link.poll()
    assert wire.lines() == [first]  # same seq, same bytes
    wire.device(P.ACK, f"of={first.seq}")
    wire.clock.now += 2 * Link.RETRY_S
    wire.link.poll()
    assert [m.kind for m in wire.lines()] == []
    assert wire.link.pending() == []


def test_a_nak_stops_the_retries(wire):
    wire.link.command(P.SET, "police=1 limit=7 round=1 rounds=3 seats=4")
    (sent,) = wire.lines()
    wire.device(P.NAK, f"of={sent.seq} err=range")
    wire.clock.now += 1
    wire.link.poll()
    assert wire.link.pending() == [] and wire.link.errors["nak"] == 1


def test_a_newer_state_replaces_the_pending_one_and_the_same_state_is_not_resent(wire):
    wire.link.command(P.SET, "police=1 limit=7 round=1 rounds=3 seats=4")
    wire.link.command(P.SET, "police=2 limit=7 round=1 rounds=3 seats=4")
    assert not wire.link.command(P.SET, "police=2 limit=7 round=1 rounds=3 seats=4")
    old, new = wire.lines()
    assert wire.link.pending() == [new.seq]
    assert wire.link.command(P.SET, new.payload, force=True)
    wire.link.command(P.ARM, "id=1 seats=1,2")
    assert len(wire.link.pending()) == 2  # one per slot


def test_a_quiet_link_sends_heartbeats_and_goes_down_after_silence(wire):
    wire.clock.now += Link.HEARTBEAT_S
    assert wire.link.poll()
    assert [m.kind for m in wire.lines()] == [P.HB]
    wire.clock.now += Link.SILENCE_S
    assert not wire.link.poll()
    wire.device(P.HB)
    assert wire.link.poll()


def test_a_press_goes_to_the_app_once_and_every_repeat_is_acknowledged(wire):
    seq = wire.device(P.PRESS, "id=3 seat=2")
    ((token, rid, seat),) = wire.events.presses
    assert (rid, seat) == (3, 2)
    wire.device(P.PRESS, "id=3 seat=2", seq=seq)  # a retry while the app is busy: ignored
    assert wire.lines() == []
    wire.link.answer(token)
    ack = (P.ACK, f"of={seq} host={NONCE}")  # the answer names our session
    assert [(m.kind, m.payload) for m in wire.lines()] == [ack]
    wire.device(P.PRESS, "id=3 seat=2", seq=seq)  # our ACK was lost: ACK again, no new press
    assert [(m.kind, m.payload) for m in wire.lines()] == [ack]
    assert len(wire.events.presses) == 1


def test_an_unreachable_app_lets_the_device_retry(wire):
    seq = wire.device(P.PRESS, "id=3 seat=2")
    wire.link.forget(wire.events.presses[0][0])
    wire.device(P.PRESS, "id=3 seat=2", seq=seq)
    assert len(wire.events.presses) == 2 and wire.lines() == []


def test_reveals_are_reported_with_their_seats(wire):
    wire.device(P.REVEAL, "id=3 seats=1,2,4")
    assert wire.events.reveals[0][1:] == (3, [1, 2, 4])


def test_a_device_restart_makes_old_answers_stale(wire):
    seq = wire.device(P.PRESS, "id=3 seat=2")
    token = wire.events.presses[0][0]
    wire.device(P.HELLO, HELLO_FIELDS, seq=1)  # rebooted: numbering starts again
    wire.link.answer(token)  # the app answered the old press after the reboot
    assert wire.lines() == []
    wire.device(P.PRESS, "id=3 seat=2", seq=seq)  # the same seq is a new event now
    assert len(wire.events.presses) == 2


def test_an_answer_to_our_hello_is_not_a_restart(wire):
    wire.device(P.PRESS, "id=3 seat=2")
    wire.link.answer(wire.events.presses[0][0])
    wire.link.start()
    wire.device(P.HELLO, HELLO_FIELDS)
    assert wire.link._epoch == 0 and len(wire.events.hellos) == 2


def test_a_box_with_another_protocol_gets_no_commands():
    w = Wire()
    w.link.start()
    w.device(P.HELLO, HELLO_FIELDS.replace("proto=1", "proto=2"))
    assert w.events.hellos[-1][1] is False and not w.link.ready
    assert not w.link.command(P.DISARM)
    w.device(P.PRESS, "id=1 seat=1")
    assert w.events.presses == []


@pytest.mark.parametrize(
    ("noise", "reason"),
    [
        (b"\x00\xff garbage\n", P.E_FORMAT),
        (b"3 HB *00000000\n", P.E_CRC),
        (b"x" * 300 + b"\n", P.E_LONG),
        (b"5 PRESS id=1 se\n", P.E_FORMAT),
    ],
)
def test_bad_lines_are_counted_and_the_next_line_is_read(wire, noise, reason):
    wire.link.data_received(noise)
    assert wire.link.errors[reason] == 1
    wire.device(P.PRESS, "id=1 seat=1")
    assert len(wire.events.presses) == 1


def test_a_malformed_press_is_refused(wire):
    seq = wire.device(P.PRESS, "id=x seat=1")
    nak = (P.NAK, f"of={seq} err=field host={NONCE}")
    assert [(m.kind, m.payload) for m in wire.lines()] == [nak]


def test_a_port_error_on_write_is_kept_not_raised(wire):
    def broken(_data):
        """A port that is gone."""
        raise serial.SerialException("gone")

    wire.link._write = broken
    wire.link.command(P.DISARM)
    assert isinstance(wire.link.failed, serial.SerialException)


def test_closing_waits_for_a_write_in_progress_and_nothing_is_written_after(wire):
    """The follower's command and the reader's close never meet mid-write (pyserial fails then)."""
    import threading

    writing, release, order = threading.Event(), threading.Event(), []

    def slow_write(data):
        """A write that takes a while, as to a busy port."""
        order.append("write")
        writing.set()
        release.wait(2)

    wire.link._write = slow_write
    sender = threading.Thread(target=wire.link.command, args=(P.DISARM,))
    sender.start()
    writing.wait(2)
    closer = threading.Thread(target=wire.link.close, args=(lambda: order.append("close"),))
    closer.start()
    closer.join(0.2)
    assert order == ["write"], "the port closed while a write was in progress"
    release.set()
    sender.join(2)
    closer.join(2)
    assert order == ["write", "close"]
    assert not wire.link.command(P.SET, "police=2 limit=7 round=1 rounds=3 seats=4", force=True)
    wire.link.poll()
    assert order == ["write", "close"] and wire.link.failed is not None


def test_the_wire_bytes_over_a_loop_port():
    port = serial.serial_for_url("loop://", timeout=0.2)
    try:
        link = Link(port.write, seq=41, nonce=NONCE)
        link.start()
        hello = P.encode(41, P.HELLO, f"proto=1 host={NONCE}")
        assert port.read(len(hello)) == hello
        link.data_received(P.encode(7, P.HELLO, HELLO_FIELDS))
        link.command(P.ARM, "id=2 seats=1,3 locked=3")
        arm = P.encode(42, P.ARM, f"id=2 seats=1,3 locked=3 host={NONCE}")
        assert port.read(len(arm)) == arm
        assert link.next_seq == 43
    finally:
        port.close()


# ----- sessions with nonces (docs/protocol.md "Sessions") ----------------------------------


def greet(w, boot="b0070001"):
    """start() and the box's answer naming our nonce."""
    w.link.start()
    w.device(P.HELLO, box_hello(boot, NONCE))
    w.lines()


def test_our_hello_is_repeated_until_an_answer_names_our_nonce():
    w = Wire()
    w.link.start()
    (hello,) = w.lines()
    for _ in range(3):  # every answer lost
        w.clock.now += Link.RETRY_S + 0.01
        w.link.poll()
        assert [m.kind for m in w.lines() if m.kind != P.HB] == [P.HELLO]
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    assert w.link.ready and len(w.events.hellos) == 1
    w.clock.now += 2 * Link.RETRY_S
    w.link.poll()
    assert [m for m in w.lines() if m.kind == P.HELLO] == []


def test_an_announcement_that_does_not_name_us_gets_our_hello_and_no_state():
    w = Wire()
    w.link.start()
    w.lines()
    w.device(P.HELLO, box_hello("b0070001"))  # the box's boot HELLO, before ours arrived
    assert not w.link.ready and w.events.hellos == []
    assert [(m.kind, m.payload) for m in w.lines()] == [(P.HELLO, f"proto=1 host={NONCE}")]
    press = w.device(P.PRESS, "id=1 seat=1")
    assert w.events.presses == [] and w.lines() == []  # not acknowledged: the box retries
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    assert w.link.ready and len(w.events.hellos) == 1
    w.device(P.PRESS, "id=1 seat=1", seq=press)
    assert len(w.events.presses) == 1


def test_a_box_that_rebooted_unseen_is_noticed_by_its_announcement():
    """Issue 13: the reboot's HELLO was lost; a press reusing an old seq must reach the app."""
    w = Wire()
    greet(w, "b0070001")
    w.device(P.PRESS, "id=1 seat=1", seq=5)
    (token, _, _) = w.events.presses[0]
    w.link.answer(token)
    w.lines()
    # The box reboots; its boot HELLO is lost; a second later it announces itself again.
    w.device(P.HELLO, box_hello("b0070002"), seq=2)
    assert not w.link.ready
    assert [m.kind for m in w.lines()] == [P.HELLO]
    w.device(P.HELLO, box_hello("b0070002", NONCE), seq=3)
    assert w.link.ready
    w.device(P.PRESS, "id=9 seat=2", seq=5)  # the same seq as before the reboot
    assert [(rid, seat) for _, rid, seat in w.events.presses] == [(1, 1), (9, 2)]
    assert w.link.errors["dup"] == 0


def test_a_repeated_answer_of_the_same_boot_is_no_restart_and_resends_the_state():
    w = Wire()
    greet(w)
    w.device(P.PRESS, "id=1 seat=1", seq=5)
    w.link.answer(w.events.presses[0][0])
    w.device(P.HELLO, box_hello("b0070001", NONCE))  # the box lacks state: it asks again
    assert len(w.events.hellos) == 2 and w.link._epoch == 0
    w.device(P.PRESS, "id=1 seat=1", seq=5)  # a retry of the handled press
    assert len(w.events.presses) == 1 and w.link.errors["dup"] == 1


def test_a_box_with_another_protocol_gets_no_more_hellos():
    w = Wire()
    w.link.start()
    w.lines()
    w.device(P.HELLO, "fw=9.0.0 proto=2 board=future boot=b0070001")
    w.clock.now += 5 * Link.RETRY_S
    w.link.poll()
    assert [m for m in w.lines() if m.kind == P.HELLO] == []
    assert w.link.incompatible and not w.link.ready


def test_an_announcement_before_start_waits_for_start():
    w = Wire()
    w.device(P.HELLO, box_hello("b0070001"))  # the box speaks first; we have not opened yet
    assert w.lines() == [] and not w.link.ready
    w.link.start()
    assert [m.kind for m in w.lines()] == [P.HELLO]
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    assert w.link.ready


# ----- the box's clock (HB and PRESS carry `t=`) -----------------------------------------


def test_the_box_clock_takes_the_fastest_line_and_survives_the_wrap():
    clock = BoxClock()
    assert clock.host_time(500) is None
    clock.heard(1000, at=50.030)  # 30 ms on the way
    clock.heard(2000, at=51.004)  # the fastest: 4 ms
    clock.heard(3000, at=52.090)  # a busy host: 90 ms
    assert clock.host_time(2500) == pytest.approx(51.504)
    near_wrap = (1 << 30) - 200
    clock.reset()
    clock.heard(near_wrap, at=10.0)
    clock.heard(300, at=10.5)  # 500 ms later, past the wrap
    assert clock.host_time(100) == pytest.approx(10.3)
    assert clock.host_time(near_wrap + 100) == pytest.approx(10.1)  # before the wrap


def test_a_press_is_dated_by_the_box_not_by_when_it_was_read():
    w = Wire()
    w.link.start()
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    w.device(P.HB, "t=5000")  # read at once: the offset
    w.clock.now += 0.7
    w.device(P.PRESS, "id=1 seat=2 t=5300")  # read 400 ms late
    token = w.events.presses[-1][0]
    assert w.link.event_time(token) == pytest.approx(100.3)
    w.device(P.PRESS, "id=1 seat=3")  # firmware without the stamp
    assert w.link.event_time(w.events.presses[-1][0]) is None
    w.device(P.HELLO, box_hello("b0070002"))  # the box restarted: its clock began again
    assert w.link.event_time(token) is None and w.link.box_clock.host_time(0) is None


def test_issue_34_item_3_a_press_from_before_the_session_is_dated_by_the_hb_after_hello():
    """A bridge restarted (kill -9, unplug) while a PRESS waited on the box: the box's retry
    of it may come first, but its `t=` is when the seat locked, not the box's clock now."""
    w = Wire()
    w.device(P.PRESS, "id=1 seat=2 t=2000", seq=7)  # a retry before our HELLO: not ours yet
    w.link.start()
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    w.device(P.HB, "t=8000")  # firmware 0.3: the box's clock right after its HELLO answer
    w.clock.now += 0.2
    w.device(P.PRESS, "id=1 seat=2 t=2000", seq=7)  # the retry, 6 s after the lock
    (token, _, seat) = w.events.presses[-1]
    assert seat == 2
    assert w.link.event_time(token) == pytest.approx(w.clock.now - 6.2)


def test_issue_34_item_3_without_the_box_clock_a_press_waits_for_the_next_heartbeat():
    """Firmware before 0.3 sends no HB after its HELLO answer: the press is left to the
    box's retry, which comes after a heartbeat gave the clock (not dated `now`)."""
    w = Wire()
    w.link.start()
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    w.device(P.PRESS, "id=1 seat=2 t=2000", seq=7)
    assert w.events.presses == [] and w.lines() != []  # no ACK: only the state went out
    w.device(P.HB, "t=5000")
    w.device(P.PRESS, "id=1 seat=2 t=2000", seq=7)
    (token, _, _) = w.events.presses[-1]
    assert w.link.event_time(token) == pytest.approx(w.clock.now - 3.0)


def test_issue_34_item_2_the_box_fault_is_read_from_its_heartbeat():
    w = Wire()
    w.link.start()
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    assert w.link.box_fault is None
    seq = w.link._tx_seq
    w.link.command(P.SET, "police=5 limit=7 round=1 rounds=3 seats=4")
    w.device(P.NAK, f"of={seq} err=fault host={NONCE}")
    assert w.link.box_fault == ""  # held back: the words come with the next HB
    text = P.escape_text("ZeroDivisionError: divide by zero", 64)
    w.device(P.HB, f"t=1000 fault={text}")
    assert w.link.box_fault == "ZeroDivisionError: divide by zero"
    w.device(P.HB, "t=2000")  # a state that works cleared it
    assert w.link.box_fault is None


def test_a_press_that_crossed_faster_than_every_heartbeat_is_never_dated_after_it_arrived():
    """HBs alone set the offset now: a PRESS read sooner after it was sent than any HB was
    would map to a moment after its arrival (a negative age, which the app refuses)."""
    w = Wire()
    w.link.start()
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    w.device(P.HB, "t=5000")  # this one was 30 ms on the way...
    w.clock.now += 0.98
    w.device(P.PRESS, "id=1 seat=2 t=5990")  # ...this one 0 ms (read at box 6000 - 30 + 10)
    (token, _, _) = w.events.presses[-1]
    assert w.link.event_time(token) == w.clock.now


def test_issue_34_item_4_the_box_says_what_it_draws_on_its_clock():
    """A SET that begins a raid is answered with the raid's first tick; heartbeats carry the
    raid and countdown anchors while they run; the link gives them on its own clock."""
    w = Wire()
    w.link.start()
    w.device(P.HELLO, box_hello("b0070001", NONCE))
    w.device(P.HB, "t=5000")  # host 100.0 = box 5000
    assert w.link.box_drawn() == {"raid_at": None, "countdown_end": None}
    seq = w.link._tx_seq
    w.link.command(P.SET, "police=7 limit=7 round=1 rounds=3 seats=4")
    w.device(P.ACK, f"of={seq} raid=5300 host={NONCE}")
    assert w.link.box_drawn()["raid_at"] == pytest.approx(100.3)
    w.clock.now += 1.0
    w.device(P.HB, "t=6000 raid=5300 cd=6900")
    assert w.link.box_drawn() == {
        "raid_at": pytest.approx(100.3),
        "countdown_end": pytest.approx(101.9),
    }
    w.device(P.HB, "t=10000")  # both over
    assert w.link.box_drawn() == {"raid_at": None, "countdown_end": None}
