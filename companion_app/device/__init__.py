"""The table box: what the app shows it (feed, frame, status) and the host side that drives it.

App side, imported by the API and the pages: `feed` (the device view and the followed table),
`frame` (the panel's pixels, from the firmware's renderer) and `status` (the bridge's report);
these may import `store` and `scoring`. Host side: `link`, `detect`, `bridge`, `follow`,
`simulator`, `embed` and friends speak docs/protocol.md with the firmware and only the app's
public HTTP API (docs/device-api.md) with the app, so the bridge runs in `companion serve`
(a thread) or as its own process (`companion device run`) on another machine at the table;
they import nothing of the app but `device.status` (docs/architecture.md).
"""
