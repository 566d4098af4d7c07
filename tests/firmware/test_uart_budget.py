"""The box keeps up with the line: 115200 baud into the board's 260-byte stdin ring, read at
most Box.RX_CHUNK bytes a tick (docs/protocol.md "Input budget")."""

import protocol as P
import pytest
from box import Box

BYTES_PER_MS = 115200 / 10 / 1000  # 8N1: ten bits a byte
RING = 260  # MicroPython's ESP32 stdin ring (MICROPY_HW_STDIN_BUFFER_LEN)


class UartPort:
    """Bytes on the wire arrive at line rate into a bounded ring; a full ring loses them."""

    def __init__(self):
        self.wire = bytearray()
        self.ring = bytearray()
        self.lost = 0
        self.out = bytearray()
        self._credit = 0.0

    def advance(self, ms):
        """`ms` of line time: that many bytes move from the wire into the ring."""
        self._credit += ms * BYTES_PER_MS
        n = min(int(self._credit), len(self.wire))
        self._credit -= n
        room = RING - len(self.ring)
        self.ring += self.wire[: min(n, room)]
        self.lost += max(0, n - room)
        del self.wire[:n]

    def readinto(self, buf):
        n = min(len(buf), len(self.ring))
        buf[:n] = self.ring[:n]
        del self.ring[:n]
        return n

    def write(self, data):
        self.out += data


def host_burst(lines):
    """A HELLO, then `lines` SETs back to back: the host's densest output."""
    data = P.encode(1, P.HELLO, "proto=1 host=0c0ffee1")
    for seq in range(2, lines + 2):
        data += P.encode(
            seq, P.SET, f"police={seq % 8} limit=7 round=1 rounds=3 seats=6 host=0c0ffee1"
        )
    return data


@pytest.mark.parametrize("period_ms", [Box.TICK_MS, 2 * Box.TICK_MS])
def test_a_long_burst_at_line_rate_loses_nothing(box, period_ms):
    port = UartPort()
    box.port = port
    port.wire += host_burst(60)  # about 3.5 KB, 300 ms of line
    now = 0
    while port.wire or port.ring:
        port.advance(period_ms)
        box.tick(now)
        now += period_ms
    acks = [P.decode(raw) for raw in bytes(port.out).split(b"\n") if b" ACK " in raw]
    assert port.lost == 0 and len(acks) == 60


def test_the_old_64_byte_read_fell_behind_a_slow_loop(box):
    """Issue 13: 64 bytes a tick is less than the line brings in 10 ms; the ring overflows."""
    port = UartPort()
    box.port = port
    box._rx = bytearray(64)
    port.wire += host_burst(60)
    now = 0
    while port.wire or port.ring:
        port.advance(2 * Box.TICK_MS)
        box.tick(now)
        now += 2 * Box.TICK_MS
    assert port.lost > 0
