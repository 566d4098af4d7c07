"""The wire codec: framing, CRC over the exact text, bounded lines, resync, sequence numbers."""

import binascii
import subprocess
import sys

import protocol as P
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from .conftest import ROOT

KINDS = st.sampled_from([P.HELLO, P.SET, P.ARM, P.DISARM, P.HB, P.ACK, P.NAK, P.PRESS])
VALUES = st.text(alphabet="abcxyz0123456789,.:-_", max_size=8)
PAIRS = st.lists(st.tuples(st.from_regex(r"[a-z]{1,6}", fullmatch=True), VALUES), max_size=5)


def test_encode_is_body_space_star_crc_of_the_exact_body():
    line = P.encode(12, "SET", "police=3 limit=7")
    body = b"12 SET police=3 limit=7"
    assert line == body + b" *%08x\n" % binascii.crc32(body)


def test_encode_without_payload_has_no_trailing_space():
    assert P.encode(0, "HB").startswith(b"0 HB *")


@given(st.integers(0, P.SEQ_MOD - 1), KINDS, PAIRS)
def test_decode_inverts_encode(seq, kind, pairs):
    payload = P.format_fields(pairs)
    msg = P.decode(P.encode(seq, kind, payload))
    assert (msg.seq, msg.kind, msg.payload) == (seq, kind, payload)
    assert msg.fields() == dict(pairs)


def test_decode_accepts_crlf_and_a_line_without_newline():
    line = P.encode(3, "HB")
    assert P.decode(line[:-1] + b"\r\n") == P.decode(line) == P.decode(line[:-1])


def test_crc_covers_the_exact_text_not_a_reserialisation():
    # Same fields, other order: other text, other CRC; a swapped line fails the check.
    a = P.encode(5, "SET", "police=3 limit=7")
    b = P.encode(5, "SET", "limit=7 police=3")
    assert a[-10:] != b[-10:]
    with pytest.raises(P.ProtocolError) as err:
        P.decode(b[: b.index(b" *")] + a[a.index(b" *") :])
    assert err.value.reason == P.E_CRC


def test_upper_case_crc_digits_are_a_format_error():
    """docs/protocol.md: the CRC is 8 lower-case hex digits; "C" for "c" is a changed byte."""
    line = P.encode(7, "SET", "police=3 limit=7 round=2 seats=4")
    digits = line[line.index(b" *") + 2 : -1]  # 3b2d976c: letters to shout
    shouted = line.replace(digits, digits.upper())
    assert shouted != line
    with pytest.raises(P.ProtocolError) as err:
        P.decode(shouted)
    assert err.value.reason == P.E_FORMAT


@example(47, 67)  # found by CI: a lower-case CRC digit turned upper-case used to pass
@given(st.integers(0, 200), st.integers(0, 255))
def test_any_single_byte_change_is_rejected(pos, value):
    line = P.encode(7, "SET", "police=3 limit=7 round=2 seats=4")[:-1]
    pos %= len(line)
    if line[pos] == value:
        return
    bad = line[:pos] + bytes([value]) + line[pos + 1 :]
    with pytest.raises(P.ProtocolError):
        P.decode(bad)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"", P.E_FORMAT),
        (b"garbage", P.E_FORMAT),
        (b"1 HB *zzzzzzzz", P.E_FORMAT),
        (b"1 HB *1234567", P.E_FORMAT),
        (b"1 hb *" + b"%08x" % binascii.crc32(b"1 hb"), P.E_FORMAT),
        (b"x HB *" + b"%08x" % binascii.crc32(b"x HB"), P.E_FORMAT),
        (b"70000 HB *" + b"%08x" % binascii.crc32(b"70000 HB"), P.E_FORMAT),
        (b"1 H\x03B *00000000", P.E_FORMAT),
        (b"1 HB \xff *00000000", P.E_FORMAT),
        (b"1 HB *00000000", P.E_CRC),
        (b"1 " + b"A" * 130, P.E_LONG),
    ],
)
def test_bad_lines_say_why(line, reason):
    with pytest.raises(P.ProtocolError) as err:
        P.decode(line)
    assert err.value.reason == reason


def test_encode_refuses_a_line_over_the_limit():
    overhead = len(b"1 SET x= *12345678\n")
    longest = P.encode(1, "SET", "x=" + "1" * (P.MAX_LINE - overhead))
    assert len(longest) == P.MAX_LINE
    assert P.decode(longest).fields() == {"x": "1" * (P.MAX_LINE - overhead)}
    with pytest.raises(P.ProtocolError):
        P.encode(1, "SET", "x=" + "1" * (P.MAX_LINE - overhead + 1))


def test_line_reader_splits_chunks_into_lines():
    reader = P.LineReader()
    assert reader.feed(b"1 HB *0") == []
    assert reader.feed(b"0\n2 HB") == [b"1 HB *00"]
    assert reader.feed(b" *1\n\n") == [b"2 HB *1", b""]


def test_line_reader_drops_an_over_long_line_and_resyncs_on_the_next():
    reader = P.LineReader()
    good = P.encode(9, "HB")
    lines = reader.feed(b"x" * 500 + b"\n" + good)
    assert lines == [good[:-1]]
    assert reader.overflows == 1


def test_line_reader_keeps_a_line_of_exactly_the_maximum():
    reader = P.LineReader()
    line = b"y" * (P.MAX_LINE - 1) + b"\n"
    assert reader.feed(line) == [line[:-1]]
    assert reader.feed(b"y" * P.MAX_LINE + b"\n") == []
    assert reader.overflows == 1


@given(st.lists(PAIRS, min_size=1, max_size=6), st.lists(st.integers(1, 40), min_size=1))
def test_line_reader_gives_the_same_lines_however_the_bytes_are_chunked(payloads, cuts):
    stream = b"".join(P.encode(i, "SET", P.format_fields(p)) for i, p in enumerate(payloads))
    reader = P.LineReader()
    got = []
    pos = 0
    for i in range(len(stream)):
        size = cuts[i % len(cuts)]
        got += reader.feed(stream[pos : pos + size])
        pos += size
        if pos >= len(stream):
            break
    assert [P.decode(line).payload for line in got] == [P.format_fields(p) for p in payloads]


def test_line_reader_feed_takes_a_count():
    reader = P.LineReader()
    buf = bytearray(b"a\nbXXXX")
    assert reader.feed(buf, 3) == [b"a"]
    assert reader.feed(b"\n") == [b"b"]


@pytest.mark.parametrize(
    ("seq", "last", "newer"),
    [
        (1, None, True),
        (2, 1, True),
        (1, 1, False),
        (0, 1, False),
        (0, 65535, True),
        (65535, 0, False),
        (32767, 0, True),
        (32768, 0, False),
    ],
)
def test_seq_newer_uses_serial_arithmetic(seq, last, newer):
    assert P.seq_newer(seq, last) is newer


def test_seq_next_wraps():
    assert P.seq_next(65535) == 0
    assert P.seq_next(4) == 5


def test_seat_lists_and_masks():
    assert P.seats_to_mask("1,3,4") == 0b1101
    assert P.seats_to_mask("") == 0
    assert P.mask_to_seats(0b1101) == "1,3,4"
    assert P.mask_to_seats(0) == ""
    for bad in ("0", "x", "1,,x", "99"):
        with pytest.raises(P.ProtocolError):
            P.seats_to_mask(bad)


def test_fields_without_equals_are_a_format_error():
    with pytest.raises(P.ProtocolError):
        P.parse_fields("police=3 oops")


def test_host_side_imports_it_as_firmware_protocol_from_the_repo_root():
    code = "from firmware import protocol; print(protocol.encode(1, 'HB').decode(), end='')"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout == P.encode(1, "HB").decode()
