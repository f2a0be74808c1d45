"""Limits: request bodies, game histories, open tables, chat, and the rate-limit storage.

All by behaviour on the running server: a body over the limit is refused while it is
still arriving; history work is done once per version and off the event loop (a spy on
the replay counts and holds it); tables and chat are refused past their limits; stale
open tables expire.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import threading
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from meadhall.core.registry import get_game
from meadhall.core.words import events_json
from meadhall.server import db
from meadhall.server.db import make_engine
from meadhall.server.store import now
from tests.server.conftest import Player, RunningServer, make_settings
from tests.server.test_api import play_to_the_end

# Request bodies ------------------------------------------------------------------------------


def _raw_request(server: RunningServer, head: bytes, body: bytes) -> bytes:
    """Send a request's head and only the start of its body; return what the server answers."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(head + body)
        # The rest of the body never comes: only a server that refuses early answers.
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def _small_bodies(tmp_path: Path, database_url: str) -> Any:
    return make_settings(
        tmp_path, database_url, login_rate=1000, cookie_secure="false", max_body_bytes=4096, max_pack_body_bytes=200_000
    )


def test_a_large_body_is_refused_before_it_is_read(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_small_bodies(tmp_path, database_url)) as server:
        declared = (
            b"POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 52428800\r\n\r\n"
        )
        answer = _raw_request(server, declared, b'{"name": "' + b"x" * 1000)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        # No length given (chunked): refused once the chunks pass the limit, before the last chunk.
        chunked = (
            b"POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunks = b"".join(b"400\r\n" + b"x" * 1024 + b"\r\n" for _ in range(8))
        answer = _raw_request(server, chunked, chunks)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        json_body = {"Content-Type": "application/json"}
        refused = httpx.post(
            f"{server.url}/api/auth/guest", content=b"{" + b" " * 5000 + b"}", headers=json_body, timeout=60
        )
        assert refused.status_code == 413 and refused.json()["error"] == "too-large"
        # Within the limit, bodies arrive whole, chunked or not.
        guest = httpx.post(
            f"{server.url}/api/auth/guest",
            content=iter([b'{"display_name": ', b'"Dee"}']),
            headers=json_body,
            timeout=60,
        )
        assert guest.status_code == 201, guest.text


def test_a_content_pack_may_be_larger_than_other_bodies(tmp_path: Path, database_url: str) -> None:
    import json
    from importlib import resources

    with RunningServer(_small_bodies(tmp_path, database_url)) as server:
        ann = Player(server, "ann")
        ann.register()
        pack = json.loads(
            resources.files("meadhall.games.bloodrage_valhalla").joinpath("data/default.json").read_text("utf-8")
        )
        pack["id"], pack["label"] = "club-pack", "our club's cards"
        table = {
            "game": "bloodrage-valhalla",
            "options": {"preset": "first-game", "content": pack},
            "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}],
        }
        assert len(json.dumps(table)) > 4096
        created = ann.post("/api/tables", table)
        assert created.status_code == 201, created.text
        # The same body anywhere else is too large.
        chat = ann.post(f"/api/tables/{created.json()['id']}/chat", table)
        assert chat.status_code == 413


# Game histories --------------------------------------------------------------------------------


def _finished_game(server: RunningServer) -> tuple[Player, str]:
    ann = Player(server, "ann")
    ann.register()
    created = ann.post(
        "/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}]}
    )
    table_id = created.json()["id"]
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    play_to_the_end(table_id, {0: ann})
    return ann, table_id


def _at_once(paths: list[str], server: RunningServer) -> list[httpx.Response]:
    barrier = threading.Barrier(len(paths))
    answers: list[Any] = [None] * len(paths)

    def fetch(index: int) -> None:
        barrier.wait(timeout=30)
        answers[index] = httpx.get(server.url + paths[index], timeout=60)

    threads = [threading.Thread(target=fetch, args=(i,)) for i in range(len(paths))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_game_histories_are_replayed_once_per_version(server: RunningServer, monkeypatch: Any) -> None:
    _ann, table_id = _finished_game(server)
    game = get_game("voluspa")
    replays: list[int] = []
    new_game = game.new_game

    def counting(*args: Any, **kwargs: Any) -> Any:
        replays.append(1)
        return new_game(*args, **kwargs)

    monkeypatch.setattr(game, "new_game", counting)
    logs = _at_once([f"/api/tables/{table_id}/log"] * 6, server)
    steps = logs[0].json()["version"]
    replayed = _at_once([f"/api/tables/{table_id}/replay/{n}" for n in range(steps + 1)], server)
    assert all(a.status_code == 200 for a in logs + replayed)
    # Every answer came from one replay of the game (each request replayed it before).
    assert len(replays) == 1
    records = _at_once([f"/api/tables/{table_id}/record"] * 4, server)
    assert len({r.content for r in records}) == 1 and len(replays) == 2  # the record's result: one replay more
    monkeypatch.undo()
    # What they say is what a replay from the record says, in the game's words.
    record = records[0].json()
    state = game.new_game(players=len(record["players"]), seed=record["seed"], options=record["options"])
    words = game.words()
    assert words is not None
    for step, action in enumerate(record["actions"], start=1):
        events = state.apply(action["seat"], game.parse_action(action["action"]))
        public = events_json(events, None, words)
        assert all(log.json()["steps"][step - 1] == {"version": step, "events": public} for log in logs)
        assert replayed[step].json() == {
            "step": step,
            "steps": steps,
            "action": {"seat": action["seat"], "action": action["action"]},
            "events": public,
            "view": state.view(None),
            "words": words.table(state.view(None)),
        }


def test_game_histories_are_replayed_off_the_event_loop(server: RunningServer, monkeypatch: Any) -> None:
    ann, table_id = _finished_game(server)
    game = get_game("voluspa")
    replaying, release = threading.Event(), threading.Event()
    new_game = game.new_game

    def held(*args: Any, **kwargs: Any) -> Any:
        replaying.set()
        release.wait(timeout=60)  # hang guard: released as soon as /healthz answered
        return new_game(*args, **kwargs)

    monkeypatch.setattr(game, "new_game", held)
    answers: list[httpx.Response] = []
    reading = threading.Thread(target=lambda: answers.append(ann.get(f"/api/tables/{table_id}/log")))
    reading.start()
    try:
        assert replaying.wait(timeout=60), "the game was never replayed"
        assert httpx.get(f"{server.url}/healthz", timeout=20).status_code == 200
        assert not answers
    finally:
        release.set()
        reading.join(timeout=60)
    assert answers and answers[0].status_code == 200


def test_game_histories_are_rate_limited_per_address(tmp_path: Path, database_url: str) -> None:
    settings = make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false", history_rate="3/minute")
    with RunningServer(settings) as server:
        ann, table_id = _finished_game(server)
        codes = [ann.get(f"/api/tables/{table_id}/{path}").status_code for path in ("log", "record", "replay/1")]
        assert codes == [200, 200, 200]
        refused = ann.get(f"/api/tables/{table_id}/replay/2")
        assert refused.status_code == 429 and refused.json()["retry_after"] >= 1
        assert ann.get(f"/api/tables/{table_id}/state").status_code == 200  # playing is not limited


# Tables and chat -----------------------------------------------------------------------------


def test_open_tables_per_user_are_limited(tmp_path: Path, database_url: str) -> None:
    settings = make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false", open_tables_per_user=3)
    with RunningServer(settings) as server:
        ann, bo = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bo.register()
        seats = {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "open"}]}
        # Six at once: three are created, however they interleave.
        barrier = threading.Barrier(6)
        codes: list[int] = []

        def create() -> None:
            barrier.wait(timeout=30)
            codes.append(ann.post("/api/tables", seats).status_code)

        threads = [threading.Thread(target=create) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(codes) == [201, 201, 201, 409, 409, 409]
        refused = ann.post("/api/tables", seats)
        assert refused.status_code == 409 and refused.json()["error"] == "too-many-tables"
        assert bo.post("/api/tables", seats).status_code == 201  # the limit is per user
        mine = [t for t in ann.get("/api/tables").json()["tables"] if t["my_seat"] is not None]
        assert len(mine) == 3
        # Starting or abandoning one makes room for another.
        assert ann.post(f"/api/tables/{mine[0]['id']}/abandon").status_code == 200
        assert ann.post("/api/tables", seats).status_code == 201
        assert ann.post("/api/tables", seats).status_code == 409


def test_stale_open_tables_expire(tmp_path: Path, database_url: str) -> None:
    settings = make_settings(
        tmp_path, database_url, login_rate=1000, cookie_secure="false", open_tables_per_user=1, open_table_hours=2
    )
    with RunningServer(settings) as server:
        ann = Player(server, "ann")
        ann.register()
        seats = {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "open"}]}
        old = ann.post("/api/tables", seats).json()["id"]
        engine = make_engine(database_url)
        with engine.begin() as connection:  # the table has waited three hours
            connection.execute(
                update(db.game_tables).where(db.game_tables.c.id == old).values(created_at=now() - timedelta(hours=3))
            )
        # It is no longer offered, nor counted against its creator's limit.
        assert old not in {t["id"] for t in ann.get("/api/tables").json()["tables"]}
        fresh = ann.post("/api/tables", seats)
        assert fresh.status_code == 201, fresh.text
    # The server expires stale tables when it starts (and every minute while it runs).
    with RunningServer(settings) as server:
        ann = Player(server, "ann")
        assert ann.get(f"/api/tables/{old}").json()["status"] == "abandoned"
        assert ann.get(f"/api/tables/{fresh.json()['id']}").json()["status"] == "open"
    engine.dispose()


def test_chat_is_limited_per_user(tmp_path: Path, database_url: str) -> None:
    settings = make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false", chat_rate="3/minute")
    with RunningServer(settings) as server:
        ann, cy = Player(server, "ann"), Player(server, "Cy")
        ann.register()
        cy.guest()
        table_id = ann.post("/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "open"}]}).json()[
            "id"
        ]
        codes = [ann.post(f"/api/tables/{table_id}/chat", {"text": f"line {n}"}).status_code for n in range(4)]
        assert codes == [201, 201, 201, 429]
        assert cy.post(f"/api/tables/{table_id}/chat", {"text": "my turn to talk"}).status_code == 201
        texts = [m["text"] for m in ann.get(f"/api/tables/{table_id}/chat").json()["messages"]]
        assert texts == ["line 0", "line 1", "line 2", "my turn to talk"]


# The rate-limit storage -----------------------------------------------------------------------


def _redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.mark.parametrize("storage", ["memory://", "redis://127.0.0.1:6379"])
def test_rate_limits_count_in_the_configured_storage(storage: str) -> None:
    if storage.startswith("redis") and not _redis_reachable():
        pytest.skip("Redis is not reachable at 127.0.0.1:6379; the memory storage was tested")
    from meadhall.server.ratelimit import RateLimits

    settings = SimpleNamespace(chat_rate="2/minute", login_rate=1, redis_prefix="meadhall")

    async def counts() -> tuple[list[int], int, int]:
        limits = RateLimits(settings, storage)
        key, other = secrets.token_hex(8), secrets.token_hex(8)  # a shared Redis: keys of this test only
        first = [await limits.check("chat_rate", key) for _ in range(3)]
        return first, await limits.check("chat_rate", other), await limits.check("login_rate", key)

    first, other, login = asyncio.run(counts())
    assert first[:2] == [0, 0] and 1 <= first[2] <= 60
    assert other == 0 and login == 0  # counted per key, and per setting


def test_two_servers_on_one_redis_share_one_login_budget(tmp_path: Path) -> None:
    """With ``redis_url`` set (and ``rate_limit_storage`` left alone) two servers count one budget."""
    if not _redis_reachable():
        pytest.skip("Redis is not reachable at 127.0.0.1:6379: the shared rate limits were not tested")
    # A visitor's address of this run only (a trusted proxy names it), so the shared Redis holds no old counts.
    visitor = f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.{secrets.randbelow(254) + 1}"
    headers = {"X-Forwarded-For": visitor}

    def settings(name: str) -> Any:
        return make_settings(
            tmp_path / name,
            f"sqlite:///{tmp_path / (name + '.sqlite3')}",
            login_rate=3,
            cookie_secure="false",
            trusted_proxies="*",
            redis_url="redis://127.0.0.1:6379",
        )

    with RunningServer(settings("a")) as a, RunningServer(settings("b")) as b:
        assert a.settings.rate_limit_uri == "redis://127.0.0.1:6379"

        def sign_in(server: RunningServer) -> int:
            answer = Player(server, "guest").post("/api/auth/guest", {"display_name": "Guest"}, headers=headers)
            return int(answer.status_code)

        codes = [sign_in(a), sign_in(b), sign_in(a), sign_in(b), sign_in(a)]
        assert codes == [201, 201, 201, 429, 429]  # one budget of 3 a minute, whichever server counts
        other = {"X-Forwarded-For": visitor.rsplit(".", 1)[0] + ".0"}  # another visitor is not held back
        assert Player(b, "guest").post("/api/auth/guest", {"display_name": "G"}, headers=other).status_code == 201


def test_one_server_alone_counts_in_its_memory(tmp_path: Path) -> None:
    """Without ``redis_url`` the counters stay in the process, as before."""
    settings = make_settings(tmp_path, f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert settings.redis_url == "" and settings.rate_limit_uri == "memory://"
    from meadhall.server.ratelimit import RateLimits

    assert type(RateLimits(settings).storage).__name__ == "MemoryStorage"
    explicit = make_settings(
        tmp_path, f"sqlite:///{tmp_path / 'y.sqlite3'}", redis_url="redis://h:1", rate_limit_storage="memory://"
    )
    assert explicit.rate_limit_uri == "redis://h:1"  # memory:// is the default: the shared Redis wins
