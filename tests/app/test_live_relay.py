"""One render per group for the whole server (issue 33 item 8, server/live/relay.py).

Two live hubs stand for two workers on one database, linked through the parent's relay
(`workers.Workers._relay` in a thread, over real socket pairs): the worker that does not own
a table gets each change's update from the owner instead of rendering it, and renders it
itself when the owner's update does not come in time.
"""

import asyncio
import os
import socket
import threading
from collections import Counter

import pytest

from companion_app.server import workers
from companion_app.server.live import pages as live_pages
from companion_app.server.live.hub import LiveHub
from companion_app.server.live.relay import (
    MESSAGE_MAX,
    RELAY,
    RENDER,
    Relay,
    owner_of,
    relay_socket,
)
from companion_app.server.tally import SharedCounts
from companion_app.store.changes import get_feed
from tests.app.test_live_hub import DEAL, HOST, first_update, make_app, next_update
from tests.device_app.helpers import DeviceApi

pytestmark = pytest.mark.skipif(not workers.supported(), reason="workers need POSIX sockets")


@pytest.fixture
def two_workers(tmp_path, monkeypatch):
    """(owner app, other app, renders counted per app, the parent's relay) on one database."""
    apps = [make_app(tmp_path), make_app(tmp_path)]
    parent = workers.Workers(socket.socket(), 2)
    for slot, app in enumerate(apps):
        theirs, mine = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        app.extensions[RELAY] = Relay(theirs, slot, 2)
        parent.relays.append(relay_socket(mine))
    thread = threading.Thread(target=parent._relay, daemon=True)
    thread.start()
    counted: Counter = Counter()
    original = live_pages.render

    def counting(app, table_id, page, lang, root):
        counted[apps.index(app), page] += 1
        return original(app, table_id, page, lang, root)

    monkeypatch.setattr(live_pages, "render", counting)
    yield apps, counted, parent
    parent.stopping.set()
    thread.join()
    for sock in [parent.sock, *parent.relays, *(app.extensions[RELAY].sock for app in apps)]:
        sock.close()


def owned_by(api: DeviceApi, worker: int) -> dict:
    """A new table whose groups `worker` renders for both."""
    while True:
        table = api.table()
        if owner_of(table["id"], 2) == worker:
            return table


def test_the_owner_renders_and_the_other_worker_shows_its_update(two_workers):
    """Issue 33 item 8: a change to a group followed on both workers is rendered once."""
    (owner, other), counted, _ = two_workers
    other.extensions[RELAY].wait_s = 60.0  # a liveness bound: a busy machine still gets there
    api = DeviceApi(owner.test_client())
    table = owned_by(api, 0)

    async def scenario():
        hubs = [LiveHub(owner), LiveHub(other)]
        here = await hubs[0].subscribe(table["id"], "table", "en", HOST)
        there = await hubs[1].subscribe(table["id"], "table", "en", HOST)
        before = first_update(there)["version"]
        first_update(here)
        await asyncio.sleep(0.2)  # the other worker's "want" reaches the owner
        renders_before = Counter(counted)
        await asyncio.to_thread(api.move, table, DEAL)
        get_feed(other).notify()  # what the data_version watch does between processes
        updates = [await next_update(s, before) for s in (here, there)]
        for hub in hubs:
            hub.close()
        return renders_before, updates

    renders_before, (mine, theirs) = asyncio.run(scenario())
    assert mine == theirs  # the same page, the same version
    assert counted[0, "table"] - renders_before[0, "table"] == 1  # the owner's one render
    assert counted[1, "table"] == renders_before[1, "table"] == 1  # only its first page


def test_without_the_owners_update_the_other_worker_renders_it_itself(two_workers):
    """Issue 33 item 8: the owner's copy is a saving, never a dependency."""
    (owner, other), counted, parent = two_workers
    api = DeviceApi(owner.test_client())
    table = owned_by(api, 0)
    parent.gone.add(1)  # the parent passes nothing on to worker 1: its updates never come
    other.extensions[RELAY].wait_s = 0.1

    async def scenario():
        hub = LiveHub(other)  # the owner's hub is not even running
        there = await hub.subscribe(table["id"], "table", "en", HOST)
        before = first_update(there)["version"]
        dealt = await asyncio.to_thread(api.move, table, DEAL)
        get_feed(other).notify()
        update = await next_update(there, before)
        hub.close()
        return dealt, update

    dealt, update = asyncio.run(scenario())
    assert update["version"].split(".")[0] == str(dealt["version"])
    assert counted[1, "table"] == 2  # its first page, then the change, after the wait


def test_a_group_nobody_follows_any_more_is_dropped_by_its_owner(two_workers):
    """Issue 33 item 8: the owner stops rendering for a worker whose viewers left."""
    (owner, other), _, _ = two_workers
    api = DeviceApi(owner.test_client())
    table = owned_by(api, 0)

    async def scenario():
        hubs = [LiveHub(owner), LiveHub(other)]
        there = await hubs[1].subscribe(table["id"], "table", "en", HOST)
        async with asyncio.timeout(20):
            while table["id"] not in hubs[0].watches:
                await asyncio.sleep(0.01)
        hubs[1].unsubscribe(there)
        async with asyncio.timeout(20):
            while table["id"] in hubs[0].watches:
                await asyncio.sleep(0.01)
        for hub in hubs:
            hub.close()

    asyncio.run(scenario())


def test_a_stopped_owners_tables_are_rendered_by_the_others(two_workers):
    """Issue 33 item 8: the parent tells the workers one has stopped; they stop waiting for
    its updates and render its tables' groups themselves."""
    (owner, other), _, parent = two_workers
    parent.counts = SharedCounts(2)
    pid = os.fork()
    if pid == 0:  # worker 0, which stops at once
        os._exit(3)
    parent.pids = [pid, os.getpid()]
    relay = other.extensions[RELAY]
    table = owned_by(DeviceApi(owner.test_client()), 0)
    assert relay.remote(table["id"])

    async def scenario():
        loop = asyncio.get_running_loop()
        relay.start(loop, lambda *message: None)
        while parent._ended(0) is False:
            await asyncio.sleep(0.01)  # until the kernel has the exit to report
        async with asyncio.timeout(20):
            while 0 not in relay.gone:
                await asyncio.sleep(0.01)
        relay.stop(loop)

    asyncio.run(scenario())
    assert not relay.remote(table["id"])


def test_an_update_too_big_to_pass_is_rendered_by_the_worker_that_wants_it():
    """Issue 33 item 8: the owner tells the other worker to render that page itself."""
    sender, receiver = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    with sender, receiver:
        relay = Relay(sender, 0, 2)
        group = ("t1", "history", "en", HOST)
        huge = b"x" * (64 * 1024 * 1024)  # past any kernel's datagram size
        assert relay.render(1, group, "3.0.0.0", huge) is False
        told = receiver.recv(MESSAGE_MAX)
        assert told[:3] == bytes((1, 0)) + RENDER and b'"own": true' in told
