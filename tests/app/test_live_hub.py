"""The live hub on its own event loop: groups, one render per group, versions, wake-ups.

No server here: the hub is driven directly (docs/live.md), writes go through the test client
in a worker thread, as a request would. GUARD_S only bounds how long a test waits for
something that must happen; no test asserts how fast.
"""

import asyncio
import json
from collections import Counter

import pytest

from companion_app import create_app
from companion_app.server.live import pages as live_pages
from companion_app.server.live.groups import Group
from companion_app.server.live.hub import LiveHub
from companion_app.server.live.stream import Refused, Subscriber
from companion_app.store.changes import ChangeFeed, get_feed
from tests.device_app.helpers import DeviceApi

#: Failure guard: a test gives up waiting for an event after this long.
GUARD_S = 20.0
HOST = "127.0.0.1"
#: Rechecks so rare that only the change feed's listener can wake the hub in a test.
NEVER_S = 3600.0
DEAL = {"type": "deal", "sets": ["A", "B", "C", "D"]}


def make_app(tmp_path, **config):
    """A fresh app on the test instance (config overrides)."""
    settings = {"TESTING": True, "SECRET_KEY": "live", "DEVICE_RECHECK_S": NEVER_S, **config}
    return create_app(settings, instance_path=str(tmp_path))


def events(chunk: bytes) -> list[tuple[str, dict]]:
    """The (event, data) pairs of a stream chunk."""
    found = []
    for block in chunk.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            found.append((fields["event"], json.loads(fields["data"])))
    return found


async def next_update(subscriber: Subscriber, newer_than: str) -> dict:
    """The subscriber's first update with a version above `newer_than`."""
    async with asyncio.timeout(GUARD_S):
        while True:
            await subscriber.wake.wait()
            for kind, data in events(subscriber.take()):
                if kind == "update" and newer(data["version"], newer_than):
                    return data


def newer(version: str, than: str) -> bool:
    """True if live version `version` is above `than`."""
    return live_pages.version_key(version) > live_pages.version_key(than)


def first_update(subscriber: Subscriber) -> dict:
    """The update a new subscriber finds waiting: the page as it is now."""
    return dict(events(subscriber.take()))["update"]


@pytest.fixture
def counted(monkeypatch):
    """Every render the hub makes, counted by (page, language)."""
    renders: Counter = Counter()
    original = live_pages.render

    def render(app, table_id, page, lang, host):
        renders[(page, lang)] += 1
        return original(app, table_id, page, lang, host)

    monkeypatch.setattr(live_pages, "render", render)
    return renders


def test_the_feed_calls_its_listeners_on_every_notification_and_on_close():
    feed, heard = ChangeFeed(), []
    feed.add_listener(heard.append)
    feed.notify()
    feed.notify()
    feed.close()
    feed.remove_listener(heard.append)
    feed.notify()
    assert heard == [False, False, True]


def test_the_live_version_only_grows(tmp_path):
    app = make_app(tmp_path)
    api = DeviceApi(app.test_client())
    table = api.table()
    seen = []

    def note():
        with app.app_context():
            seen.append(live_pages.version_key(live_pages.live_version(table["id"])))

    note()
    table = api.move(table, DEAL)
    note()
    for step in (
        lambda: api.arm(table["id"], [0, 1, 2, 3]),
        lambda: api.press(table["id"], 1, 2),
        lambda: api.press(table["id"], 1, 0),
        lambda: api.disarm(table["id"]),
        lambda: api.arm(table["id"], [0, 1]),
        lambda: api.call("POST", f"/api/tables/{table['id']}/abandon", {}),
    ):
        status, answer = step()
        assert status < 300, answer
        note()
    assert seen == sorted(seen) and len(set(seen)) == len(seen), seen


def test_an_older_render_never_replaces_a_newer_one(tmp_path):
    async def scenario():
        hub = LiveHub(make_app(tmp_path))
        group = Group("t", "table", "en", HOST)
        subscriber = Subscriber(group)
        group.subscribers.add(subscriber)
        for version in ("2.0.0.0", "1.9.9.0", "2.0.0.0", "2.1.0.0"):
            rendered = live_pages.Rendered(200, version, f"<p>{version}</p>", b"", "")
            hub.renders.accept(group, rendered)
        hub.close()
        return [data["version"] for _, data in events(subscriber.take())], group.version

    shown, kept = asyncio.run(scenario())
    assert shown == ["2.1.0.0"] and kept == (2, 1, 0, 0)


def test_each_group_is_rendered_once_per_change_whatever_its_size(tmp_path, counted):
    app = make_app(tmp_path)
    api = DeviceApi(app.test_client())
    table = api.table()
    wanted = [("table", "en")] * 5 + [("table", "cs")] * 3 + [("history", "en")] * 2

    async def scenario():
        hub = LiveHub(app)
        subscribers = [await hub.subscribe(table["id"], page, lang, HOST) for page, lang in wanted]
        before = [first_update(subscriber) for subscriber in subscribers]
        after_subscribing = Counter(counted)
        dealt = await asyncio.to_thread(api.move, table, DEAL)
        updates = [
            await next_update(s, b["version"]) for s, b in zip(subscribers, before, strict=True)
        ]
        hub.close()
        return hub, subscribers, before, after_subscribing, dealt, updates

    hub, subscribers, before, first, dealt, updates = asyncio.run(scenario())
    groups = {("table", "en"): 1, ("table", "cs"): 1, ("history", "en"): 1}
    assert first == groups  # one render per group when it formed
    assert counted == {key: 2 * count for key, count in groups.items()}  # and one per change
    assert {update["version"].split(".")[0] for update in updates} == {str(dealt["version"])}
    assert all(b["version"].startswith("0.") for b in before)
    czech = [u["html"] for u, (page, lang) in zip(updates, wanted, strict=True) if lang == "cs"]
    english = [
        u["html"]
        for u, (page, lang) in zip(updates, wanted, strict=True)
        if (page, lang) == ("table", "en")
    ]
    assert len(set(czech)) == 1 and len(set(english)) == 1 and czech[0] != english[0]
    assert "Kolo" in czech[0] and "Round" in english[0]
    assert "<main" not in english[0]  # the inside of <main> only


def test_a_write_in_this_process_wakes_the_hub_at_once(tmp_path):
    app = make_app(tmp_path, DEVICE_RECHECK_S=NEVER_S)
    api = DeviceApi(app.test_client())
    table = api.table()

    async def scenario():
        hub = LiveHub(app)
        subscriber = await hub.subscribe(table["id"], "device", "en", HOST)
        before = first_update(subscriber)
        rounds = hub.rounds
        await asyncio.to_thread(api.arm, table["id"], [0, 1])
        update = await next_update(subscriber, before["version"])
        hub.close()
        return update, hub.rounds - rounds

    update, rounds = asyncio.run(scenario())
    assert update["version"] == "0.1.0.0" and rounds >= 1
    assert "Reveal 1: 0 of 2 locked in" in update["html"]


def test_a_write_by_another_process_is_seen_by_the_recheck(tmp_path):
    app = make_app(tmp_path, DEVICE_RECHECK_S=0.05)
    other = make_app(tmp_path)  # another process: its own change feed, the same database
    table = DeviceApi(app.test_client()).table()

    async def scenario():
        hub = LiveHub(app)
        subscriber = await hub.subscribe(table["id"], "table", "en", HOST)
        before = first_update(subscriber)
        await asyncio.to_thread(DeviceApi(other.test_client()).move, table, DEAL)
        update = await next_update(subscriber, before["version"])
        hub.close()
        return update

    assert asyncio.run(scenario())["version"].startswith("1.")
    assert get_feed(other) is not get_feed(app)


def test_an_unknown_table_or_too_many_viewers_are_refused_and_leave_nothing(tmp_path):
    app = make_app(tmp_path, LIVE_MAX_VIEWERS=2)
    table = DeviceApi(app.test_client()).table()

    async def scenario():
        hub = LiveHub(app)
        refusals = []
        try:
            await hub.subscribe("nosuchtb", "table", "en", HOST)
        except Refused as refused:
            refusals.append(refused.status)
        unknown_left = dict(hub.watches)
        kept = [await hub.subscribe(table["id"], "results", "en", HOST) for _ in range(2)]
        try:
            await hub.subscribe(table["id"], "history", "en", HOST)
        except Refused as refused:
            refusals.append(refused.status)
        for subscriber in kept:
            hub.unsubscribe(subscriber)
        left = (dict(hub.watches), hub.viewers)
        hub.close()
        return refusals, unknown_left, left

    refusals, unknown_left, left = asyncio.run(scenario())
    assert refusals == [404, 503]
    assert unknown_left == {} and left == ({}, 0)


def test_a_held_poll_answers_when_its_table_moves_not_when_another_does(tmp_path):
    app = make_app(tmp_path, DEVICE_LONG_POLL_S=NEVER_S)
    api = DeviceApi(app.test_client())
    table_a, table_b = api.table(), api.table()
    etag = api.view(table_a["id"])[1]["etag"]

    async def scenario():
        hub = LiveHub(app)
        poll = asyncio.ensure_future(
            hub.hold_poll("api_device.table_device", {"table_id": table_a["id"]}, etag)
        )
        async with asyncio.timeout(GUARD_S):
            while hub.polls.held == 0:
                await asyncio.sleep(0.01)
        rounds = hub.rounds
        await asyncio.to_thread(api.move, table_b, DEAL)
        async with asyncio.timeout(GUARD_S):
            while hub.rounds == rounds:  # the round that saw table B move has run
                await asyncio.sleep(0.01)
        held_after_b = hub.polls.held
        await asyncio.to_thread(api.move, table_a, DEAL)
        async with asyncio.timeout(GUARD_S):
            await poll
        held_after_a = hub.polls.held
        hub.close()
        return held_after_b, held_after_a

    assert asyncio.run(scenario()) == (1, 0)


def test_closing_the_hub_ends_streams_and_releases_polls(tmp_path):
    app = make_app(tmp_path, DEVICE_LONG_POLL_S=NEVER_S)
    api = DeviceApi(app.test_client())
    table = api.table()
    etag = api.view(table["id"])[1]["etag"]

    async def scenario():
        hub = LiveHub(app)
        subscriber = await hub.subscribe(table["id"], "table", "en", HOST)
        poll = asyncio.ensure_future(
            hub.hold_poll("api_device.table_device", {"table_id": table["id"]}, etag)
        )
        async with asyncio.timeout(GUARD_S):
            while hub.polls.held == 0:
                await asyncio.sleep(0.01)
        get_feed(app).close()  # what the server does when it stops
        async with asyncio.timeout(GUARD_S):
            await poll
            while not subscriber.closed:
                await asyncio.sleep(0.01)
        with pytest.raises(Refused):
            await hub.subscribe(table["id"], "table", "en", HOST)
        return hub.closed

    assert asyncio.run(scenario()) is True


def test_issue_34_item_4_a_change_of_what_the_box_draws_pushes_the_frame_again(tmp_path):
    """The bridge reports the box's raid moment (no table write): the hub wakes, and the
    followed table's panel gets a frame drawn from the box's anchors."""
    from companion_app.device.status import get_status

    app = make_app(tmp_path, DEVICE_RECHECK_S=NEVER_S)
    api = DeviceApi(app.test_client())
    table = api.table()
    drawn = {"raid_at": 1_700_000_000_000, "countdown_end": None}

    async def scenario():
        hub = LiveHub(app)
        subscriber = await hub.subscribe(table["id"], "device", "en", HOST)
        get_status(app).update(mode="serial", connected=True)
        async with asyncio.timeout(GUARD_S):
            while True:
                await subscriber.wake.wait()
                found = events(subscriber.take())
                if any(kind == "status" and data["connected"] for kind, data in found):
                    break
            await asyncio.to_thread(get_status(app).update, drawn=drawn)
            while True:
                await subscriber.wake.wait()
                frames = [data for kind, data in events(subscriber.take()) if kind == "frame"]
                if frames and frames[-1]["anchored"] == "box":
                    hub.close()
                    return frames[-1]

    frame = asyncio.run(scenario())
    assert frame["drawn"] == drawn and frame["table"] == table["id"]
