"""The boot-loop guard played through (issue 34 item 2), on CPython and under real MicroPython.

A state of the app's (police=5) makes the box's drawing raise. The supervisor restarts the box
after each fault and the host, as the bridge does, sends its whole state again each time; from
the third fault within 10 s the fresh box holds that state back. `play()` returns what
happened; `mp_runner.mjs run` prints it as `GUARD <key> <value>` lines.
"""

import board
import protocol as P
import supervisor
from fakeport import FakePort
from supervisor import Supervisor

POISON = "police=5 limit=7 round=2 rounds=3 seats=4"  # the state that makes render raise
GOOD = "police=4 limit=7 round=2 rounds=3 seats=4"
HOST = "0c0ffee1"


class Clock:
    """The supervisor's clock; its pauses move it on."""

    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


def poisoned(frame):
    """`frame` whose render raises on the poisoned state, as a handler bug would."""
    draw = frame.render

    def render(scene, now):
        if scene.police == 5:
            raise ZeroDivisionError("divide by zero")
        draw(scene, now)

    frame.render = render


class Host:
    """The host's side on one box: its lines out, the box's lines back (decoded)."""

    def __init__(self, box, port, clock):
        self.box, self.port, self.clock, self.seq = box, port, clock, 1

    def send(self, kind, payload):
        """One tagged line; the box's answers (an exception in the box's tick propagates)."""
        if kind != P.HELLO:
            payload = payload + " host=" + HOST if payload else "host=" + HOST
        self.port.feed(P.encode(self.seq, kind, payload))
        self.seq += 1
        return self.tick()

    def tick(self):
        """Tick until the input is read; the lines written."""
        self.box.tick(self.clock.now)
        while self.port.waiting():
            self.box.tick(self.clock.now)
        return [P.decode(line.encode()) for line in self.port.take_lines()]


def play(memory_error=False):
    """Run the poisoned state through the supervisor; a dict of what was seen. With
    `memory_error` the loop's faults are MemoryErrors and printing a traceback fails too."""
    clock, port, resets, seen = Clock(), FakePort(), [], {}
    boxes = []

    def make_box():
        box = board.make_box(port=port)
        poisoned(box.frame)
        boxes.append(box)
        return box

    def run_box(box):
        host = Host(box, port, clock)
        beats = [m for m in host.send(P.HELLO, "proto=1 host=" + HOST) if m.kind == P.HB]
        if box.fault is not None:  # the HB that follows the HELLO answer names the fault
            seen["hello_fault"] = P.unescape_text(beats[0].fields()["fault"])
        if memory_error and box.fault is None:
            raise MemoryError("memory allocation failed")
        answers = host.send(P.SET, POISON)  # raises unless the box holds it back
        seen["held_answer"] = [(m.kind, m.fields().get("err")) for m in answers]
        seen["held_pixels"] = [box.frame.pixel(i) != (0, 0, 0) for i in range(4)]
        answers = host.send(P.DISARM, "")  # the reveal slot, as the bridge sends it: no new
        seen["disarm_answer"] = [m.kind for m in answers]  # display state, so still held
        seen["held_after_disarm"] = box.fault is not None
        clock.now += box.HEARTBEAT_MS
        beats = [m for m in host.tick() if m.kind == P.HB]
        seen["fault"] = P.unescape_text(beats[0].fields()["fault"]) if beats else None
        seen["box_is_held"] = box.fault is not None
        answers = host.send(P.SET, GOOD)  # a state that works clears the guard
        seen["cleared_answer"] = [m.kind for m in answers]
        seen["cleared"] = box.fault is None and box.scene.police == 4
        box.running = False

    def pause(ms):
        clock.now += ms

    sup = Supervisor(make_box, reset=lambda: resets.append(clock.now), run_box=run_box, clock=clock)
    sup.pause = pause
    printer = supervisor.print_exception
    if memory_error:

        def no_memory(exc, file=None):
            raise MemoryError()

        supervisor.print_exception = no_memory
    try:
        sup.run()
    finally:
        supervisor.print_exception = printer
    seen["faults"] = sup.faults
    seen["resets"] = len(resets)
    seen["boxes"] = len(boxes)
    return seen


if __name__ == "__main__":
    for flag in (False, True):
        for key, value in sorted(play(flag).items()):
            print("GUARD", "memory" if flag else "bug", key, repr(value))
