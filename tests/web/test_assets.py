"""Static files a tablet keeps (web/assets.py): URLs that name their content, kept a year."""

import re

from companion_app.web import assets

STATIC = re.compile(r'(?:href|src)="(/static/[^"?]+)\?v=([0-9a-f]{12})"')


def test_every_static_url_of_a_page_names_its_content(client, app):
    """A table page's CSS, scripts and icon carry `?v=` and the hash of the file they name."""
    table = client.post("/api/tables", json={"game": "razzia", "players": ["A", "B"]}).get_json()
    page = client.get(f"/tables/{table['id']}").get_data(as_text=True)
    found = STATIC.findall(page)
    assert {path.rsplit("/", 1)[-1] for path, _ in found} >= {"app.css", "app.js", "live.js"}
    for path, version in found:
        assert version == assets.version_of(app.static_folder, path.removeprefix("/static/"))
    assert not re.search(r'(?:href|src)="/static/[^"?]+"', page)  # none without its version


def test_a_versioned_file_is_kept_a_year_and_any_other_is_asked_again(client, app):
    """The browser reuses a file whose URL names its content; a stale or bare URL revalidates."""
    version = assets.version_of(app.static_folder, "app.css")
    with client.get(f"/static/app.css?v={version}") as kept:
        assert kept.status_code == 200
        assert kept.headers["Cache-Control"] == "public, max-age=31536000"
    for url in ("/static/app.css", "/static/app.css?v=000000000000"):
        with client.get(url) as answer:
            assert answer.status_code == 200
            assert "max-age=31536000" not in answer.headers.get("Cache-Control", ""), url


def test_a_missing_file_has_no_version_and_stays_a_404(client):
    assert assets.version_of("/nonexistent", "app.css") == ""
    with client.get("/static/nothing-here.css") as answer:
        assert answer.status_code == 404
