"""The `companion` command: `score` exit statuses and streams, the LAN banner and its QR code."""

import io
import json
import socket
import subprocess
import sys

import pytest
import zxingcpp
from PIL import Image

from companion_app import cli
from companion_app.server import serve
from tests.serve_fakes import FakeServer, fake_serving

SHEET = {
    "game": "razzia",
    "round": 2,
    "players": [{"name": "Ann", "cars": 2, "drivers": 1}, {"name": "<b>Bob</b>", "gold": 1}],
}
#: Pixels per QR module when the terminal drawing is turned back into an image.
SCALE = 8
#: print_ascii(invert=True) characters by (top dark) + 2 * (bottom dark).
BLOCKS = ["\u2588", "\u2584", "\u2580", "\xa0"]


def run_score(monkeypatch, capsys, stdin_text, *argv):
    """Run `companion score` in-process; (exit status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    status = cli.main(["score", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_score_from_stdin(monkeypatch, capsys):
    status, out, err = run_score(monkeypatch, capsys, json.dumps(SHEET))
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert [p["name"] for p in result["players"]] == ["Ann", "<b>Bob</b>"]
    assert set(result) >= {"players", "winners"}


def test_score_from_a_file(tmp_path, monkeypatch, capsys):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    status, out, _ = run_score(monkeypatch, capsys, "", str(path))
    assert status == 0 and json.loads(out)["winners"]


@pytest.mark.parametrize(
    ("stdin_text", "fragment"),
    [
        ("{", "The sheet is not valid JSON"),
        ("NaN", "NaN is not a JSON value"),
        ("[]", "sheet"),
        (json.dumps({**SHEET, "round": 4}), "round"),
        (json.dumps({**SHEET, "players": [{"name": "A", "cars": -1}, {"name": "B"}]}), "cars"),
        (json.dumps({**SHEET, "game": "chess"}), "Unknown game 'chess'"),
    ],
)
def test_rejected_sheet_prints_error_json_on_stderr_and_exits_2(
    monkeypatch, capsys, stdin_text, fragment
):
    status, out, err = run_score(monkeypatch, capsys, stdin_text)
    assert (status, out) == (2, "")
    assert fragment in json.loads(err)["error"]


def test_missing_file_is_a_clean_error(monkeypatch, capsys, tmp_path):
    status, _, err = run_score(monkeypatch, capsys, "", str(tmp_path / "none.json"))
    assert status == 2 and "Cannot read the sheet" in json.loads(err)["error"]


def test_console_script_streams_and_status():
    command = [sys.executable, "-m", "companion_app.cli", "score"]
    good = subprocess.run(command, input=json.dumps(SHEET), capture_output=True, text=True)
    assert good.returncode == 0 and json.loads(good.stdout)["players"]
    bad = subprocess.run(command, input="{", capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert json.loads(bad.stderr)["error"].startswith("The sheet is not valid JSON")


def test_lan_address_is_an_ipv4_address():
    parts = serve.lan_address().split(".")
    assert len(parts) == 4 and all(0 <= int(part) <= 255 for part in parts)


def decode_terminal_qr(text):
    """Turn the block-character drawing back into an image and decode it with zxing-cpp."""
    lines = [line for line in text.splitlines() if line and set(line) <= set(BLOCKS)]
    width = max(len(line) for line in lines)
    image = Image.new("L", (width * SCALE, len(lines) * 2 * SCALE), 255)
    for row, line in enumerate(lines):
        for col, char in enumerate(line):
            code = BLOCKS.index(char)
            for half, dark in enumerate((code & 1, code >> 1)):
                if dark:
                    box = (col * SCALE, (row * 2 + half) * SCALE)
                    image.paste(0, (*box, box[0] + SCALE, box[1] + SCALE))
    framed = Image.new("L", (image.width + 8 * SCALE, image.height + 8 * SCALE), 255)
    framed.paste(image, (4 * SCALE, 4 * SCALE))
    return [result.text for result in zxingcpp.read_barcodes(framed)]


def test_banner_names_the_url_and_its_qr_code_decodes_to_it():
    out = io.StringIO()
    url = "http://192.168.1.23:5000/"
    serve.print_banner(url, with_qr=True, out=out)
    text = out.getvalue()
    assert text.splitlines()[0] == f"Open {url} on the tablet"
    assert decode_terminal_qr(text) == [url]


def test_serve_uses_uvicorn_and_the_lan_banner(monkeypatch, capsys, tmp_path):
    fake_serving(monkeypatch)
    monkeypatch.setattr(serve, "lan_address", lambda: "10.1.2.3")
    status = cli.main(
        ["serve", "--lan", "--port", "5123", "--instance", str(tmp_path), "--workers", "1"]
    )
    assert status == 0
    assert FakeServer.made["address"] == ("0.0.0.0", 5123)
    assert FakeServer.made["app"].instance_path == str(tmp_path)
    assert "Open http://10.1.2.3:5123/ on the tablet" in capsys.readouterr().out
    assert (tmp_path / "secret_key").exists() and (tmp_path / "companion.sqlite3").exists()


def test_serve_uses_one_worker_per_core_by_default(monkeypatch, tmp_path):
    """Issue 33 item 7: `companion serve` uses every core (at most 8) unless told otherwise."""
    from companion_app.server import workers

    asked = {}
    monkeypatch.setattr(serve, "run", lambda *_args, **kwargs: asked.update(kwargs))
    monkeypatch.setattr(workers.os, "cpu_count", lambda: 3)
    assert cli.main(["serve", "--port", "0", "--instance", str(tmp_path)]) == 0
    assert asked["workers"] == (3 if workers.supported() else 1)
    monkeypatch.setattr(workers.os, "cpu_count", lambda: 64)
    assert workers.default_workers() == (workers.MAX_DEFAULT if workers.supported() else 1)
    assert cli.main(["serve", "--port", "0", "--instance", str(tmp_path), "--workers", "1"]) == 0
    assert asked["workers"] == 1


def test_the_real_server_is_uvicorn_on_the_live_front(tmp_path):
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from companion_app import create_app
    from companion_app.server.asgi import Front

    app = create_app({"SECRET_KEY": "x"}, instance_path=str(tmp_path))
    server = serve.make_server(Front(app, threads=2))
    assert isinstance(server, serve.uvicorn.Server)
    assert server.config.lifespan == "off"
    # uvicorn's pure-Python h11 protocol, with the room's deadlines and shares (issue 24)
    assert issubclass(server.config.http.func, H11Protocol)
    assert server.config.http.keywords["room"] is server.front.room


def test_busy_port_is_a_clear_message_not_a_traceback(capsys, tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status = cli.main(["serve", "--port", str(port), "--instance", str(tmp_path)])
    out, err = capsys.readouterr()
    assert status == cli.EXIT_CANNOT_SERVE and out == ""
    assert err.startswith(f"Cannot listen on port {port}:")


def test_secret_key_is_generated_once_and_kept(tmp_path, monkeypatch):
    from companion_app import create_app

    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    first = create_app(instance_path=str(tmp_path)).config["SECRET_KEY"]
    second = create_app(instance_path=str(tmp_path)).config["SECRET_KEY"]
    assert first == second and len(first) >= 32
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
