"""The host side of the table box: serial link, port detection, the bridge to the app, simulator.

docs/protocol.md is the wire contract with the firmware, docs/device-api.md the HTTP contract
with the app. The bridge only uses the app's public API, so it runs in `companion serve` (a
thread) or as its own process (`companion device run`) on another machine at the table.
"""
