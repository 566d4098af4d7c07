"""For Sale end to end: the real app, the bridge and the simulated box (docs/games/for_sale.md).

The box shows the phase on the round pixels (1 buying, 2 selling of 2) and the progress
through the phase on the police pixels (0..6 of 7, never the raid); a selling round's
checks arm every seat holding houses, and the box's buttons lock them in.
"""

from tests.device.liveapp import SHOWN_S, wait_until
from tests.device.play import assert_each_press_once, expected_seats, tap, wait_locked
from tests.scoring.for_sale_play import IN_ORDER, NAMES

LOCK_S = SHOWN_S
LIMIT = 7


class ForSale:
    """A For Sale table driven through the API: start, buying rounds passed, checks, sale."""

    def __init__(self, live, players=NAMES):
        self.live = live
        self.table = live.ok("POST", "/api/tables", {"game": "for_sale", "players": list(players)})
        self.id = self.table["id"]

    def call(self, move):
        """(status, answer) of one move at the current version."""
        body = {"version": self.table["version"], "move": move}
        return self.live.call("POST", f"/api/tables/{self.id}/moves", body)

    def move(self, move):
        """Play one move that must be accepted."""
        status, answer = self.call(move)
        assert status == 200, answer
        self.table = answer
        return answer

    def buying_round(self, houses):
        """Turn over the houses; everyone passes in turn."""
        self.move({"type": "houses", "houses": houses})
        while self.table["state"]["phase"] == "auction":
            self.move({"type": "pass", "seat": self.table["state"]["auction"]["turn"]})

    def lowest(self):
        """Everyone's lowest house, as a sale move."""
        return {"type": "sell", "houses": [p["houses"][0] for p in self.table["state"]["players"]]}

    def device(self):
        """The table's device view."""
        return self.live.ok("GET", f"/api/tables/{self.id}/device")


def test_phase_and_progress_on_the_strip(live, sim, bridge):
    """Round pixels: 0 before the start, 1 buying, 2 selling; police pixels: progress of 6."""
    game = ForSale(live)
    assert sim.wait_leds(lambda v: v.shows(0, LIMIT, 0), SHOWN_S), sim.leds()
    game.move({"type": "start", "seat": 0})
    view = sim.wait_leds(lambda v: v.shows(0, LIMIT, 1), SHOWN_S)
    assert view and view.seat_px == ["idle"] * 3 + ["off"] * 3, sim.leds()
    for houses in IN_ORDER[:5]:
        game.buying_round(houses)
    assert sim.wait_leds(lambda v: v.shows(3, LIMIT, 1), SHOWN_S), sim.leds()  # 15 of 30
    for houses in IN_ORDER[5:]:
        game.buying_round(houses)
    view = sim.wait_leds(lambda v: v.shows(0, LIMIT, 2), SHOWN_S)
    assert view and view.round_px[:2] == ["done", "now"], sim.leds()
    assert not live.log.server_errors()


def test_a_selling_round_through_the_box_buttons(live, sim, bridge):
    """Checks arm seats 1-3 on the box; the sale waits for every button, then goes through."""
    game = ForSale(live)
    game.move({"type": "start", "seat": 0})
    for houses in IN_ORDER:
        game.buying_round(houses)
    game.move({"type": "checks", "checks": [0, 13000, 12000]})
    reveal = game.device()["reveal"]
    assert reveal["seats"] == [0, 1, 2] and reveal["locked"] == []
    armed = sim.wait_leds(lambda v: v.seat_px[:3] == ["armed"] * 3, SHOWN_S)
    assert armed, sim.leds()
    tap(sim, 1)
    tap(sim, 3)
    assert wait_locked(game, [0, 2], LOCK_S)
    status, answer = game.call(game.lowest())
    assert status == 400
    assert answer["error"] == "Not everyone has locked in yet: waiting for Valerie."
    tap(sim, 2)
    assert wait_locked(game, [0, 1, 2], LOCK_S)
    after = game.move(game.lowest())
    assert [p["checks"] for p in after["state"]["players"]] == [[0], [12000], [13000]]
    assert_each_press_once(live, [(reveal["id"], seat) for seat in (0, 1, 2)])
    shown = wait_until(lambda: sim.leds().seat_px == expected_seats(game.device()), SHOWN_S)
    assert shown, (sim.leds(), game.device())
    assert not live.log.server_errors()
