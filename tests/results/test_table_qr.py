"""The final screen of the table page carries the same results link as the printouts."""

import re

from tests.results.qr_decode import decode_svg

QR_SVG = re.compile(r'<figure class="qr" data-testid="qr">\s*(<svg.*?</svg>)', re.S)


def test_final_screen_qr_uses_the_configured_base_url(app, client, finished):
    """A phone scanning the tablet reaches the LAN address, not the tablet's own host name."""
    app.config["BASE_URL"] = "http://10.0.0.5:8000/"
    page = client.get(f"/tables/{finished}").get_data(as_text=True)
    (svg,) = QR_SVG.findall(page)
    assert decode_svg(svg) == f"http://10.0.0.5:8000/tables/{finished}/results"


def test_final_screen_qr_falls_back_to_the_request_host(client, finished):
    """Without a base URL the link is the address the tablet itself used."""
    page = client.get(f"/tables/{finished}").get_data(as_text=True)
    (svg,) = QR_SVG.findall(page)
    assert decode_svg(svg) == f"http://localhost/tables/{finished}/results"
