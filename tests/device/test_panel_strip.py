"""The on-screen panel shows what the strip shows (issue 25, item 5), in headless Chromium.

The whole chain: the firmware on MicroPython behind a pty, the bridge, the real server with
its live hub, and the box page in Chromium. Every frame the strip gets (the simulator's
`on_frame`) and every change of the panel's 18 LEDs (a MutationObserver in the page) is
recorded with its moment on the machine's clock; during a reveal's countdown and a raid both
records are sampled every SAMPLE_MS and compared pixel for pixel.

What separates them: the moments the panel learns of the last press (the box's PRESS, the
app's durable write, the hub's push: 15-40 ms on a quiet machine, over 100 ms on a 2-core
machine running several test suites), the host's reading of the PRESS line (the box's
countdown is dated from it) and the browser's timers. The first is news on its way, not a
panel drawing something else: the panel cannot show a press before it hears of it. So the
countdown is held to two bounds kept apart: the panel hears of the last press within
KNOWN_WITHIN_MS, and from then on it shows what the strip shows (to within the timers' jitter
of a busy machine, JITTER_MS: the simulated board and the browser each run a step a few ms
late now and then) in at least AGREE of the samples. The plain share of samples (news on its
way included) is printed and recorded too. The raid is dated from the move, which the box
applies one long poll later, so it is printed, not held to a bound.
Timing-sensitive: marked `alone`, so scripts/test.sh runs it after the rest, on its own.
"""

import time

import pytest

from companion_app.bridge.driver import Bridge
from companion_app.bridge.firmware import load_firmware
from companion_app.simulator import micropython as mpsim
from tests.device.liveapp import LiveApp, Razzia, wait_until
from tests.device.play import tap
from tests.live import chromium

pytestmark = pytest.mark.browser

SAMPLE_MS = 2
COUNTDOWN_MS = 1500
PALETTE = load_firmware().frame
ARMED = "{},{},{}".format(*PALETTE.Frame().colour(PALETTE.C_ARMED))
BLUE = "{},{},{}".format(*PALETTE.Frame().colour(PALETTE.C_BLUE))
SCAN = "{},{},{}".format(*PALETTE.Frame().colour(PALETTE.C_SCAN))
RAID_MS = 4000
SEATS = 4
CHOOSE_S = 0.4  # between two players' presses
AGREE = 0.98  # from the moment the panel knows, to within JITTER_MS
JITTER_MS = 20  # a step drawn this late or early by a busy board or browser still agrees
KNOWN_WITHIN_MS = COUNTDOWN_MS // 2  # the panel shows at least half of every countdown
ATTEMPTS = 3  # countdowns measured at most; the best is held to AGREE
#: Every change of the panel's LEDs, with its moment (epoch ms), into window.panelLog.
RECORDER = """
window.panelLog = [];
function companionSnapshot() {
  const leds = [...document.querySelectorAll(".device-strip .led")];
  if (leds.length !== 18) return;
  const now = performance.timeOrigin + performance.now();
  const levels = leds.map((led) => led.dataset.level);
  const last = window.panelLog[window.panelLog.length - 1];
  if (!last || last[1].join(";") !== levels.join(";")) window.panelLog.push([now, levels]);
}
new MutationObserver(companionSnapshot).observe(document, {
  subtree: true, childList: true, attributes: true, attributeFilter: ["data-level"],
});
"""


def strip_log(sim):
    """Every frame the simulated strip showed, with its moment (the board's, epoch ms)."""
    return [
        (when, [f"{frame[i + 1]},{frame[i]},{frame[i + 2]}" for i in range(0, len(frame), 3)])
        for when, frame in list(sim.shown)
    ]


def shown_at(log, moment):
    """The pixels a (moment, pixels) log showed at `moment` (None before its first entry)."""
    shown = None
    for when, pixels in log:
        if when > moment:
            break
        shown = pixels
    return shown


def agreement(strip, panel, start, length, jitter_ms=0):
    """The share of samples in [start, start + length) where the panel shows what the strip
    shows at that moment, or at one up to `jitter_ms` either side of it."""
    samples = range(int(start), int(start + length), SAMPLE_MS)
    near = range(-jitter_ms, jitter_ms + 1, SAMPLE_MS)
    same = sum(any(shown_at(strip, t + d) == shown_at(panel, t) for d in near) for t in samples)
    return same / len(samples)


def countdown_measures(strip, panel, before_last):
    """(ms the panel took to hear of the last press, its agreement from then on, to within
    JITTER_MS, the plain share of samples over the whole countdown)."""
    start = first_moment(strip, lambda px: ARMED not in px[12 : 12 + SEATS], before_last)
    knew = first_moment(panel, lambda px: ARMED not in px[12 : 12 + SEATS], before_last)
    late_ms = max(0.0, knew - start)
    if late_ms >= COUNTDOWN_MS:
        return late_ms, 0.0, agreement(strip, panel, start, COUNTDOWN_MS)
    once_known = agreement(strip, panel, start + late_ms, COUNTDOWN_MS - late_ms, JITTER_MS)
    return late_ms, once_known, agreement(strip, panel, start, COUNTDOWN_MS)


def first_moment(log, test, after=0.0):
    """The moment of the first entry after `after` whose pixels pass `test`."""
    return next(when for when, pixels in log if when > after and test(pixels))


@pytest.fixture
def rig(tmp_path):
    """The app, the simulated box (recording its strip), the bridge and a browser page."""
    live = LiveApp(tmp_path)
    sim = mpsim.make_simulator("micropython").start()
    bridge = Bridge(live.url, lambda: sim.path, mode="simulator", report=live.status.update)
    bridge.start()
    try:
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            page.add_init_script(RECORDER)
            yield live, sim, page
    finally:
        bridge.stop()
        sim.stop()
        live.close()


def reveal(game, sim):
    """Arm every seat and press them one after another; the moment just before the last press."""
    game.arm(range(SEATS))
    assert sim.wait_leds(lambda v: v.seat_px[:SEATS] == ["armed"] * SEATS, 5.0)
    time.sleep(0.5)
    before_last = 0.0
    for seat in range(1, SEATS + 1):  # one after another, as players choose
        before_last = time.time() * 1000
        tap(sim, seat)
        assert sim.wait_leds(lambda v, s=seat: v.seat_px[s - 1] != "armed", 2.0)
        time.sleep(CHOOSE_S)
    wait_until(lambda: game.device()["reveal"]["revealed"], 5.0)
    time.sleep(COUNTDOWN_MS / 1000 + 1.0)
    assert sim.leds().seat_px[:SEATS] == ["white"] * SEATS  # revealed
    return before_last


@pytest.mark.alone
def test_panel_and_strip_agree_through_a_countdown_and_a_raid(rig, record_property):
    """Issue 25 and 34: through a countdown the panel hears of the last press within
    KNOWN_WITHIN_MS and from then on shows what the strip shows in at least AGREE of the
    samples. A busy machine (a loaded CI host, the board in Node, a browser) can hold one
    countdown's last press up on its way, so up to ATTEMPTS countdowns are measured and the
    best is held to the bounds; every one is recorded."""
    live, sim, page = rig
    game = Razzia(live)
    page.goto(f"{live.url}/tables/{game.id}/box")
    page.wait_for_selector("[data-testid=device-badge][data-state=connected]", timeout=10000)

    countdowns = []
    for _ in range(ATTEMPTS):
        before_last = reveal(game, sim)
        panel, strip = page.evaluate("window.panelLog"), strip_log(sim)
        countdowns.append(countdown_measures(strip, panel, before_last))
        late_ms, once_known, _ = countdowns[-1]
        if late_ms < KNOWN_WITHIN_MS and once_known >= AGREE:
            break

    raid_after = time.time() * 1000  # the raid's blue shows only once the police row is full
    while game.device()["display"]["police"] < game.device()["display"]["limit"]:
        game.draw_police()
    time.sleep(RAID_MS / 1000 + 1.0)
    panel, strip = page.evaluate("window.panelLog"), strip_log(sim)
    raid_from = first_moment(strip, lambda px: BLUE in px[:12], raid_after)
    raid = agreement(strip, panel, raid_from, RAID_MS)
    record_property("countdown_news_ms", [round(late) for late, _, _ in countdowns])
    record_property("countdown_agreement", [round(known, 3) for _, known, _ in countdowns])
    record_property("countdown_plain_share", [round(plain, 3) for _, _, plain in countdowns])
    record_property("raid_agreement", round(raid, 3))
    shares = ", ".join(
        f"{known:.1%} after {late:.0f} ms ({plain:.1%} plain)" for late, known, plain in countdowns
    )
    print(f"\npanel = strip: countdowns {shares}, raid {raid:.1%} of {SAMPLE_MS} ms samples")
    assert any(late < KNOWN_WITHIN_MS and known >= AGREE for late, known, _ in countdowns), (
        countdowns
    )


def test_the_panel_shows_the_disconnected_dot_when_the_box_is_gone(rig):
    """docs/protocol.md "What the LEDs show": a box without its host runs the violet dot; so
    does the panel once the bridge says the box is not answering."""
    live, sim, page = rig
    game = Razzia(live)
    page.goto(f"{live.url}/tables/{game.id}/box")
    page.wait_for_selector("[data-testid=device-badge][data-state=connected]", timeout=10000)
    sim.unplug()
    page.wait_for_selector("[data-testid=device-badge][data-state=disconnected]", timeout=10000)
    assert sim.wait_leds(lambda view: view.disconnected, 5.0)  # the box: after 3 s of silence
    dots = set()
    deadline = time.monotonic() + 3.0
    while len(dots) < 3 and time.monotonic() < deadline:
        levels = page.evaluate(
            "[...document.querySelectorAll('.device-strip .led')].map((led) => led.dataset.level)"
        )
        if SCAN in levels[:12]:
            dots.add(levels[:12].index(SCAN))
        time.sleep(0.03)
    assert len(dots) >= 3  # the dot runs along the police and round LEDs on screen too
