"""The host end of the wire protocol (docs/protocol.md): framing, sequence numbers, acks, retries.

No thread and no port of its own, in the manner of pyserial's `serial.threaded` protocol
classes: the bridge's reader thread feeds it received bytes (`data_received`) and calls
`poll()` on its clock; writes go through the `write` function under a lock. A port error while
writing is kept in `failed` (the reader thread reconnects); a bug in an event handler is not a
port error and is logged where it happens.
"""

import logging
import secrets
import threading
import time
from collections import deque

from companion_app.bridge.boxclock import BoxClock
from firmware import protocol as P

log = logging.getLogger(__name__)

#: Reliable command slots: the device applies each in order per slot (protocol "Reliability").
DISPLAY = "display"  # SET
REVEAL = "reveal"  # ARM / DISARM
_SLOT = {P.SET: DISPLAY, P.ARM: REVEAL, P.DISARM: REVEAL}
E_SESSION = "session"  # NAK err=: the box serves another host session (docs/protocol.md)
#: The longest box fault text kept (the box sends at most 64 escaped characters).
MAX_FAULT = 200


class LinkEvents:
    """What a link reports; the bridge overrides these (they run on the reader thread)."""

    def on_hello(self, fields, compatible):
        """The device said HELLO (boot, or an answer to ours): send it the full state."""

    def on_press(self, token, reveal_id, seat):
        """A seat (1..6) pressed; call `Link.answer(token)` once the app took it."""

    def on_reveal(self, token, reveal_id, seats):
        """The device revealed `seats` (1..6); call `Link.answer(token)`."""


class Link:
    """One session with one device over one open port (a new Link per open)."""

    RETRY_S = 0.3  # resend an unacknowledged SET/ARM/DISARM this often
    HEARTBEAT_S = 1.0  # send HB when nothing else was sent for this long
    SILENCE_S = 3.0  # no valid line from the device this long: the link is down
    HANDLED_MEMORY = 64  # device event seqs remembered for answering duplicates

    def __init__(self, write, events=None, clock=time.monotonic, seq=1, nonce=None):
        self._write = write
        self.nonce = nonce or secrets.token_hex(4)  # this session's host nonce (8 hex)
        self.events = events or LinkEvents()
        self._clock = clock
        self._lock = threading.RLock()
        self._reader = P.LineReader()
        self._tx_seq = seq  # a reopened port goes on numbering, so late ACKs match nothing
        self._pending = {}  # slot -> [seq, line, sent_at]
        self._last = {}  # slot -> (kind, payload) last commanded
        self._sent_at = self._heard_at = clock()
        self._epoch = 0  # bumped when the device restarts (new boot nonce, or its seq went back)
        self._boot = None  # the device's boot nonce, once heard
        self._hello_line = None  # our HELLO, repeated until a device HELLO names our nonce...
        self._hello_at = 0.0  # ...last sent then
        self._rx_seq = None  # newest device seq seen
        self._handled = deque(maxlen=self.HANDLED_MEMORY)
        self._inflight = set()
        self.ready = False  # a compatible HELLO naming our nonce arrived: commands may be sent
        self.incompatible = False  # the device speaks another protocol: we send nothing more
        self.hello = None  # fields of the device's last HELLO
        self.failed = None  # the port error of a failed write, if any
        self.box_quiet = False  # the box's heartbeat says it has not heard us for 3 s
        self.box_fault = None  # the box holds a state back that made it raise: the error's text
        self._unanswered_since = None  # a command of ours has waited for an answer since then
        self.errors = {P.E_CRC: 0, P.E_FORMAT: 0, P.E_LONG: 0, "nak": 0, "dup": 0, "retry": 0}
        self.errors.update(foreign=0, session=0)  # answers to another host; our session lost
        self.box_clock = BoxClock()  # the box's ticks on our clock (its HBs' `t=`)
        self._event_ticks = {}  # device seq -> (box ticks of the event, our clock on arrival)
        self._drawn = {"raid": None, "cd": None}  # box ticks of the animations it draws now

    # ----- sending ------------------------------------------------------------------------

    def start(self):
        """Open the session: HELLO with our nonce, repeated (poll) until the device answers."""
        with self._lock:
            self.ready = False
            self._pending.clear()
            self._last.clear()
            self._heard_at = self._clock()
            _, self._hello_line = self._send(P.HELLO, f"proto={P.PROTO_VERSION} host={self.nonce}")
            self._hello_at = self._clock()

    def command(self, kind, payload="", force=False):
        """Send SET/ARM/DISARM reliably, unless the same one was the slot's last (or not ready)."""
        slot = _SLOT[kind]
        with self._lock:
            if not self.ready or (not force and self._last.get(slot) == (kind, payload)):
                return False
            self._last[slot] = (kind, payload)
            seq, line = self._send(kind, self._tagged(payload))
            now = self._clock()
            self._pending[slot] = [seq, line, now]  # supersedes an older one
            if self._unanswered_since is None:
                self._unanswered_since = now
            return True

    def close(self, close_port):
        """End the session: run `close_port` while no write is in progress; nothing is sent after.

        Another thread (the app follower) may be inside `command` when the reader thread gives
        the port up; pyserial's write on a port closed under it fails with a TypeError.
        """
        with self._lock:
            if self.failed is None:
                self.failed = OSError("the session ended")
            self.ready = False
            close_port()

    def answer(self, token, err=None):
        """The app took (err None) or refused a device event: ACK or NAK it, once per seq."""
        epoch, seq = token
        with self._lock:
            if epoch != self._epoch:
                return  # the device restarted since: that seq means something else now
            self._inflight.discard(seq)
            self._handled.append(seq)
            self._reply(seq, err)

    def event_time(self, token):
        """When the box made the event `token` (a PRESS: when the seat locked), on the link's
        clock, converted when asked (by the newest clock samples) and never after the line
        arrived (a line that crossed faster than every heartbeat); None when the box does not
        say (older firmware)."""
        with self._lock:
            stamp = self._event_ticks.get(token[1]) if token[0] == self._epoch else None
            if stamp is None:
                return None
            at = self.box_clock.host_time(stamp[0])
            return None if at is None else min(at, stamp[1])

    def box_drawn(self):
        """The animations the box draws now, on the link's clock (issue 34 item 4): `raid_at`
        when its raid began, `countdown_end` when its countdown ends; None when it draws none
        (or its clock is not known yet)."""
        with self._lock:
            raid, end = self._drawn["raid"], self._drawn["cd"]
            clock = self.box_clock
            return {
                "raid_at": None if raid is None else clock.host_time(raid),
                "countdown_end": None if end is None else clock.host_time(end),
            }

    def forget(self, token):
        """The app could not be reached: the device's retry of this event will be tried again."""
        with self._lock:
            if token[0] == self._epoch:
                self._inflight.discard(token[1])

    def poll(self):
        """Resend overdue commands and send a heartbeat when due; False if the link is down."""
        with self._lock:
            now = self._clock()
            if self._greeting() and now - self._hello_at >= self.RETRY_S:
                self._say_hello(now)
            for entry in self._pending.values():
                if now - entry[2] >= self.RETRY_S:
                    entry[2] = now
                    self.errors["retry"] += 1
                    self._raw(entry[1])
            if now - self._sent_at >= self.HEARTBEAT_S:
                self._send(P.HB)
            return self.alive(now)

    def alive(self, now=None):
        """True while the device was heard within SILENCE_S."""
        now = self._clock() if now is None else now
        return now - self._heard_at < self.SILENCE_S

    def box_hears_us(self, now=None):
        """False while the box's heartbeat says it has not heard us for 3 s, or our commands
        have gone SILENCE_S without any answer (firmware without `quiet=` in HB; resending
        the state after a HELLO does not restart that wait): the line from us to the box is
        down even though the box is heard (a one-way outage)."""
        now = self._clock() if now is None else now
        since = self._unanswered_since
        return not self.box_quiet and (since is None or now - since < self.SILENCE_S)

    @property
    def heard_at(self):
        """When the device was last heard (the link's clock)."""
        return self._heard_at

    @property
    def next_seq(self):
        """The seq of the next line we send."""
        return self._tx_seq

    def pending(self):
        """Seqs of the commands still waiting for an answer (for tests and status)."""
        with self._lock:
            return sorted(entry[0] for entry in self._pending.values())

    def _tagged(self, payload):
        """`payload` naming this session (`host=`): the box applies and answers it only while it
        serves this session, so a late line of ours never confuses a later host, nor its ours."""
        tag = f"host={self.nonce}"
        return f"{payload} {tag}" if payload else tag

    def _greeting(self):
        """True while our HELLO waits for an answer that names our nonce."""
        return self._hello_line is not None and not self.ready and not self.incompatible

    def _say_hello(self, now):
        """Our HELLO again, the identical line (the device keys the session by the nonce)."""
        self._hello_at = now
        self.errors["retry"] += 1
        self._raw(self._hello_line)

    def _send(self, kind, payload=""):
        """Frame one line with the next seq and write it; (seq, line)."""
        seq = self._tx_seq
        self._tx_seq = P.seq_next(seq)
        line = P.encode(seq, kind, payload)
        self._raw(line)
        return seq, line

    def _raw(self, line):
        """Write bytes; a port error is kept in `failed`, never raised to the caller."""
        self._sent_at = self._clock()
        if self.failed is not None:
            return
        try:
            self._write(line)
        except OSError as exc:  # SerialException is an OSError
            self.failed = exc

    def _reply(self, seq, err):
        """ACK or NAK a device event."""
        if err is None:
            self._send(P.ACK, self._tagged(f"of={seq}"))
        else:
            self._send(P.NAK, self._tagged(f"of={seq} err={err}"))

    # ----- receiving ----------------------------------------------------------------------

    def data_received(self, data):
        """Bytes from the port: act on every complete line; bad lines are counted and dropped."""
        with self._lock:
            overflows = self._reader.overflows
            for line in self._reader.feed(data):
                self._line(line)
            self.errors[P.E_LONG] += self._reader.overflows - overflows

    def _line(self, line):
        """Check and dispatch one line."""
        try:
            msg = P.decode(line)
        except P.ProtocolError as exc:
            self.errors[exc.reason] += 1
            return
        self._heard_at = self._clock()
        if msg.kind == P.HB:
            self._heartbeat(msg)
        if msg.kind == P.HELLO:
            self._on_hello(msg)
        if msg.kind in (P.HB, P.PRESS):
            self._stamped(msg)
        if self._rx_seq is None or P.seq_newer(msg.seq, self._rx_seq):
            self._rx_seq = msg.seq
        if msg.kind in (P.ACK, P.NAK):
            self._settle(msg)
        elif msg.kind in P.RELIABLE_FROM_DEVICE and self.ready:
            self._event(msg)

    def _on_hello(self, msg):
        """A device HELLO: note a restart; once it names our nonce, the full state goes out.

        A HELLO that does not name us (the box rebooted, or its answer to our HELLO was lost
        and this is its announcement) gets our HELLO again at once, and nothing is sent or
        acknowledged until the answer comes: the box ignores commands outside a session.
        """
        try:
            fields = msg.fields()
        except P.ProtocolError:
            fields = {}
        self.hello = fields
        compatible = fields.get("proto") == str(P.PROTO_VERSION)
        boot = fields.get("boot")
        if boot is None:  # firmware without nonces: it restarted if its numbering went back
            restarted = self._rx_seq is not None and not P.seq_newer(msg.seq, self._rx_seq)
            greeted = True
        else:
            restarted = self._boot is not None and boot != self._boot
            self._boot = boot
            greeted = fields.get("host") == self.nonce
        if restarted:
            self._epoch += 1  # its event seqs start again: the ones we handled mean nothing
            self._handled.clear()
            self._inflight.clear()
            self._event_ticks.clear()
            self._drawn = {"raid": None, "cd": None}
            self.box_clock.reset()
            self.box_fault = None  # a held box says so in the HB after its HELLO
        self.incompatible = not compatible
        if compatible and not greeted:
            self.ready = False
            if self._hello_line is not None:  # started: ours again now (else start() sends it)
                self._say_hello(self._clock())
            return
        self.ready = compatible
        self._pending.clear()
        self._last.clear()
        self.events.on_hello(fields, compatible)

    def _heartbeat(self, msg):
        """The box's HB: whether it hears us (`quiet=1`), the fault it holds back, and the
        anchors of what it draws (`raid=`, `cd=`)."""
        self.box_quiet = msg.payload.find("quiet=1") >= 0
        try:
            fields = msg.fields()
        except P.ProtocolError:
            return
        fault = fields.get("fault")
        self.box_fault = None if fault is None else P.unescape_text(fault)[:MAX_FAULT]
        self._drawn = {"raid": _ticks(fields.get("raid")), "cd": _ticks(fields.get("cd"))}

    def _stamped(self, msg):
        """A line the box stamped with its clock (`t=`). An HB's is the clock as it sent it:
        one more sample of the offset. A PRESS's is when the seat locked, which a retry from
        before this session may repeat seconds later, so it is no sample: its ticks are kept
        for `event_time` (the box sends an HB after every HELLO answer, so the clock is
        known before a new session's first press; issue 34 item 3)."""
        try:
            ticks = int(msg.fields()["t"])
        except (P.ProtocolError, KeyError, ValueError):
            return  # older firmware: no stamp
        if msg.kind == P.HB:
            self.box_clock.heard(ticks, self._clock())
            return
        self._event_ticks[msg.seq] = (ticks, self._clock())
        while len(self._event_ticks) > self.HANDLED_MEMORY:
            del self._event_ticks[next(iter(self._event_ticks))]

    def _settle(self, msg):
        """ACK/NAK of one of our commands: it needs no more retries.

        Only an answer naming our session counts (or naming none: firmware without session
        tags); one naming another host answers that host's line with the same seq. A NAK
        `err=session` naming us means the box serves another host now: we greet it again.
        """
        try:
            fields = msg.fields()
            of = int(fields.get("of", "-1"))
        except (P.ProtocolError, ValueError):
            return
        if fields.get("host", self.nonce) != self.nonce:
            self.errors["foreign"] += 1
            return
        self.box_quiet = False  # it answered a line of ours: it hears us
        self._unanswered_since = None
        if msg.kind == P.ACK and "raid" in fields:  # our SET began its raid then
            self._drawn = {**self._drawn, "raid": _ticks(fields["raid"])}
        if msg.kind == P.NAK and fields.get("err") == E_SESSION:
            self._session_lost()
            return
        if msg.kind == P.NAK:
            self.errors["nak"] += 1
            log.warning("the box refused command %s: %s", of, fields.get("err"))
            if fields.get("err") == P.E_FAULT and self.box_fault is None:
                self.box_fault = ""  # held back; its HB names the error within a second
        for slot, entry in list(self._pending.items()):
            if entry[0] == of:
                del self._pending[slot]

    def _session_lost(self):
        """The box no longer serves our session (a later HELLO took it): greet it again; the
        full state follows its answer."""
        self.errors["session"] += 1
        if self.ready and self._hello_line is not None:
            self.ready = False
            self._say_hello(self._clock())

    def _event(self, msg):
        """PRESS/REVEAL: answer a repeat at once, hand a new one to the events once."""
        seq = msg.seq
        if seq in self._handled:
            self.errors["dup"] += 1
            self._reply(seq, None)
            return
        if seq in self._inflight:
            self.errors["dup"] += 1
            return
        try:
            fields = msg.fields()
            rid = int(fields["id"])
            if msg.kind == P.PRESS and "t" in fields and not self.box_clock.known:
                return  # no clock from this box yet (firmware < 0.3): its retry gets one
            if msg.kind == P.PRESS:
                target = int(fields["seat"])
            else:
                target = [int(s) for s in fields["seats"].split(",") if s]
        except (P.ProtocolError, KeyError, ValueError):
            self._reply(seq, P.E_FIELD)
            return
        self._inflight.add(seq)
        token = (self._epoch, seq)
        try:
            if msg.kind == P.PRESS:
                self.events.on_press(token, rid, target)
            else:
                self.events.on_reveal(token, rid, target)
        except Exception:  # a handler bug must not swallow the event: the retry gets a chance
            self._inflight.discard(seq)
            raise


def _ticks(text):
    """A field's box ticks as an int; None when absent or not a number."""
    return int(text) if text is not None and text.isdigit() else None
