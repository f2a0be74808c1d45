"""Two real servers on one PostgreSQL database and one Redis share their sockets' counts and presence.

docs/deploy.md, "Several servers": one address's table sockets on both servers count
together against ``ws_per_address``; a player with the table open on one server gets no
turn e-mail from a move its owner (the other server) applied; a killed server's sockets
and presence fade; a table made on one server is in the lobby of the other.

The servers run with a ``redis_prefix`` of this test's own: the count of an address's
sockets is kept per address, so other tests' servers on the machine's shared Redis, all
reached from 127.0.0.1, would otherwise count against this test's small limit.

Skipped, saying so, when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from meadhall.server.presence import SharedPresence
from meadhall.server.redisnames import RedisNames
from tests.server.conftest import Inbox, smtp_inbox
from tests.server.test_cluster_service import (
    HANG_GUARD,
    Hearing,
    Player,
    Server,
    _until,
    database,  # noqa: F401 (the fixture)
    pytestmark,  # noqa: F401 (the same skips: PostgreSQL and Redis)
)

PER_ADDRESS = 3
# The servers' lease, which is also how long a silent server's sockets count: the default,
# not the other drills' 1 s, so a beat late on a busy machine (one every third of it)
# does not fade a live server's open table away (and mail its player a turn he sees).
FADE_MS = 3000
SITE = RedisNames(f"test-{secrets.token_hex(4)}")  # this test's names in the shared Redis (redis_prefix)


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_inbox() as found:
        yield found


@pytest.fixture
def servers(
    tmp_path: Path,
    database: str,  # noqa: F811
    inbox: tuple[Inbox, int],
) -> Iterator[tuple[Server, Server]]:
    secret = secrets.token_hex(32)
    settings = {
        "redis_prefix": SITE.prefix,
        "cluster_lease_ms": str(FADE_MS),
        "ws_per_address": str(PER_ADDRESS),
        "smtp_host": "127.0.0.1",
        "smtp_port": str(inbox[1]),
        "smtp_security": "none",
        "public_url": "http://meadhall.test",
    }
    first = Server(tmp_path, "first", database, secret, settings=settings)
    second: Server | None = None
    try:
        first.wait_ready()  # the schema is made once, by the first
        second = Server(tmp_path, "second", database, secret, settings=settings)
        second.wait_ready()
        yield first, second
    finally:
        if second is not None:
            second.stop()
        first.stop()


def _open_seats(server: Server, table_id: str) -> set[int]:
    """The seats with the table open on any live server, as a server asks Redis (a node of its own)."""

    async def ask() -> set[int]:
        import coredis

        redis = coredis.Redis.from_url(server.redis_url, decode_responses=True)
        return await SharedPresence(redis, "probe", FADE_MS, SITE).open_seats(table_id)

    return asyncio.run(ask())


def _members(server: Server, table_id: str) -> set[str]:
    async def ask() -> set[str]:
        import coredis

        redis = coredis.Redis.from_url(server.redis_url, decode_responses=True)
        return set(await redis.smembers(SharedPresence(redis, "probe", FADE_MS, SITE).open_key(table_id)))

    return asyncio.run(ask())


def _socket(server: Server, table_id: str, player: Player | None = None) -> ClientConnection:
    headers = {"Cookie": player.cookie()} if player is not None else {}
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}"
    socket = connect(url, additional_headers=headers, open_timeout=HANG_GUARD)
    assert json.loads(socket.recv(timeout=HANG_GUARD))["type"] == "snapshot"
    return socket


def _refused(server: Server, table_id: str) -> bool:
    try:
        _socket(server, table_id).close()
    except InvalidStatus as refused:
        assert refused.response.status_code == 429
        assert b"at most 3 table connections per address" in refused.response.body
        return True
    return False


def _table(ann: Player, bob: Player, game: str, options: dict[str, Any], pace: str = "live") -> str:
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = ann.post(
        "/api/tables",
        {"game": game, "options": options, "seats": seats, "pace": pace, "confirm_turns": False},
    )
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert bob.post(f"/api/tables/{table_id}/join").status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def test_sockets_per_address_are_counted_across_servers_and_a_dead_servers_fade(
    servers: tuple[Server, Server],
) -> None:
    first, second = servers
    ann, bob = Player(first, "ann"), Player(second, "bob")
    ann.register()
    bob.register()
    # A table made on the first server is in the second's lobby (both read the one database).
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = ann.post("/api/tables", {"game": "voluspa", "options": {"preset": "saga"}, "seats": seats})
    assert made.status_code == 201, made.text
    waiting = made.json()["id"]
    assert waiting in [t["id"] for t in bob.http.get("/api/tables").json()["tables"]]
    assert bob.post(f"/api/tables/{waiting}/join").status_code == 200
    assert ann.post(f"/api/tables/{waiting}/start").status_code == 200

    # 127.0.0.1 holds two sockets on the first server and one on the second: its fourth is
    # refused on either, as one server would refuse it.
    held = [_socket(first, waiting), _socket(first, waiting), _socket(second, waiting)]
    assert _refused(first, waiting)
    assert _refused(second, waiting)
    held.pop(0).close()  # one place free again, on whichever server
    _until("the first server to count the closed socket off", lambda: not _refused(second, waiting))
    held.append(_socket(second, waiting))
    assert _refused(first, waiting)

    # The second server dies holding two of them: they stop counting once its entries fade.
    second.process.send_signal(signal.SIGKILL)
    second.process.wait(timeout=HANG_GUARD)
    on_first = held[0]  # the one left on the first server; the others' server is gone
    _until("the dead server's sockets to fade", lambda: not _refused(first, waiting))
    more = [_socket(first, waiting), _socket(first, waiting)]
    assert _refused(first, waiting)  # 3 again, all on the first server
    for socket in [on_first, *more]:
        socket.close()


def test_a_player_with_the_table_open_on_another_server_gets_no_turn_email(
    servers: tuple[Server, Server], inbox: tuple[Inbox, int]
) -> None:
    first, second = servers
    received = inbox[0]
    ann, bob = Player(first, "ann"), Player(second, "bob")
    ann.register()
    bob.register()
    answer = bob.http.put(
        "/api/me/notifications", json={"email": "bob@example.org"}, headers={"X-CSRF-Token": bob.csrf}
    )
    assert answer.status_code == 200, answer.text
    (confirmation,) = received.wait("bob@example.org")
    body = confirmation.get_payload(decode=True)
    assert isinstance(body, bytes)
    link = re.search(r"http://meadhall\.test(/email/confirm/\d+/[\w-]+)", body.decode())
    assert link is not None
    assert bob.http.get(link.group(1)).status_code == 200

    table_id = _table(ann, bob, "toy", {}, pace="async")  # the first server runs it
    state = ann.state(table_id)
    assert state["to_move"] == [0]
    with _socket(second, table_id, bob) as page:  # Bob has the table open on the second server
        _until("Bob's seat to be open in Redis", lambda: _open_seats(first, table_id) == {1})
        assert _members(first, table_id) == {f"1@{second.node}"}
        played = ann.post(f"/api/tables/{table_id}/actions", {"action": state["legal"][0], "version": 0})
        assert played.status_code == 200, played.text
        assert played.json()["to_move"] == [1]  # Bob's turn: he sees it there, no e-mail
        # He sees it before he closes the page: the owner asks who has the table open just
        # after it answers the move, and a page closed at once might not be seen then.
        hearing = Hearing(page, "bob")
        hearing.until("Ann's move", lambda m: m["type"] == "update" and m["version"] == 1)
    _until("Bob's seat to be closed in Redis", lambda: _open_seats(first, table_id) == set())
    # With the table closed, the game goes on until Bob is made to move again: that notice
    # is sent, through the same path, and it is his only turn e-mail.
    players = {0: ann, 1: bob}
    deadline = time.monotonic() + HANG_GUARD
    again = False
    while not again:
        assert time.monotonic() < deadline, "Bob was never made to move again"
        state = bob.state(table_id)
        assert state["status"] == "active", "the game ended before Bob was made to move again"
        (seat,) = state["to_move"]
        mine = players[seat].state(table_id)
        if not mine.get("legal") or mine["version"] != state["version"]:
            time.sleep(0.05)  # the table is answering a window for the seat by itself
            continue
        move = {"action": mine["legal"][0], "version": mine["version"]}
        played = players[seat].post(f"/api/tables/{table_id}/actions", move)
        if played.status_code == 409 and played.json()["error"] == "stale":
            # Bob reads the second server's copy, which may not have heard the owner answer
            # a window by itself yet: the owner refuses his move on the older version, as
            # it would his page's, and he reads again.
            time.sleep(0.05)
            continue
        assert played.status_code == 200, played.text
        again = seat == 0 and played.json()["to_move"] == [1]
    received.wait("bob@example.org", 2)
    time.sleep(0.5)  # let any notice more arrive: one sent for the first move would be a third e-mail
    assert [m["Subject"] for m in received.to("bob@example.org")] == [
        "Confirm your address for meadhall",
        "Your turn: Toy Duel",
    ]


def test_without_redis_a_server_counts_its_own_sockets_and_sees_its_own_open_seats() -> None:
    async def run() -> tuple[list[bool], set[int], set[str]]:
        import coredis

        from tests.server.conftest import free_port

        nobody = coredis.Redis.from_url(f"redis://127.0.0.1:{free_port()}", decode_responses=True)
        presence = SharedPresence(nobody, "alone", 300, RedisNames("meadhall"))
        admitted = [await presence.admit("10.0.0.1", 2) for _ in range(3)]  # as one process: 2 of 3
        await presence.opened("t1", 1)
        await presence.release("10.0.0.1")
        return admitted, await presence.open_seats("t1"), presence._dirty

    admitted, seats, dirty = asyncio.run(run())
    assert admitted == [True, True, False]
    assert seats == {1}
    assert dirty == {"meadhall:ws:10.0.0.1", "meadhall:open:t1"}  # the next beat writes them
