"""Device API calls for the tests: tables, Razzia moves, device view, reveals."""

from tests.device_app.razzia_drive import next_police_moves

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
SETS = ["A", "B", "C", "D"]


class DeviceApi:
    """Repeated calls against a test client; each returns (status, json) unless noted."""

    def __init__(self, client) -> None:
        self.client = client

    def call(self, method: str, path: str, body: object = None):
        """One request with an optional JSON body."""
        kwargs = {} if body is None else {"json": body}
        response = self.client.open(path, method=method, **kwargs)
        return response.status_code, response.get_json()

    def table(self, players=PLAYERS) -> dict:
        """A new Razzia table's JSON (not dealt)."""
        status, table = self.call("POST", "/api/tables", {"game": "razzia", "players": players})
        assert status == 201, table
        return table

    def move(self, table: dict, move: dict) -> dict:
        """The table after `move`, which must be accepted."""
        body = {"version": table["version"], "move": move}
        status, after = self.call("POST", f"/api/tables/{table['id']}/moves", body)
        assert status == 200, after
        return after

    def dealt(self, players=PLAYERS) -> dict:
        """A table dealt A, B, C, D in seat order."""
        table = self.table(players)
        return self.move(table, {"type": "deal", "sets": SETS[: len(players)]})

    def police(self, table: dict, count: int) -> dict:
        """The table after `count` police cards drawn (every auction passed)."""
        for _ in range(count):
            for move in next_police_moves(table["state"]):
                table = self.move(table, move)
        return table

    def view(self, table_id: str, wait: str | None = None):
        """GET the device view, long-polling when `wait` is an etag."""
        query = "" if wait is None else f"?wait={wait}"
        return self.call("GET", f"/api/tables/{table_id}/device{query}")

    def arm(self, table_id: str, seats):
        """Arm a reveal."""
        return self.call("POST", f"/api/tables/{table_id}/reveal", {"seats": seats})

    def press(self, table_id: str, reveal_id, seat):
        """Press a seat in a reveal."""
        body = {"id": reveal_id, "seat": seat}
        return self.call("POST", f"/api/tables/{table_id}/reveal/press", body)

    def disarm(self, table_id: str):
        """Disarm the table's reveal."""
        return self.call("DELETE", f"/api/tables/{table_id}/reveal")

    def frame(self, table_id: str):
        """The panel's frame."""
        return self.call("GET", f"/api/tables/{table_id}/device/frame")
