"""Error handling outside the happy path: short escaped pages, JSON under /api, no tracebacks."""

import pytest

from companion_app import create_app


@pytest.fixture
def boom_app(tmp_path):
    """An app with routes that raise an unexpected exception, on a page and in the API."""
    app = create_app({"SECRET_KEY": "test"}, instance_path=str(tmp_path))

    def boom():
        """Fail like a bug would."""
        raise KeyError("secret internals")

    app.add_url_rule("/boom", "boom", boom)
    app.add_url_rule("/api/boom", "api_boom", boom)
    return app


def test_unknown_page_is_a_short_escaped_html_page(client):
    response = client.get("/<script>alert(1)</script>")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    text = response.get_data(as_text=True)
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "Traceback" not in text


def test_unexpected_error_on_a_page_hides_the_traceback(boom_app, caplog):
    response = boom_app.test_client().get("/boom")
    assert response.status_code == 500
    text = response.get_data(as_text=True)
    assert "Something went wrong on the server" in text
    assert "secret internals" not in text and "Traceback" not in text
    assert "secret internals" in caplog.text


def test_unexpected_error_in_the_api_is_json(boom_app):
    response = boom_app.test_client().get("/api/boom")
    assert response.status_code == 500
    assert response.get_json() == {
        "error": "Something went wrong on the server; nothing was changed. Please try again."
    }
