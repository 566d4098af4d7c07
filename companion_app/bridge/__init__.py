"""The host bridge: the process beside the box's serial port (docs/device-bridge.md).

`link` speaks docs/protocol.md with the firmware, `detect` finds and opens the port, `driver`
runs the reader, follower and app worker threads, `follow` and `appclient` talk to the app
over its public HTTP API only (docs/device-api.md), `remote` reports the status of a bridge in
its own process, `deploy` stops the box and copies the firmware (mpremote run `watched`),
`firmware` loads the firmware's pure modules under CPython. It runs as `companion device run`
(its own process, possibly on another computer) or as a thread of `companion serve`; it
imports nothing else of the app.
"""
