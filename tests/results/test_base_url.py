"""The base URL of the results QR code: COMPANION_BASE_URL, else the LAN URL of `serve --lan`."""

from companion_app import create_app
from companion_app.server import serve
from tests.serve_fakes import fake_serving


def test_environment_sets_base_url_and_location(monkeypatch, tmp_path):
    """COMPANION_BASE_URL and COMPANION_LOCATION reach the app config."""
    monkeypatch.setenv("COMPANION_BASE_URL", "http://10.0.0.5:8000")
    monkeypatch.setenv("COMPANION_LOCATION", "Klubovna")
    app = create_app({"SECRET_KEY": "x"}, instance_path=str(tmp_path))
    assert app.config["BASE_URL"] == "http://10.0.0.5:8000"
    assert app.config["LOCATION"] == "Klubovna"


def test_serve_lan_fills_in_the_lan_url(monkeypatch, capsys, tmp_path):
    """`serve --lan` makes the printed LAN URL the results QR code's base."""
    monkeypatch.delenv("COMPANION_BASE_URL", raising=False)
    fake_serving(monkeypatch)
    monkeypatch.setattr(serve, "lan_address", lambda: "10.1.2.3")
    app = create_app({"SECRET_KEY": "x"}, instance_path=str(tmp_path))
    serve.run(app, "127.0.0.1", 5123, lan=True)
    assert app.config["BASE_URL"] == "http://10.1.2.3:5123/"
    assert "http://10.1.2.3:5123/" in capsys.readouterr().out


def test_configured_base_url_wins_over_the_lan_guess(monkeypatch, tmp_path):
    """A base URL set by the operator (e.g. a host name) is kept."""
    fake_serving(monkeypatch)
    monkeypatch.setattr(serve, "lan_address", lambda: "10.1.2.3")
    app = create_app(
        {"SECRET_KEY": "x", "BASE_URL": "http://companion.local/"}, instance_path=str(tmp_path)
    )
    serve.run(app, "127.0.0.1", 5123, lan=True)
    assert app.config["BASE_URL"] == "http://companion.local/"


def test_without_lan_the_request_host_is_used(monkeypatch, tmp_path):
    """Served on loopback only, nothing is guessed (the request's host is used)."""
    monkeypatch.delenv("COMPANION_BASE_URL", raising=False)
    fake_serving(monkeypatch)
    app = create_app({"SECRET_KEY": "x"}, instance_path=str(tmp_path))
    serve.run(app, "127.0.0.1", 5123, lan=False)
    assert app.config["BASE_URL"] == ""
