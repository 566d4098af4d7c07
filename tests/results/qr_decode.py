"""Decoding QR codes in tests: PNG bytes and our SVG paths, read back with zxing-cpp."""

import io
import re

import zxingcpp
from PIL import Image

RUN = re.compile(r"M(\d+) (\d+)h(\d+)v1h-\3z")
VIEWBOX = re.compile(r'viewBox="0 0 (\d+) (\d+)"')
#: Pixels per module when an SVG is drawn for decoding.
SCALE = 6


def decode_image(image: Image.Image) -> list[str]:
    """The text of every QR code zxing-cpp finds in the image."""
    return [found.text for found in zxingcpp.read_barcodes(image)]


def decode_png(data: bytes) -> str:
    """The text of the single QR code in a PNG."""
    (text,) = decode_image(Image.open(io.BytesIO(data)))
    return text


def decode_svg(svg: str) -> str:
    """Draw the SVG's runs of dark modules on a white canvas and decode the QR code they form."""
    size = int(VIEWBOX.search(svg).group(1))
    image = Image.new("L", (size * SCALE, size * SCALE), 255)
    for x, y, length in RUN.findall(svg):
        left, top = int(x) * SCALE, int(y) * SCALE
        image.paste(0, (left, top, left + int(length) * SCALE, top + SCALE))
    (text,) = decode_image(image)
    return text
