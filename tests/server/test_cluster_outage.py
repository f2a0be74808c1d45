"""Two real servers lose Redis, then PostgreSQL, for a while: they degrade, recover by themselves, lose nothing.

The third drill of docs/deploy.md ("When Redis or PostgreSQL goes away"). The machine's
Redis and PostgreSQL are shared with other tests, so each drill stops a private one it
started itself: a ``redis-server`` on a free port (no persistence: when it comes back it
knows no lease, as after a real restart), and for the PostgreSQL drill a private cluster
(``initdb`` and ``pg_ctl``, run as ``nobody`` when the test runs as root, which
``initdb`` refuses).

What is checked: during the outage ``/healthz`` says so (Redis) and every move is either
acknowledged or refused with a clear 503, never a 500 and never lost; afterwards both
servers play on by themselves, each shows the other's moves again, and the database's
moves are exactly the acknowledged ones. No durations are asserted: every wait polls
under a generous guard against hangs.

Skipped, saying which, when ``redis-server``, PostgreSQL (for the Redis drill, the
machine's), ``initdb``/``pg_ctl`` or a user to run them as is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.conftest import PG, free_port
from tests.server.test_cluster_service import (
    HANG_GUARD,
    Player,
    Server,
    _stored_moves,
    _until,
    start_two_seat_table,
)
from tests.server.test_cluster_service import database as database  # the fixture: a fresh database

REDIS_SERVER = shutil.which("redis-server") or (
    "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
)
_PG_PLACES = [Path("/usr/local/bin"), *sorted(Path("/usr/lib/postgresql").glob("*/bin"))]
PG_BIN = next((place for place in _PG_PLACES if (place / "initdb").exists()), None)

pytestmark = [
    pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed: the outage drills did not run"),
    pytest.mark.skipif(os.name != "posix", reason="the drills stop and start servers as POSIX processes"),
]


class PrivateRedis:
    """A ``redis-server`` of this test's own on a free port, stopped and started again at will."""

    def __init__(self, log: Path, host: str = "127.0.0.1", within: list[str] | None = None) -> None:
        # ``within``: a command prefix to start it with (``ip netns exec NS``: another host); ``host``: its address.
        self.host = host
        self.within = within or []
        self.port = free_port()
        self.url = f"redis://{host}:{self.port}"
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert REDIS_SERVER is not None
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [*self.within, REDIS_SERVER, "--port", str(self.port), "--bind", self.host, "--save", "",
                 "--appendonly", "no", "--protected-mode", "no"],  # (a private address: no password needed to reach it)
                stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        _until("the private Redis to answer", self.answers)

    def answers(self) -> bool:
        import socket

        try:
            with socket.create_connection((self.host, self.port), timeout=2) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=HANG_GUARD)


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    private = PrivateRedis(tmp_path / "redis.log")
    private.start()
    try:
        yield private
    finally:
        private.kill()


def _pg_user() -> list[str] | None:
    """The command prefix that runs PostgreSQL's tools (initdb refuses root): none, or ``runuser -u nobody``."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    try:
        pwd.getpwnam("nobody")
    except KeyError:
        return None
    return [runuser, "-u", "nobody", "--"] if runuser else None


class PrivatePostgres:
    """A PostgreSQL cluster of this test's own (initdb in a temporary folder), on a free port."""

    def __init__(self, host: str = "127.0.0.1", within: list[str] | None = None) -> None:
        # ``within``: a prefix to run its tools with (``ip netns exec NS``: another host); ``host``: its address.
        assert PG_BIN is not None
        self.host = host
        self.prefix = [*(within or []), *(_pg_user() or [])]
        self.folder = Path(tempfile.mkdtemp(prefix="meadhall-pg-"))
        self.folder.chmod(0o777)  # its owner may be nobody
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://meadhall@{host}:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self.prefix, *args], capture_output=True, timeout=HANG_GUARD * 2, cwd=self.folder, check=False
        )
        assert done.returncode == 0, f"{args[0]} failed:\n{done.stdout.decode()}\n{done.stderr.decode()}"

    def create(self) -> None:
        assert PG_BIN is not None
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "meadhall", "--no-sync")
        if self.host != "127.0.0.1":  # reached from other hosts (network namespaces) on a private subnet
            with (self.data / "pg_hba.conf").open("a") as rules:
                rules.write(f"host all all {self.host.rsplit('.', 1)[0]}.0/24 trust\n")
        self.start()

    def start(self) -> None:
        assert PG_BIN is not None
        options = f"-p {self.port} -k {self.folder} -c listen_addresses={self.host} -c fsync=off"
        self._run(
            str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options, "-w", "start"
        )

    def stop(self) -> None:
        assert PG_BIN is not None
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            assert PG_BIN is not None
            subprocess.run(
                [*self.prefix, str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"],
                capture_output=True, timeout=HANG_GUARD, check=False,
            )  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


def _two_servers(tmp: Path, database: str, redis_url: str) -> tuple[Server, Server]:
    secret = secrets.token_hex(32)
    first = Server(tmp, "first", database, secret, redis_url)
    try:
        first.wait_ready()  # the schema is made once, by the first
        second = Server(tmp, "second", database, secret, redis_url)
        second.wait_ready()
    except BaseException:
        first.stop()
        raise
    return first, second


def _table(first: Server, second: Server) -> tuple[str, Player, Player]:
    """A Völuspá table started by Ann on the first server (its owner), Bob playing through the second."""
    ann, bob = Player(first, "ann"), Player(second, "bob")
    ann.register()
    bob.register()
    return start_two_seat_table(ann, bob), ann, bob


def _try_move(
    players: dict[int, Player], table_id: str, acknowledged: list[tuple[int, int, str]], refusals: list[str]
) -> bool:
    """The seat to move tries its last legal action through ``players[seat]``'s server.

    True when it was acknowledged (noted in ``acknowledged``); a refusal must be a clear 503
    (noted in ``refusals`` as ``code: message``), never a 500 or anything else.
    """
    for seat, player in players.items():
        looked = player.http.get(f"/api/tables/{table_id}/state")
        if looked.status_code == 503:
            refusals.append(f"{looked.json()['error']}: {looked.json()['message']}")
            return False
        assert looked.status_code == 200, looked.text
        mine = looked.json()
        assert mine["status"] == "active", mine
        if seat not in mine["to_move"]:
            continue
        action = mine["legal"][-1]
        response = player.post(f"/api/tables/{table_id}/actions", {"action": action, "version": mine["version"]})
        if response.status_code == 200:
            assert response.json()["version"] == mine["version"] + 1
            acknowledged.append((mine["version"], seat, action))
            return True
        assert response.status_code in (409, 503), response.text  # 409: a copy behind the owner, stale
        refusal = response.json()
        assert refusal["message"], refusal
        refusals.append(f"{refusal['error']}: {refusal['message']}")
        return False
    raise AssertionError("nobody is to move at a game under way")


def _health(server: Server) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/healthz", timeout=HANG_GUARD)
    assert answer.status_code == 200, answer.text  # the process answers, whatever else is away
    found: dict[str, Any] = answer.json()
    return found


def _play_on(players: dict[int, Player], table_id: str, acknowledged: list[tuple[int, int, str]], moves: int) -> None:
    """``moves`` more moves once things are back (each retried until acknowledged), each seen on both servers."""
    for _ in range(moves):
        refusals: list[str] = []
        _until(
            f"a move to be acknowledged again (refused: {refusals[-3:]})",
            lambda r=refusals: _try_move(players, table_id, acknowledged, r),
        )
        version = acknowledged[-1][0] + 1  # (a move refused in an outage may have been stored: below)
        for player in players.values():  # the mirror shows the owner's moves again
            _until(
                f"{player.name}'s server to show version {version}",
                lambda p=player, v=version: p.state(table_id)["version"] == v,
            )


@pytest.mark.skipif(not PG, reason="PostgreSQL is not reachable at 127.0.0.1:5432: the Redis outage drill did not run")
def test_servers_degrade_while_redis_is_away_and_recover_by_themselves(
    tmp_path: Path, database: str, redis: PrivateRedis
) -> None:
    first, second = _two_servers(tmp_path, database, redis.url)
    try:
        _redis_drill(first, second, database, redis.kill, redis.start)  # started again empty: no lease survived
    finally:
        second.stop()
        first.stop()


def _redis_drill(
    first: Server, second: Server, database: str, cut: Callable[[], None], heal: Callable[[], None]
) -> None:
    """Redis goes away (``cut``) mid-game and comes back (``heal``): degraded, clear refusals, then all recovers."""
    table_id, ann, bob = _table(first, second)
    players = {0: ann, 1: bob}  # each through their own server: Bob's moves are forwarded to the owner
    acknowledged: list[tuple[int, int, str]] = []
    _play_on(players, table_id, acknowledged, 4)
    assert _health(first) == _health(second) == {"status": "ok", "redis": "ok"}

    cut()
    for server in (first, second):
        _until(
            "/healthz to say Redis is unreachable",
            lambda s=server: _health(s) == {"status": "degraded", "redis": "unreachable"},
        )
    # The owner stops applying moves once its lease could have run out; the mirror cannot
    # reach the owner. Every attempt is acknowledged or clearly refused; the owner's
    # refusal must come.
    owner_side = {0: ann, 1: bob.through(first)}
    refusals: list[str] = []
    _until(
        "the owner to refuse a move without Redis",
        lambda: not _try_move(owner_side, table_id, acknowledged, refusals) and refusals[-1].startswith("degraded:"),
    )
    mirror_side = {0: ann.through(second), 1: bob}
    assert not _try_move(mirror_side, table_id, acknowledged, refusals)
    assert refusals[-1].startswith("degraded:"), refusals
    assert "Redis" in refusals[-1]
    assert _stored_moves(database, table_id) == acknowledged  # what was acknowledged meanwhile is stored

    heal()
    for server in (first, second):
        _until("/healthz to say Redis answers again", lambda s=server: _health(s) == {"status": "ok", "redis": "ok"})
    _play_on(players, table_id, acknowledged, 4)
    assert _stored_moves(database, table_id) == acknowledged  # nothing lost, nothing twice
    logs = first.log.read_text() + second.log.read_text()
    assert "Redis does not answer" in logs and "listening to the other servers again" in logs


def _pg_skip() -> str | None:
    if PG_BIN is None:
        return "initdb/pg_ctl are not installed: the PostgreSQL outage drill did not run"
    if _pg_user() is None:
        return "running as root without runuser or a nobody user to run initdb as: the PostgreSQL drill did not run"
    return None


@pytest.mark.skipif(_pg_skip() is not None, reason=_pg_skip() or "")
def test_servers_answer_503_while_postgresql_restarts_and_lose_no_move(tmp_path: Path, redis: PrivateRedis) -> None:
    postgres = PrivatePostgres()
    try:
        postgres.create()
        first, second = _two_servers(tmp_path, postgres.url, redis.url)
        try:
            _postgres_drill(first, second, postgres.url, [(postgres.stop, postgres.start)])
        finally:
            second.stop()
            first.stop()
    finally:
        postgres.remove()


#: How a move is refused while PostgreSQL is away, on the owner and on the mirror. The mirror
#: may stop waiting for the owner (``unanswered``, after the forwarding's 2 leases + 2 s)
#: before the owner's query gives up on a silent database (``PG_LINK``: about 5 s).
MOVE_REFUSED = (
    {("refused", 503, "database")},
    {("refused", 503, "database"), ("refused", 503, "unanswered")},
)


def _postgres_drill(
    first: Server, second: Server, database: str, outages: list[tuple[Callable[[], None], Callable[[], None]]]
) -> None:
    """PostgreSQL goes away (each outage's cut) mid-game and comes back (its heal): 503 ``database``, then play on."""
    table_id, ann, bob = _table(first, second)
    players = {0: ann, 1: bob}
    acknowledged: list[tuple[int, int, str]] = []
    _play_on(players, table_id, acknowledged, 4)
    for cut, heal in outages:
        attempted = _postgres_outage(players, first, second, table_id, acknowledged, cut, heal)
        # Nothing acknowledged lost, nothing twice. The one move tried during the outage
        # may have been stored though refused: on a silent link its commit can reach the
        # database after the link heals, when the server has long answered 503 (the
        # outcome of a write whose answer never came is unknown; the server forgets the
        # table and reads the database again, and the players see the move when they
        # read the table). The version guard lets it in once at most.
        stored = _stored_moves(database, table_id)
        extra = [move for move in stored if move not in acknowledged]
        assert extra in ([], [attempted]), (extra, attempted)
        assert stored == sorted([*acknowledged, *extra])
        acknowledged[:] = stored


def _postgres_outage(
    players: dict[int, Player],
    first: Server,
    second: Server,
    table_id: str,
    acknowledged: list[tuple[int, int, str]],
    cut: Callable[[], None],
    heal: Callable[[], None],
) -> tuple[int, int, str]:
    """One outage: moves refused with 503 during it, then played on once healed; the move tried during it."""
    ann, bob = players[0], players[1]
    # Sockets of the seat to move, on the owner and on the mirror (whose moves go to the
    # owner): a move on either during the outage is refused with 503, and the socket stays.
    owner_side = {0: ann, 1: bob.through(first)}
    mirror_side = {0: ann.through(second), 1: bob}
    now = ann.state(table_id)
    seat = now["to_move"][0]
    action = owner_side[seat].state(table_id)["legal"][-1]
    with contextlib.ExitStack() as stack:
        sockets = []
        for server, side in ((first, owner_side), (second, mirror_side)):
            url = f"ws://{httpx.URL(server.url).host}:{server.port}/ws/tables/{table_id}"
            cookie = {"Cookie": side[seat].cookie()}
            socket = stack.enter_context(connect(url, additional_headers=cookie, open_timeout=HANG_GUARD))
            assert json.loads(socket.recv(timeout=HANG_GUARD))["type"] == "snapshot"
            sockets.append(socket)
        cut()
        for index, socket in enumerate(sockets):
            socket.send(json.dumps({"type": "act", "action": action, "version": now["version"], "id": index}))
            answer = json.loads(socket.recv(timeout=HANG_GUARD))
            while answer.get("id") != index:  # (anything else the socket is sent first)
                answer = json.loads(socket.recv(timeout=HANG_GUARD))
            assert (answer["type"], answer["status"], answer["error"]) in MOVE_REFUSED[index], answer
    # Through the owner and through the mirror: refused with 503 (the database), never 500.
    for index, side in enumerate((owner_side, mirror_side)):
        refusals: list[str] = []
        assert not _try_move(side, table_id, acknowledged, refusals)
        assert refusals[-1].split(":")[0] in {error for _, _, error in MOVE_REFUSED[index]}, refusals
    assert _health(first)["redis"] == "ok"  # the process answers, Redis is fine

    heal()
    _play_on(players, table_id, acknowledged, 4)
    return (now["version"], seat, action)
