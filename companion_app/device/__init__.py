"""The table box as the app's server process sees it: what the box shows and how it is doing.

`feed` (the device view of a table and which table the box follows), `frame` (the on-screen
panel's pixels, from the firmware's own renderer) and `status` (the bridge's last report).
Runs in `companion serve`; imported by the API and the pages. The code that drives a real or
simulated box lives elsewhere: `bridge/` (beside the serial port) and `simulator/` (the
virtual box); see docs/architecture.md.
"""
