"""A socket's listener: direct sends when nothing waits before them, order kept otherwise.

The sends here are coroutines like an ASGI server's ``send``: one that completes without
waiting (uvicorn's writes to the transport), one that has to wait for the network.
"""

from __future__ import annotations

import asyncio

from meadhall.server.games import Listener


def test_a_message_goes_out_at_once_when_nothing_is_queued() -> None:
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def scenario() -> None:
        listener = Listener(seat=0, user_id=1, send_now=send)
        listener.put("a", 1)
        assert sent == ["a"]  # no turn of the event loop in between
        assert listener.queue.empty()

    asyncio.run(scenario())


def test_behind_a_queued_message_a_new_one_queues_too() -> None:
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def scenario() -> None:
        listener = Listener(seat=0, user_id=1)
        listener.queue.put_nowait("snapshot")  # as the socket opens: queued for the sender
        listener.send_now = send
        listener.put("update", 1)
        assert sent == []
        assert [await listener.next_message(), await listener.next_message()] == ["snapshot", "update"]

    asyncio.run(scenario())


def test_a_send_that_has_to_wait_is_finished_and_nothing_overtakes_it() -> None:
    sent: list[str] = []
    network: asyncio.Future[None] | None = None

    async def slow_send(text: str) -> None:
        await asyncio.sleep(0)
        if text == "first":
            assert network is not None
            await network
        sent.append(text)

    async def scenario() -> None:
        nonlocal network
        network = asyncio.get_running_loop().create_future()
        listener = Listener(seat=None, user_id=None, send_now=slow_send)
        listener.put("first", 1)  # starts, then has to wait
        listener.put("second", 2)  # must queue behind it
        assert listener.unfinished is not None and listener.queue.qsize() == 1
        reader = asyncio.ensure_future(listener.next_message())
        await asyncio.sleep(0.01)
        assert not reader.done()  # the sender may not take "second" before "first" is out
        network.set_result(None)
        text = await reader
        assert text == "second" and sent == ["first"]
        await slow_send(text)  # as the sender task does with what it read
        assert sent == ["first", "second"]
        assert listener.unfinished is None

    asyncio.run(scenario())


def test_a_send_to_a_closed_socket_stops_direct_sends_without_raising() -> None:
    async def closed(text: str) -> None:
        raise RuntimeError('Cannot call "send" once a close message has been sent.')

    async def scenario() -> None:
        listener = Listener(seat=1, user_id=2, send_now=closed)
        listener.put("update", 3)  # the broadcast to the other sockets goes on
        assert listener.send_now is None
        listener.put("next", 4)
        assert listener.queue.get_nowait() == "next"

    asyncio.run(scenario())


def test_a_message_taken_by_the_sender_is_not_overtaken_while_it_waits_for_an_earlier_send() -> None:
    """The sender holds "second" while "first" (a direct send that had to wait) finishes;
    a message put in that moment must queue behind "second", not go out before it."""
    sent: list[str] = []
    network: asyncio.Future[None] | None = None

    async def send(text: str) -> None:
        if text == "first":
            assert network is not None
            await network
        sent.append(text)

    async def scenario() -> None:
        nonlocal network
        network = asyncio.get_running_loop().create_future()
        listener = Listener(seat=None, user_id=None, send_now=send)
        listener.put("first", 1)
        listener.put("second", 2)
        reader = asyncio.ensure_future(listener.next_message())
        await asyncio.sleep(0)
        network.set_result(None)
        for _ in range(100):  # until "first" is out (the sender has not resumed yet)
            if listener.unfinished is None:
                break
            await asyncio.sleep(0)
        assert sent == ["first"] and not reader.done()
        listener.put("third", 3)
        text = await reader
        await send(text)  # as the sender task does with what it read
        if not listener.queue.empty():
            await send(await listener.next_message())
        assert sent == ["first", "second", "third"]

    asyncio.run(scenario())
