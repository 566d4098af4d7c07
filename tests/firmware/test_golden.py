"""The golden session transcript: well-formed, and replayed on CPython and on real MicroPython."""

import re

import protocol as P
from stepper import Stepper

from .conftest import ROOT, golden_lines, run_node

INPUT_PREFIXES = ("@ ", "H> ", "! ")


def steps():
    """[(input line, [expected device lines])] in transcript order."""
    out = []
    for line in golden_lines():
        if line.startswith(INPUT_PREFIXES):
            out.append((line, []))
        elif line.startswith("D> "):
            assert out, "a device line before any input"
            out[-1][1].append(line[3:])
        else:
            assert not line or line.startswith("#"), f"unknown transcript line: {line!r}"
    return out


def decodes(text):
    """True if the line passes the codec."""
    try:
        P.decode(text.encode())
    except P.ProtocolError:
        return False
    return True


def test_every_device_line_is_valid_and_numbered_in_order():
    sent = {}
    expected_seq = 1
    for step, answers in steps():
        if step == "! reboot":
            expected_seq = 1
            sent = {}
        for text in answers:
            msg = P.decode(text.encode())
            if msg.seq in sent:  # a retry repeats the same line byte for byte
                assert sent[msg.seq] == text
                continue
            assert msg.seq == expected_seq, text
            sent[msg.seq] = text
            expected_seq += 1


def test_bad_host_lines_get_no_answer_and_good_ones_always_do():
    """...except commands that reach a rebooted box before a host HELLO (no session yet)."""
    bad = unanswered = 0
    session = False
    for step, answers in steps():
        if step == "! reboot":
            session = False
        if not step.startswith("H> "):
            continue
        text = step[3:]
        if not decodes(text):
            bad += 1
            assert answers == [], text
            continue
        kind = P.decode(text.encode()).kind
        session = session or kind == P.HELLO
        if kind in (P.SET, P.ARM, P.DISARM) and not session:
            unanswered += 1
            assert answers == [], text
        elif kind not in (P.HB, P.ACK):
            assert answers, f"no answer to {text}"
    assert bad == 3 and unanswered == 1


def test_the_session_covers_every_message_type_both_ways():
    host = {
        P.decode(s[3:].encode()).kind for s, _ in steps() if s.startswith("H> ") and decodes(s[3:])
    }
    device = {P.decode(d.encode()).kind for _, answers in steps() for d in answers}
    assert host >= {P.HELLO, P.SET, P.ARM, P.DISARM, P.HB, P.ACK, "STOP"}
    assert device >= {P.HELLO, P.ACK, P.NAK, P.PRESS, P.REVEAL, P.HB}


def test_protocol_doc_describes_every_message_type():
    doc = (ROOT / "docs" / "protocol.md").read_text()
    for kind in (P.HELLO, P.SET, P.ARM, P.DISARM, P.HB, P.ACK, P.NAK, P.PRESS, P.REVEAL, "STOP"):
        assert f"`{kind}" in doc, kind
    assert "tests/firmware/golden/session.txt" in doc


def test_replay_on_cpython_step_by_step():
    stepper = Stepper()
    for step, answers in steps():
        assert stepper.step(step) == answers, step
    assert not stepper.box.running  # the session ends with STOP


def test_replay_on_micropython_step_by_step():
    inputs = [step for step, _ in steps()]
    result = run_node(["stepped"], stdin="\n".join(inputs) + "\n")
    assert result.returncode == 0, result.stderr
    got = result.stdout.split("=\n")
    assert got[-1] == ""
    got_steps = [chunk.splitlines() for chunk in got[:-1]]
    assert len(got_steps) == len(inputs)
    for (step, answers), lines in zip(steps(), got_steps, strict=True):
        assert lines == answers, step


def test_protocol_doc_examples_are_valid_lines():
    doc = (ROOT / "docs" / "protocol.md").read_text()
    examples = re.findall(r"`(\d+ [A-Z]+ [^`]*\*[0-9a-f]{8})`", doc)
    assert examples
    for line in examples:
        P.decode(line.encode())
