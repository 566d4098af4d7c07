"""The standalone box page and the panel partial, rendered on the server."""

import json
import re

from flask import render_template_string

from companion_app.web.device import led_css

INCLUDE_WITH_ID = '{% with table_id = tid %}{% include "device/_panel.html" %}{% endwith %}'
INCLUDE_WITH_TABLE = '{% include "device/_panel.html" %}'


def test_the_box_page_shows_the_strip_and_a_button_per_seat(client, device):
    """18 LEDs coloured from the firmware frame, one button per player: its number in its
    LED, then the name."""
    table = device.police(device.dealt(), 2)
    page = client.get(f"/tables/{table['id']}/box").get_data(as_text=True)
    assert page.count('class="led" data-pixel=') == 18
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        number = rf'class="led-number">{seat + 1}</span>'
        assert re.search(rf'data-testid="seat-{seat}".*?{number}.*?>{name}<', page, re.S)
    assert 'data-testid="seat-4"' not in page
    frame = device.frame(table["id"])[1]
    first_police = led_css(frame["pixels"][0], frame["cap"])
    level = ",".join(map(str, frame["pixels"][0]))
    assert re.search(rf'data-testid="led-0"\s+data-level="{level}"', page)
    assert f"--led: {first_police}" in page


def test_an_unknown_table_has_no_box_page(client):
    """404 as an HTML page, like every other page."""
    response = client.get("/tables/nosuchtb/box")
    assert response.status_code == 404 and response.mimetype == "text/html"


def test_the_partial_includes_with_a_table_id_or_a_table(app, device):
    """The table view can include it with one line, either way."""
    table = device.dealt()

    class Row:
        id = table["id"]

    with app.test_request_context("/"):
        by_id = render_template_string(INCLUDE_WITH_ID, tid=table["id"])
        by_table = render_template_string(INCLUDE_WITH_TABLE, table=Row())
    assert without_moments(by_id) == without_moments(by_table)
    assert f'data-table="{table["id"]}"' in by_id


def without_moments(page):
    """The panel with its frame's clock readings (when it was drawn) taken out."""
    return re.sub(r'"(now|at)": [0-9.]+', r'"\1": 0', page)


def test_the_panel_carries_its_frame_with_the_strips_timeline(client, device):
    """device.js plays the embedded frame's timeline from the first paint on."""
    table = device.police(device.dealt(), 2)
    page = client.get(f"/tables/{table['id']}/box").get_data(as_text=True)
    found = re.search(r'<script type="application/json" class="device-frame">(.*?)</script>', page)
    embedded = json.loads(found.group(1))
    assert embedded["pixels"] == device.frame(table["id"])[1]["pixels"]
    assert embedded["timeline"]["steps"] == [[0, 0]]  # nothing animates: one frame, for good
    assert embedded["timeline"]["frames"][0]["pixels"] == embedded["pixels"]


def test_the_script_gets_its_words_with_slots_to_fill(client, device):
    """The panel's words travel as JSON; the progress line keeps {id}-style slots."""
    table = device.dealt()
    page = client.get(f"/tables/{table['id']}/box").get_data(as_text=True)
    raw = re.search(r'class="device-text">(.*?)</script>', page, re.S).group(1)
    text = json.loads(raw)
    assert text["progress"] == "Reveal {id}: {locked} of {armed} locked in"
    badges = {"virtual", "connected", "disconnected", "box_silent", "box_deaf", "port_shared"}
    badges.add("port_busy")  # issue 34: a second bridge waiting for the port
    badges.add("box_fault")  # issue 34: the box holds back a state that made it fail
    assert set(text["badge"]) == badges  # issue 25: a link down one way, a port shared


def test_led_colours_scale_strip_levels_to_the_screen():
    """The cap (76) shows as full brightness; nothing goes past 255."""
    assert led_css([76, 0, 38], 76) == "rgb(255, 0, 128)"
    assert led_css([80, 0, 0], 76) == "rgb(255, 0, 0)"
