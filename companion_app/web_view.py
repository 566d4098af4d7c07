"""What every table page shares: the QR code of a page."""

import qrcode
import qrcode.image.svg
from markupsafe import Markup


def qr_svg(url: str) -> Markup:
    """An inline SVG QR code of `url` (generated here, so it is trusted markup)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    return Markup(image.to_string(encoding="unicode"))
