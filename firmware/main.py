"""Boot entry on the ESP32: 0x03 becomes plain data (not Ctrl-C), then the box runs.

Hold seat 1's button while resetting to stay in the REPL (safe mode). A running box leaves
for the REPL when the host sends STOP; `companion firmware deploy` does that before mpremote.
On an ESP32-S2/S3/C3 the box does not start at all (its pins would be flash pins there).
"""

import board
import micropython

if board.wired_for_this_chip() and not board.safe_mode():
    micropython.kbd_intr(-1)
    try:
        board.run()
    finally:
        micropython.kbd_intr(3)
