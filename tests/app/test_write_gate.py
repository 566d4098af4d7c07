"""Live renders let the writes in flight go first (issue 33 item 8, server/wsgi.Writes)."""

import asyncio

from companion_app.server.wsgi import READS, Writes


def test_only_methods_that_may_write_hold_renders_back():
    """A page load or a poll (GET, HEAD, OPTIONS) never holds a render back; a move does."""
    assert {"GET", "HEAD", "OPTIONS"} == READS
    assert "POST" not in READS and "PUT" not in READS and "DELETE" not in READS


def test_a_render_waits_until_the_writes_in_flight_are_answered():
    """Issue 33 item 8: a burst's moves are answered before the pages they change render."""

    async def scenario() -> None:
        writes = Writes()
        await asyncio.wait_for(writes.settled(60), 1)  # none in flight: no wait at all
        writes.started()
        writes.started()
        waiting = asyncio.ensure_future(writes.settled(60))
        await asyncio.sleep(0)
        writes.ended()
        await asyncio.sleep(0)
        assert not waiting.done()  # one move is still being answered
        writes.ended()
        await asyncio.wait_for(waiting, 5)

    asyncio.run(scenario())


def test_writes_that_never_end_hold_a_render_back_only_so_long():
    """Issue 33 item 8: a stream of writes cannot starve the live pages."""

    async def scenario() -> None:
        writes = Writes()
        writes.started()
        await asyncio.wait_for(writes.settled(0.01), 5)
        assert writes.running == 1

    asyncio.run(scenario())
