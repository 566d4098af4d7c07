"""Host-side replay of the golden session (tests/firmware/golden/session.txt).

The device's `D> ` lines are fed to our link and bridge; our answers must follow
docs/protocol.md: the same HELLO, the full state after every device HELLO, the same commands
in the same order, an ACK for every PRESS and REVEAL, each press handed to the app once.
Our heartbeat timing and sequence numbers may differ, so the device's `of=` fields are
mapped from the transcript's host seqs to ours before they are fed.
"""

from pathlib import Path

import pytest

from companion_app.bridge.driver import Bridge
from companion_app.bridge.link import Link
from firmware import protocol as P

GOLDEN = Path(__file__).resolve().parents[1] / "firmware" / "golden" / "session.txt"
COMMANDS = (P.SET, P.ARM, P.DISARM)
TABLE = "golden"


class SyncWorker:
    """Runs app jobs at once against a fake app that takes every press."""

    def __init__(self):
        self.presses = []

    def submit(self, job):
        """Run the job now."""
        job(self)

    def request(self, method, path, body=None):
        """The fake app: every press is new."""
        self.presses.append((path, body["id"], body["seat"]))
        return 200, {"duplicate": False}


def view_from(kind, fields, current):
    """The app view that makes our host send this command (seats back to 0-based)."""
    view = dict(current)
    if kind == P.SET:
        view["display"] = {
            k: int(fields[k]) for k in ("police", "limit", "round", "rounds", "seats")
        }
    elif kind == P.ARM:

        def seats(text):
            """ "1,3" -> [0, 2]."""
            return [int(s) - 1 for s in text.split(",") if s]

        view["reveal"] = {
            "id": int(fields["id"]),
            "seats": seats(fields["seats"]),
            "locked": seats(fields.get("locked", "")),
            "revealed": fields.get("revealed") == "1",
        }
    else:
        view["reveal"] = None
    return view


class HostReplay:
    """Our host (a Link and a Bridge, no threads) driven by the transcript."""

    def __init__(self):
        self.lines = [line for line in GOLDEN.read_text().splitlines() if line.strip()]
        self.now = 0.0
        self.presses = []
        self.acks = []
        self.processes = []  # (sent lines, app worker, link) of each host process

    def new_process(self, nonce):
        """A host process opens the port: a fresh bridge and link (seq 1, the host's nonce)."""
        self.out = bytearray()
        if not self.processes:
            self.first_out = self.out
        self.seq_map = {}
        self.worker = SyncWorker()
        self.bridge = Bridge("http://127.0.0.1:9", lambda: None)
        self.bridge.worker = self.worker
        self.link = Link(self.out.extend, events=self.bridge, clock=lambda: self.now, nonce=nonce)
        self.link.HEARTBEAT_S = float("inf")  # heartbeats are timing, not content
        self.bridge.attach(self.link, "golden")
        self.view = {"display": None, "reveal": None}
        self.processes.append((self, self.worker, self.link))
        self.link.start()

    def sent(self):
        """Our lines so far in this process, decoded, heartbeats left out."""
        msgs = [P.decode(raw) for raw in bytes(self.out).split(b"\n") if raw]
        return [m for m in msgs if m.kind != P.HB]

    def set_view(self, kind, fields):
        """The app's view changes so that the host sends this command."""
        view = view_from(kind, fields, self.view)
        if view != self.view:
            self.view = view
            self.bridge.show(TABLE, view)

    def lookahead(self, index):
        """Apply the commands the host sends after the device HELLO at `index`."""
        for line in self.lines[index + 1 : index + 6]:
            if line.startswith("@") or line.startswith("#"):
                break
            msg = _valid(line)
            if msg is not None and msg.kind in COMMANDS:
                self.set_view(msg.kind, msg.fields())

    def feed_device(self, text):
        """A device line, its `of=` mapped to our seq."""
        msg = P.decode(text.encode())
        if msg.kind in (P.ACK, P.NAK):
            fields = msg.fields()
            if int(fields["of"]) not in self.seq_map:
                return  # the answer to a bad command our host never sends
            fields["of"] = str(self.seq_map[int(fields["of"])])
            text = P.encode(msg.seq, msg.kind, P.format_fields(fields.items())).decode()
        self.link.data_received(text.encode() + b"\n")

    def host_command(self, msg, index):
        """A command the transcript's host sent: ours must be the same; map its seq to ours."""
        if msg.seq in self.seq_map or _refused(self.lines, index, msg.seq):
            return  # a retry, a stale replay, or a deliberately bad command
        self.set_view(msg.kind, msg.fields())
        ours = [m for m in self.sent() if (m.kind, m.payload) == (msg.kind, msg.payload)]
        assert ours, f"our host never sent {msg.kind} {msg.payload}"
        self.seq_map[msg.seq] = ours[-1].seq

    def run(self):
        """Replay the whole session; every check is an assert."""
        for index, line in enumerate(self.lines):
            if line.startswith("@ "):
                self.now = int(line[2:]) / 1000
                if self.processes:
                    self.link.poll()
            elif line.startswith("D> ") and self.processes:
                if P.decode(line[3:].encode()).kind == P.HELLO:
                    self.lookahead(index)
                self.feed_device(line[3:])
            elif line.startswith("H> "):
                self.host_line(_valid(line), line[3:], index)

    def host_line(self, msg, text, index):
        """Check one of the transcript host's lines against what ours did."""
        if msg is None or msg.kind in (P.HB, "STOP"):
            return
        if msg.kind == P.HELLO:
            nonce = msg.fields()["host"]
            if self.processes and nonce == self.link.nonce:  # the same host says hello again
                assert [m for m in self.sent() if (m.kind, m.payload) == (msg.kind, msg.payload)]
                return
            self.new_process(nonce)
            assert bytes(self.out) == (text + "\n").encode()  # seq 1: byte for byte
        elif msg.kind in COMMANDS:
            self.host_command(msg, index)
        elif msg.kind == P.ACK:
            acked = [m.payload for m in self.sent() if m.kind == P.ACK]
            assert msg.payload in acked, f"no {msg.payload} among our ACKs {acked}"
            self.acks.append(msg.payload)


def _valid(line):
    """The decoded H>/D> line, or None if it is noise."""
    try:
        return P.decode(line[3:].encode())
    except P.ProtocolError:
        return None


def _refused(lines, index, seq):
    """True if the device answers the host line at `index` with a NAK."""
    for line in lines[index + 1 : index + 3]:
        msg = _valid(line) if line.startswith("D> ") else None
        if msg is not None and msg.kind == P.NAK and msg.fields()["of"] == str(seq):
            return True
    return False


@pytest.fixture(scope="module")
def replay():
    """The whole session replayed once."""
    host = HostReplay()
    host.run()
    return host


def commands(msgs):
    """(kind, payload) of the SET/ARM/DISARM lines among `msgs`."""
    return [(m.kind, m.payload) for m in msgs if m.kind in COMMANDS]


def test_two_host_processes_each_opened_with_hello_seq_1(replay):
    assert len(replay.processes) == 2


def test_every_press_and_reveal_is_acknowledged(replay):
    """...each answer naming the session that handled it (docs/protocol.md "Sessions")."""
    # device seqs of the golden transcript (firmware 0.3.0: an HB follows each HELLO answer)
    first = [f"of={seq} host=0c0ffee1" for seq in (18, 19, 21, 22, 24)]
    second = [f"of={seq} host=0c0ffee2" for seq in (17, 19)]
    assert replay.acks == first + second


def test_each_press_reaches_the_app_once(replay):
    (_, first, _), (_, second, _) = replay.processes
    assert [(i, s) for _, i, s in first.presses] == [(1, 1), (1, 2), (1, 0), (1, 3)]
    assert [(i, s) for _, i, s in second.presses] == [(2, 0)]  # seat 1, 0-based
    assert {path for path, _, _ in first.presses} == {f"/api/tables/{TABLE}/reveal/press"}


def test_every_command_was_acknowledged_in_the_end(replay):
    for _, _, link in replay.processes:
        assert link.pending() == []
        assert link.errors["nak"] == 0


def test_the_device_reset_got_our_hello_and_the_full_state_again(replay):
    first_link = replay.processes[0][2]
    assert first_link._epoch == 1  # the reboot's new boot nonce was seen as a restart
    hellos = [raw for raw in bytes(replay.first_out).split(b"\n") if b" HELLO " in raw]
    assert len(hellos) >= 3 and len(set(hellos)) == 1  # at the start, at the boot HELLO and
    # at the announcement: the same line each time
    sent = [P.decode(raw) for raw in bytes(replay.first_out).split(b"\n") if raw]
    raid = (P.SET, "police=7 limit=7 round=1 rounds=3 seats=4 host=0c0ffee1")
    disarm = (P.DISARM, "host=0c0ffee1")
    assert commands(sent)[-3:] == [raid, raid, disarm]  # the app changed nothing


def test_a_new_host_process_sends_its_state_after_the_hello(replay):
    """...every command naming its session; after the box's reset the reveal goes out as
    over (revealed=1), so the box does not count down again."""
    tag = " host=0c0ffee2"
    state = (P.SET, "police=0 limit=7 round=2 rounds=3 seats=4" + tag)
    sent = commands(replay.sent())
    assert sent[:3] == [state, (P.DISARM, tag.strip()), (P.ARM, "id=2 seats=1,3 locked=3" + tag)]
    assert sent[-2:] == [state, (P.ARM, "id=2 seats=1,3 locked=1,3 revealed=1" + tag)]
