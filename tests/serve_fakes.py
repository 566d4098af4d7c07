"""Stand-ins for `serve.run`'s socket and uvicorn server: it binds and serves nothing."""

from companion_app.server import serve


class FakeSocket:
    """Stands in for the listening socket: bound where asked, nothing really opened."""

    def __init__(self, host, port):
        self.address = (host, port)

    def getsockname(self):
        """The address it was "bound" to."""
        return self.address

    def close(self):
        """Nothing to close."""


class FakeServer:
    """Stands in for the uvicorn server: remembers what it was given, returns from run()."""

    made: dict = {}

    def __init__(self, front):
        FakeServer.made = {"app": front.app}

    def run(self, sockets):
        """Return at once instead of serving."""
        FakeServer.made["address"] = sockets[0].getsockname()


def fake_serving(monkeypatch):
    """serve.run binds and serves nothing (FakeServer.made says what it was asked)."""
    monkeypatch.setattr(serve, "bind_socket", FakeSocket)
    monkeypatch.setattr(serve, "make_server", FakeServer)
