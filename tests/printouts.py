"""Reading printouts back from the PDFs Chromium makes: words, lines, the first page's QR codes
and PNGs to look at (the standings and the results printouts, issue 32 item 3)."""

import re
from io import BytesIO

import pdfplumber
import zxingcpp

from tests.live import SHOTS

#: A whole word: not preceded or followed by a letter or digit.
WORD = r"(?<![\w]){}(?![\w])"


def words_of(pdf: bytes) -> list[list[str]]:
    """The words of each page, from the PDF's text layer."""
    with pdfplumber.open(BytesIO(pdf)) as document:
        return [[word["text"] for word in page.extract_words()] for page in document.pages]


def lines_of(pdf: bytes) -> list[str]:
    """The text lines of every page, in order."""
    with pdfplumber.open(BytesIO(pdf)) as document:
        return [line for page in document.pages for line in (page.extract_text() or "").split("\n")]


def first_page_codes(pdf: bytes) -> list[str]:
    """What the QR codes on the PDF's first page say (read from a 200 dpi rendering)."""
    with pdfplumber.open(BytesIO(pdf)) as document:
        image = document.pages[0].to_image(resolution=200).original
    return [hit.text for hit in zxingcpp.read_barcodes(image)]


def count(token: str, text: str) -> int:
    """How often `token` stands as a whole word in `text`."""
    return len(re.findall(WORD.format(re.escape(token)), text))


def save_pages(pdf: bytes, name: str) -> None:
    """Each page as a PNG into test-artifacts/screenshots, to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for stale in SHOTS.glob(f"{name}-p*.png"):  # a longer earlier print's extra pages
        stale.unlink()
    with pdfplumber.open(BytesIO(pdf)) as document:
        for number, page in enumerate(document.pages, start=1):
            page.to_image(resolution=96).save(SHOTS / f"{name}-p{number}.png")
