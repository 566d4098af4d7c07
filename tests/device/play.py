"""Playing a table against the simulated box: taps, expected LEDs, press accounting."""

import time

from tests.device.liveapp import SHOWN_S, wait_until

HOLD_S = 0.06  # a press longer than the firmware's 50 ms debounce window
RECOVER_S = 3.0  # the bound: the LEDs show the right state again within 3 s


def tap(sim, seat, hold=HOLD_S):
    """Press a seat button for `hold` s and until its LED no longer shows "armed", then let go.

    A finger holds until the box shows the press. A busy host may run the simulated board
    late: a press released before the board polled it twice would be no press at all (and a
    release arriving with its press, lost), which a real board polling every 5 ms never does.
    """
    sim.press(seat)
    time.sleep(hold)
    sim.wait_leds(lambda view: view.seat_px[seat - 1] != "armed", SHOWN_S)
    sim.release(seat)


def expected_seats(view):
    """The seat pixels the app's device view means, after any countdown ran out."""
    display, reveal = view["display"], view["reveal"]
    out = []
    for i in range(6):
        if i >= display["seats"]:
            out.append("off")
        elif reveal and i in reveal["seats"]:
            if reveal["revealed"]:
                out.append("white")
            else:
                out.append("locked" if i in reveal["locked"] else "armed")
        else:
            out.append("idle")
    return out


def shows_view(leds, view):
    """True if the strip shows the app's device view."""
    d = view["display"]
    police_ok = leds.police == d["police"] and leds.limit == d["limit"] and not leds.raid
    return (
        police_ok
        and leds.round == d["round"]
        and not leds.disconnected
        and leds.seat_px == expected_seats(view)
    )


def assert_recovers(sim, game, within=RECOVER_S, after_frame=0):
    """The strip shows the app's view within `within` s (frames after `after_frame` only)."""
    started = time.monotonic()

    def right():
        """The box shows what the app says now."""
        view = game.device()
        return sim.frames > after_frame and shows_view(sim.leds(), view)

    ok = wait_until(right, within, step=0.02)
    assert ok, f"box shows {sim.leds()} for {game.device()}"
    return time.monotonic() - started


def assert_recovers_steady(sim, game, started, after_frame=0, hold_s=0.4, within=RECOVER_S):
    """Seconds from `started` (monotonic) until the strip showed the app's view for good: a
    view that changes again within `hold_s` (a countdown blink shows revealed-white for 125 ms)
    does not count. Fails after `within` s without such a view."""
    deadline = started + within
    while True:
        view = game.device()
        shown = sim.wait_leds(
            lambda v, view=view: sim.frames > after_frame and shows_view(v, view),
            deadline - time.monotonic(),
        )
        assert shown is not None, f"box shows {sim.leds()} for {game.device()}"
        at = time.monotonic()
        if sim.wait_leds(lambda v, view=view: not shows_view(v, view), hold_s) is None:
            return at - started
        assert time.monotonic() < deadline, f"box shows {sim.leds()} for {game.device()}"


def wait_locked(game, seats, timeout):
    """Wait until the app's current reveal has exactly these seats locked; the reveal."""

    def locked():
        """The reveal, once exactly those seats are locked."""
        reveal = game.device()["reveal"]
        return reveal if reveal and sorted(reveal["locked"]) == sorted(seats) else None

    return wait_until(locked, timeout, step=0.02)


def assert_each_press_once(live, expected):
    """The app took exactly the presses `expected` ((reveal id, seat) pairs), each once."""
    taken = live.log.taken()
    assert sorted(taken) == sorted(expected), taken
