"""The box: the device state machine between the serial link, the seat buttons and the LEDs.

Drivers are passed in (strip, buttons, port, optional piezo), so tests run it with fakes on
CPython and under MicroPython. `tick(now)` does one loop iteration and never blocks; `serve()`
calls it every TICK_MS on the board (under supervisor.py). docs/protocol.md is the contract.
"""

import random

import protocol as P
from boxfault import describe
from compat import ticks_add, ticks_diff, ticks_ms
from frame import SEAT_ARMED, SEAT_IDLE, SEAT_LOCKED, SEAT_OFF, SEAT_REVEALED, Frame, Scene
from session import Session, valid_nonce

FW_VERSION = "0.3.0"  # 0.3: HB after a HELLO answer, `fault=`, NAK err=fault (issue 34)
STOP = "STOP"  # host -> device: leave the loop for the REPL (firmware updates)
E_SESSION = "session"  # NAK err=: the command names a host session the box no longer serves
QUIET = "quiet=1"  # in HB: the box has not heard the host for SILENCE_MS (shows disconnected)
FAULT = " fault="  # in HB while the box holds a state back that made its code raise


def new_nonce() -> str:
    """A fresh per-boot nonce: 8 hex digits (the ESP32 seeds `random` from its hardware RNG)."""
    return f"{random.getrandbits(32):08x}"


class Box:
    """One table box: sessions, idempotent full state, reveal mode, heartbeat, retries."""

    TICK_MS = 5  # loop period: button latency and frame rate (only changed frames are sent)
    HEARTBEAT_MS = 1000
    ANNOUNCE_MS = 500  # HELLO again this often until a host session has set the state
    SILENCE_MS = 3000  # no valid line from the host this long: show "disconnected"
    RETRY_MS = 500  # resend an unacknowledged PRESS/REVEAL this often
    COUNTDOWN_MS = 1500  # all armed seats locked -> reveal after this long
    MAX_PENDING = 8  # unacknowledged events kept (6 presses + 1 reveal fit)
    RX_CHUNK = 128  # bytes read per tick: 2.2x the 115200 baud line rate (docs/protocol.md)

    def __init__(
        self, strip, buttons, port, uid="", piezo=None, board="esp32-devkitc", boot=None, wdt=None
    ):
        self.strip = strip
        self.buttons = buttons
        self.port = port
        self.piezo = piezo
        self.uid = uid
        self.board = board
        self.boot = boot or new_nonce()  # this boot's nonce: the host sees a restart by it
        self.wdt = wdt  # machine.WDT, fed once per tick
        self.frame = Frame()
        self.scene = Scene(self.frame.SEAT_LEDS)
        self._reader = P.LineReader()
        self._rx = bytearray(self.RX_CHUNK)
        self._tx_seq = 1
        self.session = Session()  # the host session served: nonce, last command per slot
        self._heard_at = 0
        self._hb_at = 0
        self._announce_at = 0
        self._booted = False
        self._pending: list[list] = []  # [seq, line, sent_at, reveal id] of unacknowledged events
        self._seats = 0  # seats at the table (from SET)
        self._reveal_id = 0
        self._armed = 0  # seat bit masks: bit i = seat i+1
        self._locked = 0
        self._revealed = False
        self.running = True
        self.fault: str | None = None  # while held (hold()): what raised, as a `fault=` value
        self._poison: list[str] = []  # while held: commands refused ("KIND payload", no host=)
        self._state: list[str | None] = [None, None]  # the SET and the ARM/DISARM in force...
        self._trying: str | None = None  # ...and the command being applied
        self.errors = {
            P.E_CRC: 0,
            P.E_FORMAT: 0,
            P.E_LONG: 0,
            "dup": 0,
            "dropped": 0,
            "nosession": 0,
            E_SESSION: 0,
        }

    # ----- the loop -------------------------------------------------------------------------

    def serve(self, sleep_ms) -> None:
        """The board's loop: tick every TICK_MS until the host sends STOP. An exception ends
        it: the supervisor (supervisor.py) shows the fault and starts a fresh box. A plain
        loop, not asyncio: awaiting asyncio's sleep object costs 12 bytes an iteration."""
        while self.running:
            started = ticks_ms()
            self.tick(started)
            left = self.TICK_MS - ticks_diff(ticks_ms(), started)
            sleep_ms(left if left > 0 else 0)
        self.deinit()

    async def run(self):
        """The same loop as an asyncio task (the Node runner's live mode uses it)."""
        import asyncio

        while self.running:
            self.tick(ticks_ms())
            await asyncio.sleep_ms(self.TICK_MS)
        self.deinit()

    def tick(self, now: int) -> None:
        """One loop iteration at tick `now`: link, buttons, timers, LEDs; feeds the watchdog."""
        if not self._booted:
            self._booted = True
            self._hb_at = now
            self._announce(now)
        self.poll_serial(now)
        self.poll_buttons(now)
        self.housekeeping(now)
        self.render(now)
        if self.wdt is not None:
            self.wdt.feed()

    @property
    def settled(self) -> bool:
        """True once a host session has set both the display and the reveal state."""
        return self.session.settled

    def poll_serial(self, now: int) -> None:
        """Read what the host sent and act on each complete line."""
        n = self.port.readinto(self._rx)
        if not n:
            return
        overflows = self._reader.overflows
        for line in self._reader.feed(self._rx, n):
            self._receive(line, now)
        self.errors[P.E_LONG] += self._reader.overflows - overflows

    def poll_buttons(self, now: int) -> None:
        """First edge of a press on an armed seat locks it and tells the host."""
        pressed = self.buttons.poll(now)
        if not pressed:
            return
        for i in range(self.buttons.count):
            bit = 1 << i
            if pressed & bit and self._armed & bit and not self._locked & bit:
                if self._revealed:
                    continue
                self._locked |= bit
                self._event(P.PRESS, f"id={self._reveal_id} seat={i + 1} t={now}", now)
                self._beep(now, False)
        self._update_countdown(now)
        self._refresh_seats()

    def housekeeping(self, now: int) -> None:
        """Countdown, link silence, heartbeat and event retries."""
        scene = self.scene
        if scene.countdown and ticks_diff(now, scene.countdown_at) >= 0:
            scene.countdown = False
            self._revealed = True
            self._refresh_seats()
            seats = P.mask_to_seats(self._armed)
            self._event(P.REVEAL, f"id={self._reveal_id} seats={seats}", now)
            self._beep(now, True)
        if scene.connected and ticks_diff(now, self._heard_at) >= self.SILENCE_MS:
            scene.connected = False
        if not self.settled and ticks_diff(now, self._announce_at) >= self.ANNOUNCE_MS:
            self._announce(now)
        if ticks_diff(now, self._hb_at) >= self.HEARTBEAT_MS:
            self._hb_at = ticks_add(self._hb_at, self.HEARTBEAT_MS)
            if ticks_diff(now, self._hb_at) >= self.HEARTBEAT_MS:  # fell behind: realign
                self._hb_at = now
            self._beat(now)
        for entry in self._pending:
            if ticks_diff(now, entry[2]) >= self.RETRY_MS:
                self.port.write(entry[1])
                entry[2] = now
        if self.piezo is not None:
            self.piezo.poll(now)

    def render(self, now: int) -> None:
        """Draw the scene (the box-fault pattern while held) and push it to the strip."""
        if self.fault is None:
            self.frame.render(self.scene, now)
        else:
            self.frame.render_held()
        self.strip.show(self.frame.buf)

    def deinit(self) -> None:
        """LEDs off, drivers released."""
        self.strip.deinit()
        self.buttons.deinit()
        if self.piezo is not None:
            self.piezo.deinit()

    # ----- receiving ------------------------------------------------------------------------

    def _receive(self, line: bytes, now: int) -> None:
        """Check one line and dispatch it; bad lines are counted and dropped."""
        try:
            msg = P.decode(line)
        except P.ProtocolError as exc:
            self.errors[exc.reason] += 1
            return
        self._heard_at = now
        self.scene.connected = True
        kind = msg.kind
        if kind == P.HB:
            return
        if kind == P.ACK or kind == P.NAK:
            self._settle(msg)
        elif kind == P.HELLO:
            self._host_hello(msg, now)
        elif kind in P.RELIABLE_FROM_HOST:
            if self.session.host is None:  # from a host that does not know this boot yet: its
                self.errors["nosession"] += 1  # retry comes after the HELLO exchange
                return
            self._command(msg, now)
        elif kind == STOP:
            self._send(P.ACK, f"of={msg.seq}")
            self.running = False
        else:
            self._send(P.NAK, f"of={msg.seq} err={P.E_TYPE}")

    def _host_hello(self, msg: P.Message, now: int) -> None:
        """A host HELLO: a new host nonce starts a session (old seqs forgotten); answer HELLO."""
        try:
            host = msg.fields().get("host", "")
        except P.ProtocolError:
            host = None
        if host is None or not valid_nonce(host):
            self._send(P.NAK, f"of={msg.seq} err={P.E_FIELD}")
            return
        self.session.hello(host)
        self._announce(now)
        self._beat(now)  # the box's clock at once: a PRESS retried from before is dated by it

    def _command(self, msg: P.Message, now: int) -> None:
        """Apply a SET/ARM/DISARM of this host session once, in order per slot; always answer.

        A command naming another session (a late line of an earlier host process) is refused
        with `err=session`, its answer naming that session: it is never applied and never
        counts as a duplicate of this session's commands.
        """
        try:
            fields = msg.fields()
        except P.ProtocolError as exc:
            self._send(P.NAK, f"of={msg.seq} err={exc.reason}")
            return
        host = fields.get("host", "")
        if not self.session.owns(host):
            self.errors[E_SESSION] += 1
            self._send(P.NAK, f"of={msg.seq} err={E_SESSION}" + (" host=" + host if host else ""))
            return
        tag = self.session.tag()
        if not self.session.fresh(msg.kind, msg.seq):
            self.errors["dup"] += 1
            self._send(P.ACK, f"of={msg.seq} dup=1{tag}")
            return
        text = msg.kind + " " + _untagged(msg.payload)
        held = self.fault is not None
        calm = not self.scene.raid
        try:
            if held and not self._tentative(msg.kind, fields, text, now):
                self.session.applied(msg.kind, msg.seq)  # refused for good: a retry is a dup
                self._send(P.NAK, f"of={msg.seq} err={P.E_FAULT}{tag}")
                return
            if not held:
                self._trying = text  # what the supervisor holds back if this raises
                self._apply(msg.kind, fields, now)
        except P.ProtocolError as exc:
            self._trying = None
            self._send(P.NAK, f"of={msg.seq} err={exc.reason}{tag}")
            return
        self._trying = None
        self._state[0 if msg.kind == P.SET else 1] = text
        self.session.applied(msg.kind, msg.seq)
        self._update_countdown(now)
        self._refresh_seats()
        drawn = f" raid={self.scene.raid_at}" if calm and self.scene.raid else ""
        self._send(P.ACK, f"of={msg.seq}{drawn}{tag}")  # the raid's first frame, on our clock
        if held and self.fault is None:  # the guard is cleared: the host sends its whole state
            self._announce(now)  # again, with what was held back meanwhile

    def _apply(self, kind: str, fields: dict[str, str], now: int) -> None:
        """Apply one SET/ARM/DISARM to the box's state (ProtocolError: nothing changes)."""
        if kind == P.SET:
            self._apply_set(fields, now)
        elif kind == P.ARM:
            self._apply_arm(fields, now)
        else:
            self._reset_reveal(0)

    # ----- the boot-loop guard --------------------------------------------------------------

    def hold(self, fault: str, poison: list[str]) -> None:
        """Faults came too often (supervisor.py): show the box-fault pattern, report `fault` in
        every HB, refuse the commands in `poison` (NAK err=fault) and try any other one."""
        self.fault = fault
        self._poison = poison

    def held_state(self) -> list[str]:
        """The commands in force or being applied ("KIND payload"): what may have raised."""
        return [text for text in (self._state[0], self._state[1], self._trying) if text]

    def _tentative(self, kind: str, fields: dict[str, str], text: str, now: int) -> bool:
        """While held: apply a command and draw it once; False if it is held back or raises
        (then everything is as before and it is held back from now). A new command in a slot
        that holds one back clears the guard; in the other slot it is only applied (the
        same reveal sent again after a restart is no new state)."""
        if text in self._poison:
            return False
        clears = False
        for held in self._poison:
            clears = clears or held.startswith(P.SET + " ") == (kind == P.SET)
        saved = self._saved()
        try:
            self._apply(kind, fields, now)
            self._update_countdown(now)
            self._refresh_seats()
            self.frame.render(self.scene, now)
        except P.ProtocolError:
            self._restore(saved)
            raise
        except Exception as exc:  # the bug the guard is for: this state raises too
            self._restore(saved)
            self._poison.append(text)
            self.fault = describe(exc)
            return False
        if clears:
            self.fault = None
            self._poison = []
        return True

    def _saved(self) -> tuple:
        """The state a command may change (allocates: only while held)."""
        s = self.scene
        return (
            (s.police, s.limit, s.round, s.rounds, s.raid, s.raid_at, s.countdown),
            (s.countdown_at, self._seats, self.frame.brightness, self._pending),
            (self._reveal_id, self._armed, self._locked, self._revealed),
        )

    def _restore(self, saved: tuple) -> None:
        """Put back what `_saved` kept."""
        s = self.scene
        s.police, s.limit, s.round, s.rounds, s.raid, s.raid_at, s.countdown = saved[0]
        s.countdown_at, self._seats, bright, self._pending = saved[1]
        self._reveal_id, self._armed, self._locked, self._revealed = saved[2]
        self.frame.set_brightness(bright)
        self._refresh_seats()

    def _apply_set(self, fields: dict[str, str], now: int) -> None:
        """`SET police= limit= round= seats= [rounds=] [bright=]`: the whole display state."""
        frame = self.frame
        limit = _number(fields, "limit", 1, frame.POLICE_LEDS)
        police = _number(fields, "police", 0, limit)
        rounds = _number(fields, "rounds", 1, frame.ROUND_LEDS, frame.ROUND_LEDS)
        rnd = _number(fields, "round", 0, rounds)
        seats = _number(fields, "seats", 0, frame.SEAT_LEDS)
        bright = _number(fields, "bright", 0, 100, 100)
        scene = self.scene
        raid = police >= limit
        if raid and not scene.raid:
            scene.raid_at = now
        scene.raid = raid
        scene.police = police
        scene.limit = limit
        scene.round = rnd
        scene.rounds = rounds
        self._seats = seats
        frame.set_brightness(bright)

    def _apply_arm(self, fields: dict[str, str], now: int) -> None:
        """`ARM id= seats= [locked=] [revealed=1]`: these seats must choose; the same id keeps
        their progress. `revealed=1` on a reveal this box does not hold (it was reset, or it
        follows a table whose reveal is over) shows it revealed at once: no countdown replayed,
        no REVEAL sent (the app revealed it already). On the reveal it holds, it is `locked=`."""
        rid = _number(fields, "id", 1, P.SEQ_MOD - 1)
        if "seats" not in fields:
            raise P.ProtocolError(P.E_FIELD, "seats")
        armed = P.seats_to_mask(fields["seats"])
        locked = P.seats_to_mask(fields.get("locked", ""))
        revealed = _number(fields, "revealed", 0, 1, 0)
        if armed >= 1 << self.frame.SEAT_LEDS or locked & ~armed:
            raise P.ProtocolError(P.E_RANGE, "seats")
        if revealed and rid != self._reveal_id:
            self._reset_reveal(rid)
            self._armed = self._locked = armed
            self._revealed = True
            return
        if rid != self._reveal_id:
            self._reset_reveal(rid)
        self._armed = armed
        if not self._revealed:
            self._locked = (self._locked | (armed if revealed else locked)) & armed

    def _reset_reveal(self, rid: int) -> None:
        """Start reveal `rid` afresh (0: no reveal); events of other reveals are dropped."""
        self._reveal_id = rid
        self._armed = 0
        self._locked = 0
        self._revealed = False
        self.scene.countdown = False
        self._pending = [e for e in self._pending if e[3] == rid and rid]

    def _settle(self, msg: P.Message) -> None:
        """ACK/NAK `of=<seq>` from this host session: that event needs no more retries (an
        answer of another session's host is not: this session's host has not seen the event)."""
        try:
            fields = msg.fields()
            of = int(fields.get("of", "-1"))
        except (P.ProtocolError, ValueError):
            return
        if not self.session.owns(fields.get("host", "")):
            return
        self._pending = [e for e in self._pending if e[0] != of]

    # ----- state -> scene -------------------------------------------------------------------

    def _update_countdown(self, now: int) -> None:
        """Count down once every armed seat is locked; stop if one is armed again."""
        scene = self.scene
        done = self._armed and self._locked & self._armed == self._armed
        if self._revealed or not done:
            scene.countdown = False
        elif not scene.countdown:
            scene.countdown = True
            scene.countdown_at = ticks_add(now, self.COUNTDOWN_MS)
            self._beep(now, False)

    def _refresh_seats(self) -> None:
        """Seat pixels from the table size and the reveal state."""
        seat = self.scene.seat
        for i in range(len(seat)):
            bit = 1 << i
            if self._armed & bit:
                if self._revealed:
                    seat[i] = SEAT_REVEALED
                elif self._locked & bit:
                    seat[i] = SEAT_LOCKED
                else:
                    seat[i] = SEAT_ARMED
            elif i < self._seats:
                seat[i] = SEAT_IDLE
            else:
                seat[i] = SEAT_OFF

    # ----- sending --------------------------------------------------------------------------

    def _hello(self) -> str:
        """The HELLO payload: who we are, what we drive, this boot and the host we serve."""
        f = self.frame
        text = (
            f"fw={FW_VERSION} proto={P.PROTO_VERSION} board={self.board} uid={self.uid or '0'}"
            f" layout={f.POLICE_LEDS},{f.ROUND_LEDS},{f.SEAT_LEDS} boot={self.boot}"
        )
        return text + self.session.tag()

    def _beat(self, now: int) -> None:
        """HB: the box's clock (the host dates PRESS moments by it), whether it hears the host,
        and the fault it holds back, or the anchors of the animations it draws: `raid=` the
        tick the raid began, `cd=` the tick the countdown ends (the panel draws from them)."""
        scene = self.scene
        text = f"t={now}" if scene.connected else f"t={now} {QUIET}"
        if self.fault is not None:
            text += FAULT + self.fault
        else:
            if scene.raid and ticks_diff(now, scene.raid_at) < self.frame.RAID_MS:
                text += f" raid={scene.raid_at}"
            if scene.countdown:
                text += f" cd={scene.countdown_at}"
        self._send(P.HB, text)

    def _announce(self, now: int) -> None:
        """Send HELLO (at boot, answering the host, and until the host has set the state)."""
        self._announce_at = now
        self._send(P.HELLO, self._hello())

    def _send(self, kind: str, payload: str = "") -> tuple[int, bytes]:
        """Frame and write one line with the next sequence number; return (seq, line)."""
        seq = self._tx_seq
        self._tx_seq = P.seq_next(seq)
        line = P.encode(seq, kind, payload)
        self.port.write(line)
        return seq, line

    def _event(self, kind: str, payload: str, now: int) -> None:
        """Send a PRESS/REVEAL and keep it for retries until the host acknowledges it."""
        seq, line = self._send(kind, payload)
        self._pending.append([seq, line, now, self._reveal_id])
        if len(self._pending) > self.MAX_PENDING:
            self._pending.pop(0)
            self.errors["dropped"] += 1

    def _beep(self, now: int, reveal: bool) -> None:
        """Countdown tick or reveal chirp, if a piezo is fitted."""
        if self.piezo is None:
            return
        if reveal:
            self.piezo.beep(now, self.piezo.REVEAL_HZ, self.piezo.REVEAL_MS)
        else:
            self.piezo.beep(now, self.piezo.TICK_HZ, self.piezo.TICK_MS)


def _untagged(payload: str) -> str:
    """A command's payload without its session tag (` host=`, always last)."""
    if payload.startswith("host="):
        return ""
    mark = payload.rfind(" host=")
    return payload[:mark] if mark >= 0 else payload


def _number(
    fields: dict[str, str], key: str, low: int, high: int, default: int | None = None
) -> int:
    """Field `key` as an int in low..high; missing -> default or E_FIELD, outside -> E_RANGE."""
    text = fields.get(key)
    if text is None:
        if default is None:
            raise P.ProtocolError(P.E_FIELD, key)
        return default
    if not text.isdigit():
        raise P.ProtocolError(P.E_FIELD, key)
    value = int(text)
    if not low <= value <= high:
        raise P.ProtocolError(P.E_RANGE, key)
    return value
