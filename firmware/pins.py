"""The box's wiring as the firmware sees it: mirrors hardware/pinout.json (a test checks)."""

from compat import const

BOARD = "esp32-devkitc"
LED_DATA = const(13)  # WS2812B DIN, through the 74AHCT125 and the 330 ohm resistor
BUTTONS = (32, 33, 25, 26, 27, 14)  # seat 1..6, momentary to GND, internal pull-up
PIEZO = const(4)  # optional passive piezo (PWM); harmless when not fitted

LED_COUNT = const(18)
POLICE_FIRST = const(0)
POLICE_LEDS = const(7)
ROUND_FIRST = const(7)
ROUND_LEDS = const(5)
SEAT_FIRST = const(12)
SEAT_LEDS = const(6)
