"""Test clients that stand for other devices on the LAN (loopback is this computer)."""


def device(app, address: str):
    """A test client that comes from `address` on the LAN and keeps its cookies."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client
