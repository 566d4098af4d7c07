"""Tests of the ESP32 firmware: on CPython with fakes, and under real MicroPython in Node."""
