"""Decoding QR codes in tests: PNG bytes and our SVG paths, read back with zxing-cpp."""

import io
import re

import zxingcpp
from PIL import Image

RUN = re.compile(r"M(\d+) (\d+)h(\d+)v1h-\3z")
VIEWBOX = re.compile(r'viewBox="0 0 (\d+) (\d+)"')
QR = zxingcpp.BarcodeFormat.QRCode
#: Pixels per module when an SVG is drawn for decoding.
SCALE = 6


def decode_image(image: Image.Image) -> list[str]:
    """The text of every QR code zxing-cpp finds in the image (QR codes only: with every
    format asked, one BG Stats code was once read as two; what they were was not kept)."""
    return [found.text for found in zxingcpp.read_barcodes(image, formats=QR)]


def decode_png(data: bytes) -> str:
    """The text of the single QR code in a PNG."""
    found = decode_image(Image.open(io.BytesIO(data)))
    assert len(found) == 1, found
    return found[0]


def decode_svg(svg: str) -> str:
    """Draw the SVG's runs of dark modules on a white canvas and decode the QR code they form."""
    size = int(VIEWBOX.search(svg).group(1))
    image = Image.new("L", (size * SCALE, size * SCALE), 255)
    for x, y, length in RUN.findall(svg):
        left, top = int(x) * SCALE, int(y) * SCALE
        image.paste(0, (left, top, left + int(length) * SCALE, top + SCALE))
    found = decode_image(image)
    assert len(found) == 1, found
    return found[0]
