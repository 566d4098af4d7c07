"""The bridge: the box on a serial port follows the app's table, and its buttons feed the app.

Threads: the serial reader (open, HELLO, read, retries, heartbeat; reconnect with backoff when
the port fails or goes silent), the follower (long poll of the table's device view -> SET and
ARM/DISARM) and the app worker (PRESS -> POST press; status PUTs). Every device HELLO gets the
full state. Port errors end a session and reconnect; handler bugs are logged, not reconnects.
"""

import logging
import threading
import time

from companion_app.bridge import detect, holders, state
from companion_app.bridge.appclient import AppUnreachable
from companion_app.bridge.follow import AppWorker, Follower
from companion_app.bridge.link import Link, LinkEvents
from firmware import protocol as P

log = logging.getLogger(__name__)
CLIENT_ERROR, SERVER_ERROR = 400, 500
MAX_PRESS_AGE_MS = 60_000  # the app's bound on a press's age (docs/device-api.md)
#: Firmware that does not stamp its PRESS: it locked the seat (and began its countdown) when
#: the line's first byte went out, this long before the line (about 30 bytes) ended.
PRESS_WIRE_S = 30 * 10 / 115200
#: The status's problem while another program holds the port (the app's device/status.py).
PORT_BUSY = "port_busy"
#: Firmware from this version on reports the anchors of what it draws (HB raid=/cd=, ACK raid=).
ANCHORS_FW = (0, 3)
#: Drawn anchors that moved less than this (the box clock's estimate settling) are not news.
DRAWN_SLACK_MS = 2


class Bridge(LinkEvents):
    """Box <-> app. `find_port()` names the port to open (None: no box now); `report(**status)`."""

    READ_TIMEOUT_S = 0.05  # the reader wakes this often for retries and heartbeats
    BACKOFF_MIN_S = 0.1  # reconnect delays double from here...
    BACKOFF_MAX_S = 1.0  # ...up to here (a replugged box is back within about a second)
    STATUS_S = 1.0  # report the status at least this often
    HOLDERS_S = 2.0  # while the link is in trouble, look for other programs on the port this often
    HOLDERS_OK_S = 10.0  # ...and this often while it is fine (a reader may still steal lines)
    #: A program found with the port open is named if it still has it open this much later:
    #: one that opens it for a blink (a second bridge finding it locked, when root, whom the
    #: kernel's TIOCEXCL lets in; ModemManager probing) reads nothing away.
    HOLDER_CONFIRM_S = 0.5

    def __init__(self, app_url, find_port, table=None, mode="serial", report=None):
        self.find_port = find_port
        self.mode = mode
        self._report_to = report
        self._stop = threading.Event()
        self._desired = state.desired(None)  # replaced whole, never changed in place
        self._view = None
        self._table = None
        self._shown = False  # the follower has handed us the app's view at least once
        self._drawn_told = None  # the box's drawn anchors as last reported
        self._link = None
        self._seq = 1
        self.port_path = None
        self.sessions = 0  # ports opened
        self.holders = []  # [(pid, name)] of other programs with our port open, last look
        self._holders_at = None  # when we last looked (None: not on this port yet)
        self._looking = None  # the thread looking for them, while it runs
        self._busy = False  # the port is held by another program: we wait for it
        self._app_url = app_url
        self._check_seen = None  # the last box check the box page asked for...
        self._check_due = None  # ...and the one to run when the port is free
        self.follower = Follower(app_url, self.show, table=table, on_check=self.check_asked)
        self.worker = AppWorker(app_url)
        self._thread = threading.Thread(target=self._serial_loop, name="device-serial", daemon=True)

    # ----- lifecycle ----------------------------------------------------------------------

    def start(self):
        """Start the three threads; returns self."""
        self.worker.start()
        self.follower.start()
        self._thread.start()
        return self

    def stop(self):
        """Stop every thread, close the port and say so in the status."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self.follower.stop()
        self.worker.stop()
        waiting = {"problem": PORT_BUSY} if self._busy else {}  # still not the box's word
        stopped = {"hello": None, "last_seen_ms": None, "fault": None, "drawn": None}
        self._report(connected=False, port=None, **stopped, **waiting)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @property
    def link(self):
        """The current session's link, or None while there is no port."""
        return self._link

    @property
    def connected(self):
        """True while a compatible box is answering and hears us."""
        link = self._link
        return bool(link and link.ready and link.alive() and link.box_hears_us())

    # ----- the serial side ----------------------------------------------------------------

    def _serial_loop(self):
        """Find, open and run the port; after any failure wait (with backoff) and do it again."""
        delay = self.BACKOFF_MIN_S
        while not self._stop.is_set():
            if self._check_due is not None:
                self._run_check()
                continue
            path, port, busy = self._open()
            if port is None:
                self._report_closed(path, busy)
                self._stop.wait(delay)
                delay = min(2 * delay, self.BACKOFF_MAX_S)
                continue
            delay = self.BACKOFF_MIN_S
            self._busy = False
            try:
                self._session(port, path)
            except Exception:  # a bug, not a port error: say so, then reconnect as usual
                log.exception("device bridge failed; reopening the port")
            self._stop.wait(self.BACKOFF_MIN_S)

    def _open(self):
        """(path, open port, False), or (path or None, None, busy) when there is no box or it
        cannot open; busy: another program (a bridge, mpremote, a serial monitor) holds it."""
        try:
            path = self.find_port()
        except OSError as exc:  # listing USB devices failed
            log.info("cannot list the serial ports: %s", exc)
            return None, None, False
        if path is None:
            return None, None, False
        try:
            return path, detect.open_port(path, self.READ_TIMEOUT_S, keep_out=True), False
        except detect.PortBusy as exc:
            if not self._busy:  # said once: the bridge retries every second while it waits
                log.info("%s; waiting for it (the box's status is the other bridge's)", exc)
            return path, None, True
        except (OSError, ValueError) as exc:  # SerialException is an OSError
            log.info("cannot open %s: %s", path, exc)
            return path, None, False

    def _report_closed(self, path, busy):
        """No port open. Held by another program: report as a bridge waiting for it (the app
        keeps that apart from the box's status, which the holder's bridge reports), naming the
        holders; else "not connected"."""
        if not busy:
            self._busy = False
            self._report(
                connected=False, port=path, problem=None, holders=[], fault=None, drawn=None
            )
            return
        if not self._busy:
            self._busy, self._holders_at, self.holders = True, None, []
        listed = self._holders_report(path, trouble=False)["holders"]
        self._report(
            connected=False,
            port=path,
            problem=PORT_BUSY,
            holders=listed,
            hello=None,
            last_seen_ms=None,
        )

    def _session(self, port, path):
        """One open port: HELLO, then read and keep the link up until it fails or goes silent."""
        link = Link(port.write, events=self, seq=self._seq)
        self.attach(link, path)
        self.sessions += 1
        reported = 0.0
        try:
            link.start()
            while not self._stop.is_set():
                data = port.read(port.in_waiting or 1)
                if data:
                    self._feed(link, data)
                    if _moved(self._told_drawn(link), self._drawn_told):
                        self._report_link(link)  # the panel redraws from them at once
                alive = link.poll()
                if link.failed is not None:
                    raise link.failed
                if not alive:
                    log.info("the box on %s went silent; looking for it again", path)
                    break
                if time.monotonic() - reported >= self.STATUS_S:
                    reported = time.monotonic()
                    self._report_link(link)
                if self._check_due is not None:
                    log.info("the box page asked for a box check; the port is the check's")
                    break
        except OSError as exc:  # the port failed: unplugged, reset, gone
            log.info("the port %s failed: %s", path, exc)
        finally:
            self._link = None
            self._seq = link.next_seq
            link.close(lambda: detect.close_port(port))
            gone = {"connected": False, "problem": "box_silent", "fault": None, "drawn": None}
            self._drawn_told = None
            self._report_with(gone, self._holders_report(path))

    def attach(self, link, path=None):
        """Make `link` (on port `path`) the current session's link."""
        self._link, self.port_path = link, path
        self._holders_at = None

    def _feed(self, link, data):
        """Hand bytes to the link; a bug in handling them is logged, the port stays open."""
        try:
            link.data_received(data)
        except Exception:  # a handler bug, not a port error
            log.exception("device bridge failed on data from the box")

    # ----- the box check from the box page ---------------------------------------------------

    def check_asked(self, number):
        """The box page asked for check `number` (follower thread): run it when the port is free."""
        if number != self._check_seen:
            self._check_seen = number
            self._check_due = number

    def _run_check(self):
        """Run the asked-for check on the box's port (serial thread), then go back to the table."""
        from companion_app.bridge.webcheck import run_page_check

        number, self._check_due = self._check_due, None
        try:
            path = self.find_port()
        except OSError:
            path = None
        if path is None:
            log.info("no box to check")
            return
        self._report(connected=False, port=path)
        run_page_check(self._app_url, path, number, stopping=self._stop.is_set)

    # ----- link events (reader thread, under the link's lock: never block here) -----------

    def on_hello(self, fields, compatible):
        """The box (re)started or answered our HELLO: send it the whole state."""
        if not compatible:
            log.warning("the box speaks protocol %s, not %s", fields.get("proto"), P.PROTO_VERSION)
        self._send_state(force=True)
        self._report_link(self._link)

    def on_press(self, token, reveal_id, seat):
        """A seat button: post it to the app; answer the box when the app has it. The post
        says how long ago the box sent it (`age_ms`): the box's countdown began then."""
        link, table, view = self._link, self._table, self._view
        if not self._shown:  # the app's view is not here yet: the box's retry comes later
            link.forget(token)
            return
        if table is None:
            link.answer(token, P.E_RANGE)
            return
        body = {"id": state.app_reveal_id(view, reveal_id), "seat": seat - 1}
        locked = link.event_time(token)  # the box's own moment, on our clock
        heard = locked if locked is not None else time.monotonic() - PRESS_WIRE_S

        def post(client):
            """POST the press with its age as of now (worker thread)."""
            age_ms = min(MAX_PRESS_AGE_MS, round((time.monotonic() - heard) * 1000))
            self._post_press(client, link, token, table, {**body, "age_ms": age_ms})

        self.worker.submit(post)

    def on_reveal(self, token, reveal_id, seats):
        """The box revealed: the app already knows (it saw every press); just acknowledge."""
        self._link.answer(token)

    def _post_press(self, client, link, token, table, body):
        """POST the press (worker thread); ACK if taken, NAK if refused, else let the box retry."""
        try:
            status, answer = client.request("POST", f"/api/tables/{table}/reveal/press", body)
        except AppUnreachable:
            link.forget(token)
            raise
        if status < CLIENT_ERROR:
            link.answer(token)
        elif status < SERVER_ERROR:
            log.info("the app refused press %s: %s %s", body, status, answer)
            link.answer(token, P.E_RANGE)
        else:
            link.forget(token)

    # ----- the app side -------------------------------------------------------------------

    def show(self, table, view):
        """Show a device view (the follower's; None: no table) on the box: send what changed."""
        self._table, self._view = table, view
        self._desired = state.desired(view)
        self._shown = True
        self._send_state(force=False)

    def _send_state(self, force):
        """SET and ARM/DISARM from the desired state (assigned before this is called)."""
        link = self._link
        if link is None or not self._shown:  # nothing known yet: the box keeps its state
            return  # (a restarted bridge's "no table" would disarm it and drop a press)
        payload, kind, reveal = self._desired
        link.command(P.SET, payload, force=force)
        link.command(kind, reveal, force=force)

    # ----- status -------------------------------------------------------------------------

    def _report_link(self, link):
        """Report the link's state: connected, the box's HELLO, how long since we heard it."""
        if link is None:
            return
        age = max(0, round((time.monotonic() - link.heard_at) * 1000))
        alive, hears = link.alive(), link.box_hears_us()
        connected = bool(link.ready and alive and hears)
        problem = None if connected else "box_silent" if not alive else None
        if alive and not hears:
            problem = "box_deaf"
        fault = link.box_fault if alive else None  # the box holds a state back (issue 34)
        if fault is not None and problem is None:
            problem = "box_fault"
        fields = {"connected": connected, "problem": problem, "port": self.port_path}
        self._drawn_told = self._told_drawn(link) if connected else None
        fields.update(fault=fault, drawn=self._drawn_told)
        fields.update(hello=link.hello, last_seen_ms=age)
        self._report_with(fields, self._holders_report(self.port_path, trouble=not connected))

    @staticmethod
    def _told_drawn(link):
        """What the box reports it draws (issue 34 item 4): `raid_at`, `countdown_end` as
        epoch ms on this computer's clock (each None: not drawn); None when the box reports
        no anchors (firmware before 0.3.0) or its clock is not known yet."""
        if not _reports_anchors(link.hello) or not link.box_clock.known:
            return None
        epoch_offset = time.time() - time.monotonic()  # the link's clock is time.monotonic
        return {
            key: None if at is None else round((at + epoch_offset) * 1000)
            for key, at in link.box_drawn().items()
        }

    def _holders_report(self, path, trouble=True):
        """`holders` (and problem port_shared if any): other programs with the port open, as
        last found. A new look starts at a session's start (or when we start waiting for a
        held port), then every HOLDERS_S in trouble, else HOLDERS_OK_S, in a thread of its
        own: reading /proc takes a busy machine a third of a second, which the serial reader
        must not wait for. Those named are rechecked every time (their own files alone)."""
        now = time.monotonic()
        if path and self.holders:  # one that exited or closed the port goes at once
            self.holders = holders.still_open(path, self.holders)
        every = self.HOLDERS_S if trouble else self.HOLDERS_OK_S
        due = self._holders_at is None or now - self._holders_at >= every
        if path and due and (self._looking is None or not self._looking.is_alive()):
            self._holders_at = now
            self._looking = threading.Thread(
                target=self._look_for_holders, args=(path,), name="device-holders", daemon=True
            )
            self._looking.start()
        listed = [{"pid": pid, "name": name[:64]} for pid, name in self.holders[:8]]
        return {"holders": listed, **({"problem": "port_shared"} if listed else {})}

    def _look_for_holders(self, path):
        """Find the other programs with `path` open (a thread of its own)."""
        try:
            found = holders.port_holders(path)
            if found and not self._stop.wait(self.HOLDER_CONFIRM_S):
                found = holders.still_open(path, found)
        except OSError as exc:  # /proc unreadable: we cannot tell
            log.info("cannot look for other programs on %s: %s", path, exc)
            found = []
        if found and found != self.holders:
            log.warning("%s is also open in %s", path, holders.describe(found))
        self.holders = found

    def _report_with(self, fields, extra):
        """`fields` with `extra` over them (its problem wins), reported."""
        self._report(**{**fields, **extra})

    def _report(self, **fields):
        """Pass the status on (a bug or a refusal there never stops the bridge)."""
        if self._report_to is None:
            return
        try:
            self._report_to(mode=self.mode, **fields)
        except Exception:  # the status is advisory; the box must keep working
            log.exception("could not report the bridge status")


def _reports_anchors(hello):
    """True if the box's HELLO names firmware that reports what it draws (ANCHORS_FW)."""
    try:
        version = tuple(int(part) for part in (hello or {}).get("fw", "").split(".")[:2])
    except ValueError:
        return False
    return version >= ANCHORS_FW


def _moved(drawn, told):
    """True if the drawn anchors differ from those reported by more than the clock's settling."""
    if drawn is None or told is None:
        return drawn is not told
    for key, at in drawn.items():
        before = told.get(key)
        if (at is None) != (before is None) or (
            at is not None and abs(at - before) > DRAWN_SLACK_MS
        ):
            return True
    return False
