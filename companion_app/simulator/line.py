"""The serial line's build faults, as byte filters for a simulated box (`rx_filter`, `tx_filter`).

`wrong_baud` is what a board whose UART runs at another rate than the host's gives: the
sender's bits (start, 8 data bits LSB first, stop) read back by a UART that samples at its
own rate, so the host receives different bytes, often more or fewer than were sent. A
DevKitC with a 26 MHz crystal running firmware built for 40 MHz sends 115200 x 26 / 40 =
74880 baud: `garbled_line()` is that board.
"""

import math

BAUD = 115200  # the box's line (bridge/detect.py)
CRYSTAL_MHZ = 40  # the crystal the ESP32_GENERIC build assumes
OTHER_CRYSTAL_MHZ = 26  # the other crystal an ESP32 module may carry
#: The rate a 26 MHz board sends at when built for 40 MHz (its ROM's boot text shows there).
SLOW_BAUD = BAUD * OTHER_CRYSTAL_MHZ // CRYSTAL_MHZ


def uart_bits(data):
    """The line's levels, one per bit at the sender's rate: 8N1 frames back to back."""
    bits = []
    for byte in data:
        bits += [0, *((byte >> i) & 1 for i in range(8)), 1]
    return bits


def resample(data, sent_baud, read_baud):
    """What a UART at `read_baud` reads of `data` sent at `sent_baud` (the line idles high)."""
    bits = uart_bits(data)
    sent_s, read_s = 1 / sent_baud, 1 / read_baud

    def level(t):
        k = int(t / sent_s)
        return bits[k] if 0 <= k < len(bits) else 1

    out = bytearray()
    k = 0
    while True:
        # A frame starts on a falling edge, which only a sender's bit boundary can be.
        while k < len(bits) and not (bits[k] == 0 and (k == 0 or bits[k - 1] == 1)):
            k += 1
        if k >= len(bits):
            return bytes(out)
        start = k * sent_s
        out.append(sum(level(start + (i + 1.5) * read_s) << i for i in range(8)))
        k = max(k + 1, math.ceil((start + 9.5 * read_s) / sent_s))  # after its stop bit


def wrong_baud(sent_baud, read_baud):
    """A filter: bytes sent at `sent_baud`, as a UART at `read_baud` reads them."""
    return lambda data: resample(data, sent_baud, read_baud) if data else data


def garbled_line():
    """(rx_filter, tx_filter) of a board whose UART runs at SLOW_BAUD while the host runs at
    BAUD: both directions arrive garbled."""
    return wrong_baud(BAUD, SLOW_BAUD), wrong_baud(SLOW_BAUD, BAUD)
