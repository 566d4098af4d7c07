"""Pure game rules: no Flask, no serial, no I/O, no clock, no globals."""
