"""QR codes as standalone SVG text and PNG bytes (no image library needed at run time).

qrcode's own SVG and PNG factories were weighed and kept out (docs/architecture.md, "QR codes").
"""

import struct
import zlib
from functools import lru_cache

import qrcode
import qrcode.constants

#: Quiet zone around the code, in modules (the standard asks for 4).
BORDER = 4
#: PNG pixels per module by default: about 2 cm for a short link at 96 dpi.
PNG_SCALE = 8
#: Error correction: M (15 %) for short links; L for long payloads so the code stays coarse.
LONG_PAYLOAD = 300
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BLACK, WHITE = 0, 255
#: Codes kept drawn: a table page carries its table's link on every render (and every live
#: push), and choosing the mask alone was about 40 % of such a render.
SVG_MEMORY = 256


def matrix(data: str) -> list[list[bool]]:
    """The code's modules (True = dark), quiet zone included; text is encoded as UTF-8."""
    level = qrcode.constants.ERROR_CORRECT_L
    if len(data) <= LONG_PAYLOAD:
        level = qrcode.constants.ERROR_CORRECT_M
    code = qrcode.QRCode(error_correction=level, border=BORDER)
    code.add_data(data.encode("utf-8"))
    code.make(fit=True)
    return code.get_matrix()


@lru_cache(maxsize=SVG_MEMORY)
def svg(data: str, label: str = "") -> str:
    """A scalable SVG of the code: one path of unit squares, crisp at any print size."""
    modules = matrix(data)
    size = len(modules)
    dark = "".join(
        f"M{x} {y}h{length}v1h-{length}z"
        for y, row in enumerate(modules)
        for x, length in _runs(row)
    )
    title = f"<title>{_escape(label)}</title>" if label else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges" role="img" class="qr-code">{title}'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path d="{dark}" fill="#000"/></svg>'
    )


def _runs(row: list[bool]) -> list[tuple[int, int]]:
    """(start, length) of every run of dark modules in a row: one rectangle per run."""
    runs, start = [], None
    for x, cell in enumerate([*row, False]):
        if cell and start is None:
            start = x
        elif not cell and start is not None:
            runs.append((start, x - start))
            start = None
    return runs


def png(data: str, scale: int = PNG_SCALE) -> bytes:
    """An 8-bit greyscale PNG of the code, `scale` pixels per module."""
    modules = matrix(data)
    rows = []
    for row in modules:
        line = b"".join(bytes([BLACK if cell else WHITE]) * scale for cell in row)
        rows.extend([b"\x00" + line] * scale)  # filter type 0 (none) per scanline
    width = len(modules) * scale
    header = struct.pack(">IIBBBBB", width, width, 8, 0, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, body: bytes) -> bytes:
    """One PNG chunk: length, type, body and the CRC-32 of type and body."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _escape(text: str) -> str:
    """Text safe inside SVG markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
