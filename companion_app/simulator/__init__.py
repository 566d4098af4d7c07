"""The virtual box, run beside a bridge in place of a board (`--simulate`).

`box` puts the firmware's `Box` under CPython behind a pseudo-terminal, `micropython` runs the
whole firmware under real MicroPython (WebAssembly in a Node child process), `leds` reads the
strip back. `board/` is not CPython: its modules run inside that MicroPython, as the simulated
board's `machine`, `neopixel`, `time` and `asyncio`, and are never imported here.
"""
