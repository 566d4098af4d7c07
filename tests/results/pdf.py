"""Just enough PDF reading for tests: the text and the images of a Chromium-printed PDF.

Chromium (Skia) writes uncompressed object headers, Flate-compressed streams, Type0 fonts
with ToUnicode maps, and images as XObjects; that is all this reads.
"""

import re
import zlib
from dataclasses import dataclass

from PIL import Image

OBJECT = re.compile(rb"(\d+) 0 obj(.*?)endobj", re.S)
STREAM = re.compile(rb"^(.*?)stream\r?\n(.*?)\r?\nendstream", re.S)
#: A stream's length in its dictionary (Skia writes it as a direct number).
LENGTH = re.compile(rb"/Length (\d+)(?! \d+ R)")
FONT_ENTRY = re.compile(rb"/(F\w*)\s+(\d+) 0 R")
TO_UNICODE = re.compile(rb"/ToUnicode (\d+) 0 R")
NUMBER = {key: re.compile(rb"/" + key + rb" (\d+)") for key in (b"Width", b"Height")}
BFCHAR = re.compile(rb"beginbfchar(.*?)endbfchar", re.S)
BFRANGE = re.compile(rb"beginbfrange(.*?)endbfrange", re.S)
HEX = re.compile(rb"<([0-9A-Fa-f]*)>")
TOKENS = re.compile(rb"/(\w+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>|(BT|ET)\b")


@dataclass
class PdfObject:
    """One object: its dictionary text and its decoded stream (b"" when it has none)."""

    head: bytes
    data: bytes


def objects(pdf: bytes) -> dict[int, PdfObject]:
    """Every numbered object of the file, streams inflated."""
    found = {}
    for number, body in OBJECT.findall(pdf):
        body = body.strip()
        match = STREAM.match(body)
        if match is None:
            found[int(number)] = PdfObject(body, b"")
            continue
        head, data = match.groups()
        length = LENGTH.search(head)
        if length:  # exactly: compressed bytes may end in \r, which the pattern would take
            start = len(head) + len(b"stream")
            start += 2 if body[start : start + 2] == b"\r\n" else 1
            data = body[start : start + int(length.group(1))]
        if b"/FlateDecode" in head:
            data = zlib.decompress(data)
        found[int(number)] = PdfObject(head, data)
    return found


def _cmap(data: bytes) -> dict[str, str]:
    """A ToUnicode CMap: glyph code (hex) -> text."""
    mapping = {}
    for block in BFCHAR.findall(data):
        pairs = HEX.findall(block)
        for code, text in zip(pairs[::2], pairs[1::2], strict=True):
            mapping[code.decode().upper()] = bytes.fromhex(text.decode()).decode("utf-16-be")
    for block in BFRANGE.findall(data):
        values = HEX.findall(block)
        for low, high, start in zip(values[::3], values[1::3], values[2::3], strict=True):
            width = len(low)
            first = int.from_bytes(bytes.fromhex(start.decode()), "big")
            for offset, code in enumerate(range(int(low, 16), int(high, 16) + 1)):
                mapping[f"{code:0{width}X}"] = chr(first + offset)
    return mapping


def text(pdf: bytes) -> str:
    """The text of every text block, one line per BT ... ET block, in stream order."""
    found = objects(pdf)
    fonts: dict[str, dict[str, str]] = {}
    for obj in found.values():
        for name, number in FONT_ENTRY.findall(obj.head):
            font = found.get(int(number))
            ref = TO_UNICODE.search(font.head) if font else None
            if ref:
                fonts[name.decode()] = _cmap(found[int(ref.group(1))].data)
    lines, current, cmap = [], [], {}
    for obj in found.values():
        if not obj.data or b"Tf" not in obj.data:
            continue
        for font, code, marker in TOKENS.findall(obj.data):
            if font:
                cmap = fonts.get(font.decode(), {})
            elif marker:
                if current:
                    lines.append("".join(current))
                current = []
            elif code:
                hexed = code.decode().upper()
                current.extend(cmap.get(hexed[i : i + 4], "") for i in range(0, len(hexed), 4))
    return "\n".join(lines)


def images(pdf: bytes) -> list[Image.Image]:
    """Every raw (Flate or uncompressed) image XObject as a PIL image."""
    out = []
    for obj in objects(pdf).values():
        if b"/Subtype /Image" not in obj.head or b"/DCTDecode" in obj.head:
            continue
        width = int(NUMBER[b"Width"].search(obj.head).group(1))
        height = int(NUMBER[b"Height"].search(obj.head).group(1))
        mode = {width * height: "L", 3 * width * height: "RGB"}.get(len(obj.data))
        if mode:
            out.append(Image.frombytes(mode, (width, height), obj.data))
    return out
