"""Helpers shared by the app tests: API calls and scripted Razzia moves."""

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
#: Sets by seat for a 4-player deal: Ann A (2,6,13), Bob B (3,7,12), Cid C (4,8,11), Dee D (5,9,10).
SETS = ["A", "B", "C", "D"]


class ApiActions:
    """Repeated API actions against the test client, returning (status, json)."""

    def __init__(self, client) -> None:
        self._client = client

    def create(self, players=tuple(PLAYERS), game="razzia"):
        """POST /api/tables."""
        body = {"game": game, "players": list(players) if isinstance(players, tuple) else players}
        response = self._client.post("/api/tables", json=body)
        return response.status_code, response.get_json()

    def table(self, table_id):
        """GET /api/tables/<id>."""
        response = self._client.get(f"/api/tables/{table_id}")
        return response.status_code, response.get_json()

    def move(self, table_id, move, version):
        """POST a move."""
        body = {"version": version, "move": move}
        response = self._client.post(f"/api/tables/{table_id}/moves", json=body)
        return response.status_code, response.get_json()

    def undo(self, table_id, version):
        """POST an undo."""
        response = self._client.post(f"/api/tables/{table_id}/undo", json={"version": version})
        return response.status_code, response.get_json()

    def history(self, table_id):
        """GET the history."""
        response = self._client.get(f"/api/tables/{table_id}/history")
        return response.status_code, response.get_json()

    def dealt(self):
        """A 4-player table dealt with SETS; returns its JSON (Ann, holding 13,000, starts)."""
        status, table = self.create()
        assert status == 201, table
        status, table = self.move(table["id"], {"type": "deal", "sets": SETS}, 0)
        assert status == 200, table
        return table
