"""Bots thought by a pool of their own (``meadhall bot-pool``), fed through a Redis stream.

docs/deploy.md, "A pool of bots": real ``meadhall serve`` processes with ``bot_pool = true``
on a fresh PostgreSQL database and the real Redis, and real ``meadhall bot-pool`` processes.
In one drill, in order (the pools share the one stream, so the scenes run one after the
other): with no pool running, a table's bot plays after its owner's deadline, thought by
the owner itself; a bot's request left on the stream while its table ended, and one whose
table moved on (its last move taken back), are dropped by the pool started then, never
played; a game against a bot plays through the pool; and a
pool killed (``kill -9``) while it thinks a bot's move leaves it to another pool, which
answers, the move stored once. Servers and pools run with a ``redis_prefix`` of this run's
own (the pools read it from ``MEADHALL_REDIS_PREFIX``), so no other run's pool takes their moves.

Skipped, saying so, when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from meadhall.server.botpool import stream
from meadhall.server.redisnames import RedisNames
from tests.server.conftest import stop_process
from tests.server.test_cluster_service import (
    HANG_GUARD,
    Player,
    Server,
    _stored_moves,
    _until,
    database,  # noqa: F401 (the fixture)
    pytestmark,  # noqa: F401 (the same skips)
)

REDIS_URL = "redis://127.0.0.1:6379"
SITE = f"test-{secrets.token_hex(4)}"  # this run's redis_prefix, the servers' and the pools'
STREAM = stream(RedisNames(SITE))
BOT = 1  # the bot's seat at every table here; Ann has seat 0


class Pool:
    """One ``meadhall bot-pool`` process (in a process group of its own, its thinking processes with it)."""

    def __init__(self, tmp: Path, name: str) -> None:
        self.name = name
        self.log = tmp / f"{name}.log"
        env = {
            **os.environ,
            "MEADHALL_REDIS_URL": REDIS_URL,
            "MEADHALL_REDIS_PREFIX": SITE,
            "MEADHALL_LOG_FORMAT": "text",
        }
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "meadhall.cli.main", "bot-pool", "--workers", "1", "--claim-ms", "500"],
                env=env, stdout=out, stderr=subprocess.STDOUT, process_group=0,
            )  # fmt: skip
        _until(f"{name} to read the stream", lambda: f"workers on {STREAM}" in self.text())

    def text(self) -> str:
        assert self.process.poll() is None, f"the pool exited:\n{self.log.read_text()[-3000:]}"
        return self.log.read_text()

    def kill(self) -> None:
        """``kill -9`` of the pool and its thinking processes, as when its host dies."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=HANG_GUARD)

    def stop(self) -> None:
        stop_process(self.process)


def _bot_table(ann: Player, level: str) -> str:
    """A toy table Ann makes and starts on her server (which then runs it), a bot of ``level`` in seat 1."""
    seats = [{"kind": "me"}, {"kind": "bot", "bot": level}]
    made = ann.post("/api/tables", {"game": "toy", "options": {}, "seats": seats})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def _until_the_bot_is_to_move(ann: Player, table_id: str) -> dict[str, Any]:
    """Ann plays her moves until the bot is to move: the table's state then."""

    def step() -> dict[str, Any] | None:
        state = ann.state(table_id)
        if BOT in state["to_move"] and 0 not in state["to_move"]:
            return state
        assert not _play_on(ann, table_id), "the game ended before the bot was to move"
        return None

    found: dict[str, Any] = _until(f"the bot to move at {table_id}", step)
    return found


def _play_on(ann: Player, table_id: str) -> bool:
    """Ann plays if she is to move; True once the game is over."""
    state = ann.state(table_id)
    if state["status"] != "active":
        return True
    if 0 in state["to_move"] and state["legal"]:
        move = {"action": state["legal"][-1], "version": state["version"]}
        played = ann.post(f"/api/tables/{table_id}/actions", move)
        assert played.status_code in (200, 409), played.text  # 409: the bot moved first (stale)
    return False


def _bot_moves(database_url: str, table_id: str) -> list[tuple[int, int, str]]:
    return [move for move in _stored_moves(database_url, table_id) if move[1] == BOT]


def _requests_of(table_id: str) -> list[dict[str, str]]:
    """The bot requests of ``table_id`` on the stream now."""

    async def read() -> list[dict[str, str]]:
        import coredis

        redis: Any = coredis.Redis.from_url(REDIS_URL, decode_responses=True)
        entries = await redis.xrange(STREAM, "-", "+")
        return [dict(entry.field_values) for entry in entries if entry.field_values.get("table") == table_id]

    return asyncio.run(read())


def _pool_server(tmp: Path, name: str, database_url: str, secret: str, wait_seconds: int) -> Server:
    """A server of this run's site whose bots the pools think, waiting ``wait_seconds`` for a pool's answer."""
    # A bot thinks half as long as the wait at most: Settings refuses a wait no longer than a bot's move.
    settings = {
        "bot_pool": "true",
        "bot_pool_seconds": str(wait_seconds),
        "bot_move_seconds": str(wait_seconds / 2),
        "redis_prefix": SITE,
    }
    return Server(tmp, name, database_url, secret, settings=settings)


def test_bots_think_in_a_pool_of_their_own(tmp_path: Path, database: str) -> None:  # noqa: F811
    secret = secrets.token_hex(32)
    patient = _pool_server(tmp_path, "patient", database, secret, wait_seconds=60)
    servers, pools = [patient], []
    try:
        patient.wait_ready()
        hasty = _pool_server(tmp_path, "hasty", database, secret, wait_seconds=1)
        servers.append(hasty)
        hasty.wait_ready()
        ann = Player(patient, "ann")
        ann.register()

        # No pool runs. At a table run by `hasty` the bot plays after its 1 s deadline, thought there.
        hurried = _bot_table(ann.through(hasty), "beginner")
        _until_the_bot_is_to_move(ann, hurried)
        _until("the bot's move thought by its owner", lambda: _bot_moves(database, hurried))
        assert f"no bot pool answered table {hurried}" in hasty.log.read_text()

        # At a table run by `patient` the bot's request waits on the stream; Ann resigns.
        ended = _bot_table(ann, "beginner")
        waiting = _until_the_bot_is_to_move(ann, ended)
        request = _until("the bot's request on the stream", lambda: _requests_of(ended))[-1]
        assert (request["version"], request["seat"]) == (str(waiting["version"]), str(BOT))
        seen = json.loads(request["seen"])
        assert seen["view"]["seat"] == BOT and seen["view"] != waiting["view"]  # the bot's seat's view, not Ann's
        stored = _stored_moves(database, ended)
        assert ann.post(f"/api/tables/{ended}/resign").status_code == 200

        # At another, the table moves on while its bot's request waits: Ann takes her lead back.
        undone = _bot_table(ann, "beginner")
        waiting = _until_the_bot_is_to_move(ann, undone)
        assert waiting["version"] == 1  # Ann led round 1; the bot is to answer
        _until("the bot's request on the stream", lambda: _requests_of(undone))
        back = ann.post(f"/api/tables/{undone}/undo", {"version": 1})
        assert back.status_code == 200, back.text
        assert ann.state(undone)["to_move"] == [0]

        # A pool starts: it drops the requests of the ended table and of the one that moved on
        # (and those `hasty` stopped waiting for); nothing is played at either.
        first = Pool(tmp_path, "pool-1")
        pools.append(first)
        for table in (ended, undone):
            _until(f"{table}'s request dropped", lambda t=table: f"of table {t} (the table moved on)" in first.text())
            assert f"thinking for table {table}" not in first.text()
        assert _stored_moves(database, ended) == stored
        assert _bot_moves(database, undone) == []
        assert ann.state(undone)["version"] == 2 and ann.state(undone)["to_move"] == [0]

        # A whole game against a bot, its moves thought by the pool.
        played = _bot_table(ann, "beginner")
        _until("the game's end", lambda: _play_on(ann, played))
        answers = first.text().count(f"answered request {patient.node}-")
        assert answers >= len(_bot_moves(database, played)) > 0, answers
        assert f"no bot pool answered table {played}" not in patient.log.read_text()
        assert _bot_moves(database, played)

        # Two pools; the one thinking an expert's move (4 s) is killed: the other answers it.
        second = Pool(tmp_path, "pool-2")
        pools.append(second)
        slow = _bot_table(ann, "expert")
        while True:  # until the bot has a choice: it thinks its 4 s (with one move it answers at once)
            version = _until_the_bot_is_to_move(ann, slow)["version"]
            thinking = f"thinking for table {slow} (version {version},"
            thinker = _until("a pool thinking", lambda t=thinking: next((p for p in pools if t in p.text()), None))
            time.sleep(1.0)
            if f"of table {slow} (version {version}):" not in thinker.text():
                break
        before = len(_bot_moves(database, slow))
        other = second if thinker is first else first
        thinker.kill()
        assert f"of table {slow} (version {version}):" not in thinker.log.read_text()  # killed mid-move
        pools.remove(thinker)
        _until("the other pool to take the move over", lambda: f"of table {slow} (its pool stopped" in other.text())
        _until("the other pool's answer", lambda: f"of table {slow} (version {version}):" in other.text())
        _until("the bot's move stored", lambda: len(_bot_moves(database, slow)) > before)
        assert f"no bot pool answered table {slow}" not in patient.log.read_text()
        versions = [move[0] for move in _stored_moves(database, slow)]
        assert versions == sorted(set(versions))  # nothing played twice

        pools.remove(other)
        other.stop()  # SIGTERM: it finishes what it thinks and exits
        assert other.process.returncode == 0, other.log.read_text()[-2000:]
    finally:
        for pool in pools:
            pool.stop()
        for server in reversed(servers):
            server.stop()


def test_a_pool_refuses_to_start_without_its_redis(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from meadhall.cli.main import main

    monkeypatch.delenv("MEADHALL_REDIS_URL", raising=False)
    monkeypatch.setenv("MEADHALL_CONFIG", "/nonexistent/meadhall.toml")
    assert main(["bot-pool"]) == 2
    assert "needs redis_url" in capsys.readouterr().err
    assert main(["bot-pool", "--redis-url", "redis://127.0.0.1:1"]) == 2  # nothing listens there
    assert "cannot reach Redis at redis://127.0.0.1:1" in capsys.readouterr().err
