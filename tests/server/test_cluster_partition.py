"""Two real servers on separate network namespaces; the owner of a table is cut off the network, then healed.

The partition drill of docs/deploy.md ("Several servers"). The test builds the network
itself (it runs as root): two namespaces, one per server, each with two veth links to
the root namespace:

- a *back* link into a bridge of the root namespace, where a private ``redis-server``
  and a private PostgreSQL cluster (``initdb``/``pg_ctl``, as in the outage drills)
  listen on the bridge's address: the servers reach Redis, the database and so each
  other only across it;
- a *front* link of its own (as a proxy would reach it), over which the test plays.

Cutting the owner's back link (``ip link set ... down`` on the bridge's side: its packets
are dropped silently, as on a real partition) leaves it alone with its clients: it must
stop acknowledging moves once its lease may have run out (503 ``degraded``), while the
other server takes the table over when the lease expires and plays on. After the link
comes back the old owner finds its lease gone, becomes a mirror and shows the
survivor's moves, and the game goes on through both. Checked: the lease names one owner,
the database's moves are exactly the acknowledged ones (each version once), nothing
refused with anything but a clear 503 (or 409, stale). No durations are asserted.

Skipped, saying why, when not root, without ``ip netns``, ``redis-server`` or
``initdb``/``pg_ctl``. Everything made (namespaces, links, bridge, processes, the
database folder) is removed in ``finally`` blocks, even on failure.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.server.test_cluster_outage import (
    PG_BIN,
    REDIS_SERVER,
    PrivatePostgres,
    PrivateRedis,
    _health,
    _pg_user,
    _play_on,
    _table,
    _try_move,
)
from tests.server.test_cluster_service import HANG_GUARD, Server, _lease_holder, _stored_moves, _until

IP = shutil.which("ip") or ("/usr/sbin/ip" if Path("/usr/sbin/ip").exists() else None)


def _netns_skip() -> str | None:
    if os.name != "posix" or os.geteuid() != 0:
        return "the partition drill makes network namespaces: it needs root"
    if IP is None:
        return "the `ip` command (iproute2) is not installed: the partition drill did not run"
    if REDIS_SERVER is None:
        return "redis-server is not installed: the partition drill did not run"
    if PG_BIN is None or _pg_user() is None:
        return "initdb/pg_ctl (or a user to run them as) are missing: the partition drill did not run"
    probe = f"mhprobe{secrets.token_hex(3)}"
    made = subprocess.run([IP, "netns", "add", probe], capture_output=True, check=False)
    if made.returncode != 0:
        return f"`ip netns add` does not work here ({made.stderr.decode().strip()}): the partition drill did not run"
    subprocess.run([IP, "netns", "delete", probe], capture_output=True, check=False)
    return None


_SKIP = _netns_skip()
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")


def _free_subnet() -> int:
    """A second octet S such that no route of this machine is in 10.S.0.0/16 (the drill's addresses)."""
    assert IP is not None
    routes = subprocess.run([IP, "-4", "route", "show", "table", "all"], capture_output=True, check=False)
    taken = routes.stdout.decode()
    for _ in range(100):
        subnet = 100 + secrets.randbelow(150)
        if f"10.{subnet}." not in taken:
            return subnet
    raise AssertionError("no free 10.S.0.0/16 for the drill's network")


@dataclass
class Network:
    """The drill's network: a bridge (the back network) and, per host, a namespace with a back and a front link."""

    tag: str = field(default_factory=lambda: secrets.token_hex(2))
    subnet: int = field(default_factory=_free_subnet)
    made: list[list[str]] = field(default_factory=list)  # the commands that undo what was made, last first

    def ip(self, *args: str) -> None:
        assert IP is not None
        done = subprocess.run([IP, *args], capture_output=True, timeout=HANG_GUARD, check=False)
        assert done.returncode == 0, f"ip {' '.join(args)}: {done.stderr.decode()}"

    @property
    def bridge(self) -> str:
        return f"mh{self.tag}br"

    @property
    def back_address(self) -> str:
        """Where Redis and PostgreSQL listen: the bridge's address in the root namespace."""
        return f"10.{self.subnet}.0.1"

    def make_bridge(self) -> None:
        self.ip("link", "add", self.bridge, "type", "bridge")
        self.made.append(["link", "delete", self.bridge])
        self.ip("addr", "add", f"{self.back_address}/24", "dev", self.bridge)
        self.ip("link", "set", self.bridge, "up")

    def make_host(self, index: int) -> str:
        """A namespace with its back link (10.S.0.10+i on the bridge) and its front link (10.S.i.2); its name."""
        namespace = f"mh{self.tag}h{index}"
        self.ip("netns", "add", namespace)
        self.made.append(["netns", "delete", namespace])  # (deleting it deletes its links too)
        self.ip("netns", "exec", namespace, "ip", "link", "set", "lo", "up")
        back, front = self.back_link(index), f"mh{self.tag}f{index}"
        for outside, address, inside_address in (
            (back, None, f"10.{self.subnet}.0.{10 + index}/24"),
            (front, f"10.{self.subnet}.{index}.1/24", f"10.{self.subnet}.{index}.2/24"),
        ):
            self.ip("link", "add", outside, "type", "veth", "peer", "name", outside + "p")
            self.made.append(["link", "delete", outside])
            self.ip("link", "set", outside + "p", "netns", namespace)
            if address is None:
                self.ip("link", "set", outside, "master", self.bridge)
            else:
                self.ip("addr", "add", address, "dev", outside)
            self.ip("link", "set", outside, "up")
            inside = ["netns", "exec", namespace, "ip"]
            self.ip(*inside, "addr", "add", inside_address, "dev", outside + "p")
            self.ip(*inside, "link", "set", outside + "p", "up")
        return namespace

    def back_link(self, index: int) -> str:
        return f"mh{self.tag}b{index}"

    def front_address(self, index: int) -> str:
        return f"10.{self.subnet}.{index}.2"

    def remove(self) -> None:
        assert IP is not None
        for undo in reversed(self.made):
            subprocess.run([IP, *undo], capture_output=True, timeout=HANG_GUARD, check=False)


@pytest.fixture
def network() -> Iterator[Network]:
    made = Network()
    try:
        made.make_bridge()
        yield made
    finally:
        made.remove()


def test_a_cut_off_owner_stops_the_other_takes_over_and_the_healed_one_mirrors(
    tmp_path: Path, network: Network
) -> None:
    hosts = [network.make_host(index) for index in (1, 2)]
    redis = PrivateRedis(tmp_path / "redis.log", host=network.back_address)
    postgres = PrivatePostgres(host=network.back_address)
    servers: list[Server] = []
    try:
        redis.start()
        postgres.create()
        secret = secrets.token_hex(32)
        for index, (host, name) in enumerate(zip(hosts, ("first", "second"), strict=True), start=1):
            server = Server(
                tmp_path, name, postgres.url, secret, redis.url,
                within=[str(IP), "netns", "exec", host], host=network.front_address(index),
            )  # fmt: skip
            servers.append(server)
            server.wait_ready()  # the first makes the schema
        _partition_drill(network, servers[0], servers[1], postgres, redis)
    finally:
        for server in reversed(servers):
            server.process.kill()  # (a server cut off would wait on its database to stop cleanly)
            server.process.wait(timeout=HANG_GUARD)
        postgres.remove()
        redis.kill()


def _partition_drill(
    network: Network, first: Server, second: Server, postgres: PrivatePostgres, redis: PrivateRedis
) -> None:
    where = (redis.host, redis.port)
    table_id, ann, bob = _table(first, second)
    assert _lease_holder(table_id, where) == first.node  # the server that started the table runs it
    players = {0: ann, 1: bob}  # each through their own server: Bob's moves are forwarded to the owner
    acknowledged: list[tuple[int, int, str]] = []
    _play_on(players, table_id, acknowledged, 4)
    owner_side = {0: ann, 1: bob.through(first)}
    owner_side[1].state(table_id)  # Bob has looked at the owner too (his session is known there)

    network.ip("link", "set", network.back_link(1), "down")  # the owner is cut off: Redis, the database, the other
    try:
        # A move reaching the other server at once is forwarded to the owner, which does not
        # hear it: refused (503 unanswered), or played there if the lease ran out meanwhile;
        # never played twice, even once the owner hears the request after the healing.
        survivor_side = {0: ann.through(second), 1: bob}
        _try_move(survivor_side, table_id, acknowledged, [])
        # The owner, reached by its clients still, refuses once its lease may have run out.
        refusals: list[str] = []
        _until(
            "the cut-off owner to refuse a move",
            lambda: (
                not _try_move(owner_side, table_id, acknowledged, refusals) and refusals[-1].startswith("degraded:")
            ),
        )
        assert _health(first) == {"status": "degraded", "redis": "unreachable"}
        # The other server takes the table over once the lease has expired, and plays on.
        _until("the other server to take the table over", lambda: _lease_holder(table_id, where) == second.node)
        _play_on(survivor_side, table_id, acknowledged, 4)
        assert not _try_move(owner_side, table_id, acknowledged, refusals)  # still cut off: still refused
        assert refusals[-1].startswith("degraded:"), refusals
    finally:
        network.ip("link", "set", network.back_link(1), "up")

    # Healed: the old owner finds its lease gone, mirrors the table and shows the survivor's moves.
    _until("the healed server to answer Redis again", lambda: _health(first) == {"status": "ok", "redis": "ok"})
    _until(
        "the healed server to show the survivor's moves",
        lambda: ann.state(table_id)["version"] == len(acknowledged),
    )
    assert _lease_holder(table_id, where) == second.node  # one owner: the survivor
    _play_on(players, table_id, acknowledged, 4)  # through both servers again
    assert _lease_holder(table_id, where) == second.node
    stored = _stored_moves(postgres.url, table_id)
    assert stored == acknowledged  # nothing lost, nothing applied twice
    assert [version for version, _, _ in stored] == list(range(len(stored)))  # each version once
    assert "its lease was lost; mirrored here" in first.log.read_text()
    assert "took over table" in second.log.read_text()
    for server in (first, second):  # both still answer
        assert httpx.get(f"{server.url}/readyz", timeout=HANG_GUARD).status_code == 200
