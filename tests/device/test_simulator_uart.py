"""The simulated board's UART transmit path (issue 25, item 7).

MicroPython's ESP32 port writes stdout into UART0's 128-byte transmit FIFO and, when it is
full, waits with vTaskDelay(1): 10 ms steps during which the box's loop does not run. The
simulated board models that (simulator/board/simhost.py `Stdout`): a burst longer than the
FIFO reaches the host in pieces at least one 10 ms step apart.
"""

import threading
import time

import pytest

from companion_app.simulator import micropython as mpsim
from firmware import protocol as P
from tests.device.liveapp import wait_until
from tests.device.test_simulator import WAIT_S, Host

TX_FIFO = 128
STEP_S = 0.010
SEATS = "1,2,3,4,5,6"


@pytest.fixture
def board_and_chunks():
    """A MicroPython board whose every write to the host is timestamped."""
    chunks = []
    lock = threading.Lock()

    def record(data):
        """Note when and how much the board wrote; pass it on."""
        with lock:
            chunks.append((time.monotonic(), len(data)))
        return data

    try:
        board = mpsim.MicroPythonSimulator(tx_filter=record).start()
    except mpsim.SimulatorUnavailable as exc:
        pytest.fail(f"MicroPython is needed: {exc}")
    yield board, chunks
    board.stop()


def test_a_burst_longer_than_the_transmit_fifo_stalls_the_board_in_10_ms_steps(
    board_and_chunks,
):
    board, chunks = board_and_chunks
    host = Host(board.path)
    try:
        host.send(P.HELLO, "proto=1 host=0c0ffee1")
        host.expect(P.HELLO, host="0c0ffee1")
        host.send(P.SET, "police=0 limit=7 round=1 rounds=3 seats=6 host=0c0ffee1")
        host.send(P.ARM, f"id=1 seats={SEATS} host=0c0ffee1")
        host.expect(P.ACK, of=3)
        time.sleep(0.1)
        started = len(chunks)
        for seat in range(1, 7):  # all six in one look of the board: six PRESS lines at once
            board.press(seat)
        assert wait_until(lambda: sum(n for _, n in chunks[started:]) >= 6 * 25, WAIT_S)
        burst = chunks[started:]
        assert burst[0][1] <= TX_FIFO  # the first piece is what the FIFO takes...
        gaps = [b[0] - a[0] for a, b in zip(burst, burst[1:], strict=False)]
        assert max(gaps) >= STEP_S * 0.8  # ...the rest follows after the board waited
    finally:
        host.close()
