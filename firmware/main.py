"""Boot entry on the ESP32: 0x03 becomes plain data (not Ctrl-C), then the box runs.

Hold seat 1's button while resetting to stay in the REPL (safe mode). A running box leaves
for the REPL when the host sends STOP; `companion firmware deploy` does that before mpremote.
"""

import board
import micropython

if not board.safe_mode():
    micropython.kbd_intr(-1)
    try:
        board.run()
    finally:
        micropython.kbd_intr(3)
