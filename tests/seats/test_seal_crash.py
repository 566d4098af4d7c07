"""A sealed choice survives a crash of the host and is never revealed by one (issue 31 item 2).

Ann's and Bob's phones seal their houses on a real `companion serve`; the server is killed
with SIGKILL between two seals and started again on the same database. Both seals are there
(their phones still read them), nothing was revealed (no sale in the log, the reveal still
waits for Cid and Dee), and the last two seals then reveal all four as one move.
"""

import http.cookiejar
import json
import os
import signal
import urllib.parse
import urllib.request

from companion_app import create_app
from companion_app.store import get_store
from tests.app.live_server import free_port, start_server, stop
from tests.seats.helpers import for_sale_at_reveal, houses_of, seat_link_path

TIMEOUT_S = 10.0


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Keep a 303 as the answer (the test reads where it points, not the page behind it)."""

    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """A phone on the server: its own cookies, its seat link taken."""

    def __init__(self, port: int, path: str) -> None:
        self.root = f"http://127.0.0.1:{port}"
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), NoRedirect()
        )
        assert self.post(path, {}) == 303

    def post(self, path: str, form: dict) -> int:
        """A form post; its status (303 for every seat post that was taken)."""
        data = urllib.parse.urlencode(form).encode()
        try:
            with self.opener.open(self.root + path, data=data, timeout=TIMEOUT_S) as answer:
                return answer.status
        except urllib.error.HTTPError as answer:
            return answer.code

    def seat_page(self, table_id: str) -> str:
        """The phone's seat page."""
        with self.opener.open(f"{self.root}/tables/{table_id}/seat", timeout=TIMEOUT_S) as page:
            return page.read().decode()

    def seal(self, table_id: str, house: int) -> None:
        """Seal a house; the server acknowledged it once this returns."""
        assert self.post(f"/tables/{table_id}/seat/seal", {"choice": json.dumps(house)}) == 303


def test_a_crash_between_two_seals_keeps_the_first_and_reveals_nothing(tmp_path):
    instance = tmp_path / "instance"
    app = create_app({}, instance_path=str(instance))  # the server's own secret key
    table = for_sale_at_reveal(app)
    chosen = [houses_of(app, table.id, seat)[0] for seat in range(4)]
    links = [seat_link_path(app, table.id, seat) for seat in range(4)]
    port, log = free_port(), tmp_path / "serve.log"
    server = start_server(instance, port, log)
    try:
        phones = [Phone(port, link) for link in links]
        phones[0].seal(table.id, chosen[0])
        phones[1].seal(table.id, chosen[1])
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        server = start_server(instance, port, log)
        assert f"Sealed: house {chosen[0]}." in phones[0].seat_page(table.id)
        assert f"Sealed: house {chosen[1]}." in phones[1].seat_page(table.id)
        assert "Waiting for Cid, Dee." in phones[0].seat_page(table.id)
        with app.app_context():
            assert get_store().get(table.id).version == table.version
        phones[2].seal(table.id, chosen[2])
        phones[3].seal(table.id, chosen[3])
    finally:
        stop(server)
    with app.app_context():
        store = get_store()
        assert store.get(table.id).version == table.version + 1
        assert store.history(table.id)[-1].move == {"type": "sell", "houses": chosen}
