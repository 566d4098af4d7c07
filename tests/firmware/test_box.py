"""The box's state machine on CPython with fakes: hello, state, reveal flow, link faults."""

import board
import frame as F
import machine
import protocol as P
from box import FW_VERSION, Box

from .conftest import HOST_NONCE


def kinds(replies):
    """Just the message types, for compact asserts."""
    return [m.kind for m in replies]


def seat_states(box):
    """The scene's seat states as a list."""
    return list(box.scene.seat)


# ----- hello and display state ------------------------------------------------------------


def test_hello_on_boot_says_who_it_is(host, box):
    (hello,) = host.at(0)
    assert hello.kind == P.HELLO
    assert hello.fields() == {
        "fw": FW_VERSION,
        "proto": str(P.PROTO_VERSION),
        "board": "esp32-devkitc",
        "uid": "246f28a1b2c3",
        "layout": "7,5,6",
        "boot": box.boot,
    }
    assert len(box.boot) == 8 and int(box.boot, 16) >= 0


def test_hello_on_request_and_only_once_at_boot(host):
    host.at(0)
    assert host.at(5) == []
    assert kinds(host.send(P.HELLO, "proto=1")) == [P.HELLO, P.HB]  # its clock follows


def test_set_applies_the_whole_display_state_and_is_acknowledged(host, box):
    host.open()
    (ack,) = host.send(P.SET, "police=3 limit=7 round=2 rounds=3 seats=4", seq=40)
    assert (ack.kind, ack.fields()) == (P.ACK, {"of": "40", "host": HOST_NONCE})
    s = box.scene
    assert (s.police, s.limit, s.round, s.rounds) == (3, 7, 2, 3)
    assert seat_states(box) == [F.SEAT_IDLE] * 4 + [F.SEAT_OFF] * 2
    assert s.connected and not s.raid


def test_set_reaches_the_strip(host, box):
    host.open()
    host.send(P.SET, "police=3 limit=7 round=2 rounds=3 seats=4")
    np = box.strip._np
    assert bytes(np.buf) == bytes(box.frame.buf)
    assert np[0] == box.frame.colour(F.C_POLICE)
    assert np[3] == box.frame.colour(F.C_SLOT)


def test_set_is_idempotent(host, box):
    host.start()
    host.send(P.SET, "police=2 limit=5 round=1 rounds=3 seats=2")
    frame_once = bytes(box.frame.buf)
    writes = box.strip.writes
    host.send(P.SET, "police=2 limit=5 round=1 rounds=3 seats=2")
    assert bytes(box.frame.buf) == frame_once
    assert box.strip.writes == writes  # unchanged frames are not re-sent to the LEDs


def test_set_defaults_rounds_and_brightness(host, box):
    host.open()
    host.send(P.SET, "police=0 limit=7 round=1 seats=3")
    assert box.scene.rounds == 5 and box.frame.brightness == 100
    host.send(P.SET, "police=0 limit=7 round=1 seats=3 bright=40")
    assert box.frame.brightness == 40


def test_unknown_fields_are_ignored_for_forward_compatibility(host, box):
    host.open()
    (ack,) = host.send(P.SET, "police=1 limit=7 round=1 seats=3 mood=happy")
    assert ack.kind == P.ACK and box.scene.police == 1


def test_reaching_the_limit_starts_the_raid_once(host, box):
    host.start()
    host.now = 100
    host.send(P.SET, "police=7 limit=7 round=1 rounds=3 seats=4")
    assert box.scene.raid and box.scene.raid_at == 100
    host.now = 900
    host.send(P.SET, "police=7 limit=7 round=1 rounds=3 seats=4")
    assert box.scene.raid_at == 100  # a resend does not restart the animation
    host.send(P.SET, "police=0 limit=7 round=2 rounds=3 seats=4")
    assert not box.scene.raid


def test_two_player_limit_of_five(host, box):
    host.start()
    host.send(P.SET, "police=5 limit=5 round=1 rounds=3 seats=2")
    assert box.scene.raid


def test_bad_values_are_refused_with_nak_and_change_nothing(host, box):
    host.start("police=2 limit=7 round=1 rounds=3 seats=4")
    for payload, err in [
        ("police=8 limit=7 round=1 seats=4", P.E_RANGE),
        ("police=6 limit=5 round=1 seats=4", P.E_RANGE),
        ("police=1 limit=7 round=4 rounds=3 seats=4", P.E_RANGE),
        ("police=1 limit=7 round=1 seats=7", P.E_RANGE),
        ("police=1 limit=7 round=1 seats=4 bright=101", P.E_RANGE),
        ("police=1 limit=7 round=1", P.E_FIELD),
        ("police=x limit=7 round=1 seats=4", P.E_FIELD),
        ("police=-1 limit=7 round=1 seats=4", P.E_FIELD),
        ("police=1 limit=7 round=1 seats=4 junk", P.E_FORMAT),
    ]:
        (nak,) = host.send(P.SET, payload)
        assert (nak.kind, nak.fields()["err"]) == (P.NAK, err), payload
    assert box.scene.police == 2


def test_unknown_type_is_refused(host):
    host.at(0)
    (nak,) = host.send("DANCE", "now=1", seq=77)
    assert nak.kind == P.NAK and nak.fields() == {"of": "77", "err": P.E_TYPE}


# ----- sequence numbers -------------------------------------------------------------------


def test_duplicates_are_acknowledged_but_not_applied(host, box):
    host.open()
    host.send(P.SET, "police=1 limit=7 round=1 seats=4", seq=10)
    host.send(P.SET, "police=2 limit=7 round=1 seats=4", seq=11)
    (ack,) = host.send(P.SET, "police=1 limit=7 round=1 seats=4", seq=10)  # late retry
    assert ack.fields() == {"of": "10", "dup": "1", "host": HOST_NONCE}
    assert box.scene.police == 2
    assert box.errors["dup"] == 1


def test_order_is_kept_per_slot_so_a_late_set_does_not_block_an_arm(host, box):
    host.open()
    host.send(P.SET, "police=1 limit=7 round=1 seats=4", seq=20)
    host.send(P.ARM, "id=3 seats=1,2", seq=19)  # older seq, other slot: applied
    assert box._armed == 0b11


def test_sequence_numbers_wrap(host, box):
    host.open()
    host.send(P.SET, "police=1 limit=7 round=1 seats=4", seq=65535)
    host.send(P.SET, "police=2 limit=7 round=1 seats=4", seq=0)
    assert box.scene.police == 2


def test_a_host_hello_without_a_nonce_starts_a_new_numbering(host, box):
    """A protocol-1 host without nonces: every HELLO is a new session, its untagged commands
    are that session's and the answers name none."""
    host.open()
    host.send(P.SET, "police=4 limit=7 round=1 seats=4", seq=30000)
    host.send(P.HELLO, "proto=1", seq=1)
    (ack,) = host.send(P.SET, "police=1 limit=7 round=1 seats=4", seq=2, host="")
    assert ack.fields() == {"of": "2"} and box.scene.police == 1


def test_device_sequence_counts_every_line(host):
    replies = host.at(0) + host.send(P.HELLO) + host.send(P.HB) + host.at(1000)
    assert [(m.seq, m.kind) for m in replies] == [
        (1, P.HELLO),  # at boot
        (2, P.HELLO),  # the answer...
        (3, P.HB),  # ...and the box's clock with it (issue 34 item 3)
        (4, P.HELLO),  # announced again: no host has set the state yet
        (5, P.HB),
    ]


# ----- noise on the line ------------------------------------------------------------------


def test_bad_crc_is_dropped_silently_and_counted(host, box):
    host.start("police=1 limit=7 round=1 rounds=3 seats=4")
    line = P.encode(50, P.SET, "police=5 limit=7 round=1 seats=4")
    flipped = b"1" if line[-2:-1] == b"0" else b"0"
    assert host.raw(line[:-2] + flipped + b"\n") == []
    assert box.scene.police == 1 and box.errors[P.E_CRC] == 1


def test_over_long_line_is_dropped_and_the_next_line_works(host, box):
    host.open()
    assert host.raw(b"7" * 1000 + b"\n") == []
    assert box.errors[P.E_LONG] == 1
    (ack,) = host.send(P.SET, "police=3 limit=7 round=1 seats=4")
    assert ack.kind == P.ACK and box.scene.police == 3


def test_garbage_and_control_bytes_never_crash_the_box(host, box):
    host.open()
    junk = bytes(range(256)) * 3 + b"\x03\x03\x04\n\r\n*\n 1 SET *\n"
    assert host.raw(junk) == []
    (ack,) = host.send(P.SET, "police=3 limit=7 round=1 seats=4")
    assert ack.kind == P.ACK


def test_a_line_split_across_reads_is_reassembled(host, box, port):
    host.open()
    port.chunk = 3
    line = P.encode(5, P.SET, f"police=6 limit=7 round=1 seats=4 host={HOST_NONCE}")
    port.feed(line)
    replies = []
    for _ in range(len(line)):
        replies += host.tick()
    assert kinds(replies) == [P.ACK] and box.scene.police == 6


# ----- heartbeat and silence --------------------------------------------------------------


def test_heartbeat_every_second_without_drift(host):
    host.at(0)
    beats = []
    for t in range(5, 5000, 5):
        beats += [t for m in host.at(t) if m.kind == P.HB]
    assert beats == [1000, 2000, 3000, 4000]


def test_disconnected_until_the_host_speaks_and_after_three_seconds_of_silence(host, box):
    host.at(0)
    assert not box.scene.connected
    host.now = 100
    host.send(P.HB)
    assert box.scene.connected
    host.at(3099)
    assert box.scene.connected
    host.at(3100)
    assert not box.scene.connected
    dot = box.frame.colour(F.C_SCAN)
    assert dot in [box.frame.pixel(i) for i in range(12)]
    host.send(P.HB)
    assert box.scene.connected


def test_bad_lines_do_not_count_as_the_host_being_there(host, box):
    host.at(0)
    host.raw(b"1 HB *00000000\n")
    assert not box.scene.connected


# ----- reveal flow ------------------------------------------------------------------------


def test_reveal_flow_arm_press_lock_countdown_reveal(host, box):
    host.start()
    host.now = 900
    (ack,) = host.send(P.ARM, "id=9 seats=1,3")
    assert ack.kind == P.ACK
    assert seat_states(box)[:4] == [F.SEAT_ARMED, F.SEAT_IDLE, F.SEAT_ARMED, F.SEAT_IDLE]
    host.now = 910
    (press,) = host.press(3)
    # t: the box's clock when the seat locked (its countdown's start: docs/protocol.md)
    assert (press.kind, press.fields()) == (P.PRESS, {"id": "9", "seat": "3", "t": "915"})
    assert seat_states(box)[2] == F.SEAT_LOCKED
    assert host.press(2) == []  # not armed: nothing
    host.now = 1100
    (press,) = [m for m in host.press(1) if m.kind != P.HB]
    assert press.fields()["seat"] == "1"
    locked_at = 1100 + Box.TICK_MS  # the second low poll
    assert box.scene.countdown and box.scene.countdown_at == locked_at + Box.COUNTDOWN_MS
    assert P.REVEAL not in kinds(host.at(locked_at + Box.COUNTDOWN_MS - 1))
    replies = host.at(locked_at + Box.COUNTDOWN_MS)
    reveal = [m for m in replies if m.kind == P.REVEAL]
    assert [m.fields() for m in reveal] == [{"id": "9", "seats": "1,3"}]
    assert seat_states(box)[:4] == [F.SEAT_REVEALED, F.SEAT_IDLE, F.SEAT_REVEALED, F.SEAT_IDLE]


def test_a_locked_seat_cannot_press_twice(host):
    host.start()
    host.send(P.ARM, "id=1 seats=1,2")
    host.now = 10
    assert kinds(host.press(1)) == [P.PRESS]
    host.now = 100
    host.release(1)
    host.now = 200
    assert host.press(1) == []


def test_each_press_is_sent_once_and_retried_until_acknowledged(host):
    host.start()
    host.now = 0
    host.send(P.ARM, "id=1 seats=1,2")
    host.now = 10
    (press,) = host.press(1)
    resent = [m for t in range(15, 2000, 5) for m in host.at(t) if m.kind == P.PRESS]
    assert [m.seq for m in resent] == [press.seq] * 3  # at 510, 1010, 1510 ms
    host.send(P.ACK, f"of={press.seq}")
    assert not [m for t in range(2000, 4000, 5) for m in host.at(t) if m.kind == P.PRESS]


def test_a_nak_also_ends_the_retries(host):
    host.start()
    host.send(P.ARM, "id=1 seats=1")
    host.now = 10
    (press,) = host.press(1)
    host.send(P.NAK, f"of={press.seq} err=range")
    assert P.PRESS not in kinds(host.at(600))


def test_host_locked_seats_and_a_same_id_resend_keep_progress(host, box):
    host.start()
    host.send(P.ARM, "id=4 seats=1,2,3 locked=2")
    assert seat_states(box)[:3] == [F.SEAT_ARMED, F.SEAT_LOCKED, F.SEAT_ARMED]
    host.now = 10
    host.press(1)
    host.send(P.ARM, "id=4 seats=1,2,3")  # full-state resend after a reconnect
    assert seat_states(box)[:3] == [F.SEAT_LOCKED, F.SEAT_LOCKED, F.SEAT_ARMED]


def test_arming_another_seat_cancels_the_countdown(host, box):
    host.start()
    host.send(P.ARM, "id=4 seats=1")
    host.now = 10
    host.press(1)
    assert box.scene.countdown
    host.send(P.ARM, "id=4 seats=1,2")
    assert not box.scene.countdown
    assert P.REVEAL not in kinds(host.at(5000))


def test_a_new_reveal_id_starts_afresh_and_drops_old_events(host, box):
    host.start()
    host.send(P.ARM, "id=1 seats=1,2")
    host.now = 10
    host.press(1)
    host.send(P.ARM, "id=2 seats=1,2")
    assert seat_states(box)[:2] == [F.SEAT_ARMED, F.SEAT_ARMED]
    assert box._pending == []


def test_disarm_clears_the_reveal(host, box):
    host.start()
    host.send(P.ARM, "id=1 seats=1,2")
    (ack,) = host.send(P.DISARM)
    assert ack.kind == P.ACK
    assert seat_states(box)[:4] == [F.SEAT_IDLE] * 4
    assert not box.scene.countdown


def test_arm_refuses_unknown_seats_and_locks_outside_the_armed_set(host):
    host.start()
    for payload in ("id=1 seats=7", "id=1 seats=1 locked=2", "id=0 seats=1", "id=1"):
        (nak,) = host.send(P.ARM, payload)
        assert nak.kind == P.NAK, payload


def test_presses_keep_working_while_disconnected_and_are_delivered_later(host, box):
    host.start()
    host.send(P.ARM, "id=1 seats=1,2")
    host.at(5000)
    assert not box.scene.connected
    (press,) = host.press(2)
    assert seat_states(box)[1] == F.SEAT_LOCKED
    host.send(P.HELLO)
    host.send(P.ARM, "id=1 seats=1,2")
    again = [m for t in range(5005, 6000, 5) for m in host.at(t) if m.kind == P.PRESS]
    assert again and again[0].seq == press.seq


def test_a_flood_of_presses_is_bounded(host, box):
    host.start()
    host.send(P.ARM, "id=1 seats=1,2,3,4,5,6")
    t = 0
    for _ in range(50):
        for seat in range(1, 7):
            t += 60
            host.now = t
            host.press(seat)
            t += 60
            host.now = t
            host.release(seat)
    assert len(box._pending) <= Box.MAX_PENDING


def test_piezo_beeps_on_press_and_reveal(host, box):
    host.start()
    host.send(P.ARM, "id=1 seats=1")
    host.now = 10
    host.press(1)
    host.at(100)
    host.at(10 + Box.TICK_MS + Box.COUNTDOWN_MS)
    assert box.piezo._pwm.tones == 2


def test_stop_leaves_the_loop_for_the_repl(host, box):
    host.at(0)
    (ack,) = host.send("STOP")
    assert ack.kind == P.ACK and not box.running


# ----- sessions: boot and host nonces (docs/protocol.md "Sessions") ------------------------


def test_commands_before_any_host_hello_are_neither_applied_nor_answered(host, box):
    host.at(0)
    assert host.send(P.SET, "police=3 limit=7 round=1 seats=4") == []
    assert host.send(P.ARM, "id=1 seats=1") == []
    assert box.scene.police == 0 and box._armed == 0
    assert box.errors["nosession"] == 2


def test_the_hello_answer_names_the_boot_and_the_host(host, box):
    (boot, answer, _beat) = host.open("0c0ffee1")
    assert "host" not in boot.fields()
    assert answer.fields()["boot"] == box.boot and answer.fields()["host"] == "0c0ffee1"


def test_a_repeated_hello_of_the_same_host_keeps_its_sequence_state(host, box):
    host.open("0c0ffee1")
    host.send(P.SET, "police=4 limit=7 round=1 seats=4", seq=40)
    host.send(P.HELLO, "proto=1 host=0c0ffee1", seq=1)  # a late copy of the first HELLO
    (ack,) = host.send(P.SET, "police=1 limit=7 round=1 seats=4", seq=39)  # stale
    assert ack.fields() == {"of": "39", "dup": "1", "host": HOST_NONCE}
    assert box.scene.police == 4


def test_a_new_host_nonce_starts_a_new_numbering(host, box):
    host.open("0c0ffee1")
    host.send(P.SET, "police=4 limit=7 round=1 seats=4", seq=40)
    host.nonce = "0c0ffee2"
    host.send(P.HELLO, "proto=1 host=0c0ffee2", seq=1)
    (ack,) = host.send(P.SET, "police=1 limit=7 round=1 seats=4", seq=2)
    assert ack.fields() == {"of": "2", "host": "0c0ffee2"} and box.scene.police == 1


def test_a_bad_host_nonce_is_refused(host, box):
    host.at(0)
    for nonce in ("0c0ffee10", "0C0FFEE1", "x"):
        (nak,) = host.send(P.HELLO, f"proto=1 host={nonce}")
        assert (nak.kind, nak.fields()["err"]) == (P.NAK, P.E_FIELD), nonce
    assert box.settled is False and box.session.host is None


def test_the_box_announces_itself_until_the_host_set_its_state(host, box):
    host.open()
    hellos = [t for t in range(5, 3000, 5) for m in host.at(t) if m.kind == P.HELLO]
    assert hellos == list(range(Box.ANNOUNCE_MS, 3000, Box.ANNOUNCE_MS))  # no state yet
    host.send(P.SET, "police=1 limit=7 round=1 seats=4")
    host.send(P.DISARM)
    assert box.settled
    assert not [t for t in range(3000, 6000, 5) for m in host.at(t) if m.kind == P.HELLO]


def test_a_box_that_rebooted_announces_itself_with_a_new_boot_nonce(port):
    first = board.make_box(port=port)
    second = board.make_box(port=port)
    assert first.boot != second.boot


def test_the_longest_hello_fits_a_line():
    box = Box(None, type("B", (), {"count": 6})(), None, uid="f" * 12, boot="f" * 8)
    box._host = "f" * 8
    box._tx_seq = P.SEQ_MOD - 1
    assert len(P.encode(box._tx_seq, P.HELLO, box._hello())) <= P.MAX_LINE


# ----- watchdog ---------------------------------------------------------------------------


def test_every_tick_feeds_the_watchdog(port):
    wdt = machine.WDT(timeout=5000)
    box = board.make_box(port=port, wdt=wdt)
    for t in range(0, 50, 5):
        box.tick(t)
    assert wdt.feeds == 10


def test_a_button_held_when_the_reveal_is_armed_counts_only_when_pressed_again(host, box):
    """docs/protocol.md "Reveal flow": a press from before the reveal never chooses."""
    host.start()
    host.now = 10
    host.press(1)  # held down before the ARM
    host.now = 100
    host.send(P.ARM, "id=1 seats=1,2")
    assert [m for t in range(105, 400, 5) for m in host.at(t)] == []
    assert seat_states(box)[0] == F.SEAT_ARMED  # still "press"
    host.now = 400
    host.release(1)
    host.now = 500
    (press,) = host.press(1)
    assert press.fields() == {"id": "1", "seat": "1", "t": "505"}


def test_serve_is_the_board_loop_ticking_until_stop(port):
    box = board.make_box(port=port)
    naps = []

    def nap(ms):
        naps.append(ms)
        if len(naps) == 3:
            port.feed(P.encode(9, "STOP"))

    box.serve(nap)
    assert len(naps) == 4 and all(0 <= ms <= Box.TICK_MS for ms in naps)
    assert [P.decode(line.encode()).kind for line in port.take_lines()] == [P.HELLO, P.ACK]
    assert not box.running and not any(box.strip._np.buf)  # LEDs off for the REPL


def test_issue_34_item_4_the_box_reports_the_anchors_of_what_it_draws(host, box):
    """The raid's first tick in the ACK of the SET that began it and in heartbeats while it
    runs; the countdown's end in heartbeats while it runs; nothing once they are over."""
    host.start("police=6 limit=7 round=1 rounds=3 seats=2")
    host.now = 300
    (ack,) = host.send(P.SET, "police=7 limit=7 round=1 rounds=3 seats=2")
    assert ack.fields()["raid"] == "300"
    (again,) = host.send(P.SET, "police=7 limit=7 round=2 rounds=3 seats=2")
    assert "raid" not in again.fields()  # the same raid goes on
    host.send(P.ARM, "id=1 seats=1 locked=1")  # the only seat locked: the countdown runs
    (beat,) = [m for m in host.at(1000) if m.kind == P.HB]
    assert beat.fields()["raid"] == "300"
    assert beat.fields()["cd"] == str(300 + box.COUNTDOWN_MS)
    later = [m for m in host.at(300 + box.frame.RAID_MS + 1000) if m.kind == P.HB]
    assert later and "raid" not in later[-1].fields() and "cd" not in later[-1].fields()
