"""The boot-loop guard (issue 34 item 2): a state that makes the box's code raise is held back
after three faults in 10 s instead of looping the box; a MemoryError while the supervisor
reports does not end it. Played on CPython and under real MicroPython (mp_guard.py)."""

import ast

import boxfault
import frame as F
import protocol as P
import pytest

from . import mp_guard
from .conftest import HERE, run_node

BUG = "ZeroDivisionError: divide by zero"


def check(seen, fault_at_hello):
    """What mp_guard.play() saw, as the issue asks."""
    assert seen["faults"] == 3 and seen["boxes"] == 4 and seen["resets"] == 0  # no reset loop
    assert seen["held_answer"] == [(P.NAK, P.E_FAULT)]  # the poisoned SET is refused...
    assert seen["disarm_answer"] == [P.ACK] and seen["held_after_disarm"]  # ...and stays so
    assert seen["held_pixels"] == [True, False, True, False]  # the box-fault pattern
    assert seen["hello_fault"] == fault_at_hello  # the HB after the HELLO answer names it
    assert seen["fault"] == BUG and seen["box_is_held"]  # every HB names it
    assert seen["cleared_answer"] == [P.ACK, P.HELLO] and seen["cleared"]  # a new state clears


def test_issue_34_item_2_a_poisoned_state_is_held_back_not_looped_on_cpython():
    check(mp_guard.play(), BUG)


def test_issue_34_item_2_a_memory_error_while_reporting_does_not_end_the_supervisor():
    check(mp_guard.play(memory_error=True), boxfault.OUT_OF_MEMORY)


def test_issue_34_item_2_the_guard_under_real_micropython():
    result = run_node(["run", str(HERE / "mp_guard.py")])
    assert result.returncode == 0, result.stderr
    seen = {"bug": {}, "memory": {}}
    for line in result.stdout.splitlines():
        if line.startswith("GUARD "):
            _, mode, key, value = line.split(" ", 3)
            seen[mode][key] = ast.literal_eval(value)
    seen["bug"]["held_answer"] = [tuple(x) for x in seen["bug"]["held_answer"]]
    seen["memory"]["held_answer"] = [tuple(x) for x in seen["memory"]["held_answer"]]
    check(seen["bug"], BUG)
    check(seen["memory"], boxfault.OUT_OF_MEMORY)


def test_a_held_box_refuses_a_retry_as_a_duplicate_and_stops_announcing(host, box):
    """A held back command is consumed: its retry is a duplicate, and the box, whose session
    has both slots, does not ask for the state every 500 ms."""
    host.open()
    box.hold("boom", ["SET police=5 limit=7 round=1 seats=4"])
    (nak,) = host.send(P.SET, "police=5 limit=7 round=1 seats=4", seq=40)
    assert nak.fields()["err"] == P.E_FAULT
    (dup,) = host.send(P.SET, "police=5 limit=7 round=1 seats=4", seq=40)
    assert dup.fields().get("dup") == "1"
    host.send(P.DISARM)
    assert box.settled and box.fault == "boom"
    assert [m.kind for m in host.at(600) + host.at(1100)] == [P.HB]  # no HELLO at 500
    assert box.frame.pixel(0) == box.frame.colour(F.C_FAULT)


def test_a_held_box_that_raises_again_keeps_its_state_and_names_the_new_fault(host, box):
    host.start("police=2 limit=7 round=1 rounds=3 seats=4")
    box.hold("old", ["SET police=5 limit=7 round=1 seats=4"])

    def render(scene, now):
        raise IndexError("seat")

    box.frame.render = render
    (nak,) = host.send(P.SET, "police=6 limit=7 round=1 seats=4")
    assert nak.fields()["err"] == P.E_FAULT and box.scene.police == 2  # as before
    assert box.fault == P.escape_text("IndexError: seat", boxfault.FAULT_CHARS)


@pytest.mark.parametrize(
    "text",
    ["ZeroDivisionError: divide by zero", "100% = *all* of it", "naïve\ttab", ""],
)
def test_fault_text_survives_the_wire(text):
    value = P.escape_text(text, 200)
    assert P.unescape_text(value) == text.encode("latin-1", "replace").decode("latin-1")
    assert all(c not in value for c in " =*") and value.isascii()
    assert P.parse_fields("fault=" + value) == {"fault": value}


def test_fault_text_is_cut_to_fit_the_heartbeat():
    exc = ValueError("x" * 300 + " y")
    value = boxfault.describe(exc)
    assert len(value) <= boxfault.FAULT_CHARS
    line = P.encode(65535, P.HB, f"t={(1 << 30) - 1} quiet=1 fault={value}")
    assert len(line) <= P.MAX_LINE


def test_describe_falls_back_to_fixed_texts():
    class Broken(Exception):
        def __str__(self):
            raise RuntimeError("no words")

    assert boxfault.describe(Broken()) == boxfault.UNKNOWN
    assert boxfault.describe(MemoryError("x")) == boxfault.OUT_OF_MEMORY
