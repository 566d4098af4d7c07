"""First light: the app's table shows on the simulated box."""

from tests.device.liveapp import Razzia, wait_until


def test_police_drawn_in_the_app_light_the_box(live, sim, bridge):
    game = Razzia(live)
    assert sim.wait_leds(lambda v: v.shows(0, 7, 1), 3), sim.leds()
    game.draw_police()
    assert sim.wait_leds(lambda v: v.shows(1, 7, 1), 3), sim.leds()
    assert wait_until(lambda: live.status.snapshot()["connected"], 3)
    assert not live.log.server_errors()
