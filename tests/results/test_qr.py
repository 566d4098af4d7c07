"""QR codes as SVG and PNG decode back to their exact text (zxing-cpp), diacritics included."""

import struct
import zlib

import pytest

from companion_app.results import qr
from tests.results.qr_decode import decode_png, decode_svg

PAYLOADS = [
    "http://192.168.1.20:8000/tables/ab3k9xyz/results",
    "https://example.org/?who=Příliš žluťoučký kůň úpěl ďábelské ódy",
    "https://app.bgstatsapp.com/createPlay.html?data=" + "%7B%22name%22:%22Čeněk%22%7D" * 40,
]


@pytest.mark.parametrize("text", PAYLOADS)
def test_png_decodes_to_the_same_text(text):
    """The PNG download holds exactly the payload."""
    assert decode_png(qr.png(text)) == text


@pytest.mark.parametrize("text", PAYLOADS)
def test_svg_decodes_to_the_same_text(text):
    """The SVG download describes the same modules as the payload's code."""
    assert decode_svg(qr.svg(text)) == text


def test_png_is_a_valid_png_with_checked_chunks():
    """The PNG writer's chunks carry correct CRCs and the image is square."""
    data = qr.png("hello", scale=3)
    assert data.startswith(qr.PNG_SIGNATURE)
    offset = len(qr.PNG_SIGNATURE)
    kinds = []
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + body)
        kinds.append(kind)
        offset += 12 + length
    assert kinds == [b"IHDR", b"IDAT", b"IEND"]


def test_svg_title_is_escaped():
    """A label with markup cannot break out of the SVG."""
    svg = qr.svg("x", label="<script>alert(1)</script>")
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg


def test_long_payloads_use_low_error_correction():
    """Long payloads (the BG Stats import) use level L, so the code has fewer, larger modules."""
    import qrcode

    text = "x" * 1000
    at_m = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=qr.BORDER)
    at_m.add_data(text.encode())
    at_m.make(fit=True)
    assert len(qr.matrix(text)) < len(at_m.get_matrix())
