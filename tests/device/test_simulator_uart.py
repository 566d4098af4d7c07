"""The simulated board's UART transmit path (issue 25, item 7).

MicroPython's ESP32 port writes stdout into UART0's 128-byte transmit FIFO and, when it is
full, waits with vTaskDelay(1): 10 ms steps during which the box's loop does not run. The
simulated board models that (simulator/board/simhost.py `Stdout`); here its `Stdout` runs
under real MicroPython with a stand-in for the runner's `hostio`.
"""

import ast
from pathlib import Path

from tests.firmware.conftest import run_node

SIMHOST = Path(__file__).resolve().parents[2] / "companion_app/simulator/board/simhost.py"
TX_FIFO = 128
STEP_MS = 10

SCRIPT = """
import sys, time

class Host:
    def __init__(self):
        self.sent = []
    def send(self, line):
        self.sent.append(line)
    def poll(self):
        return ""
    def sleep(self, ms):
        time.sleep_ms(ms)
    def exit(self):
        pass

host = Host()
sys.modules["hostio"] = host
ns = {"__name__": "simhost"}
exec(SOURCE, ns)
out = ns["Stdout"]()
started = time.ticks_ms()
out.write(b"x" * BURST)
took = time.ticks_diff(time.ticks_ms(), started)
chunks = [(len(line) - 2) // 2 for line in host.sent if line.startswith("T ")]
print(repr((chunks, took, out.stalled_ms)))
"""


def write_burst(tmp_path, burst):
    """(chunk sizes the host got, ms the write took, ms stalled) of one write of `burst` bytes."""
    script = tmp_path / "burst.py"
    source = SCRIPT.replace("SOURCE", repr(SIMHOST.read_text())).replace("BURST", str(burst))
    script.write_text(source)
    result = run_node(["run", str(script)])
    assert result.returncode == 0, result.stderr
    return ast.literal_eval(result.stdout.strip().splitlines()[-1])


def test_a_write_that_fits_the_fifo_goes_out_at_once(tmp_path):
    """Nothing waits: the board's own count of stalled milliseconds stays 0 (the wall-clock time
    of the write is not asserted, a loaded CI host took 89 ms once)."""
    chunks, _took, stalled = write_burst(tmp_path, 100)
    assert chunks == [100] and stalled == 0


def test_a_burst_longer_than_the_fifo_stalls_the_board_in_10_ms_steps(tmp_path):
    """A reconnect's answer, about 355 bytes: 128 at once, the rest as the line drains."""
    chunks, took, stalled = write_burst(tmp_path, 355)
    assert chunks[0] == TX_FIFO and sum(chunks) == 355
    assert stalled == 2 * STEP_MS and took >= 2 * STEP_MS  # 227 bytes: two 10 ms steps
