"""Hosts of the drills' own: network namespaces joined by veth links, made and removed by the test.

The drills that need traffic to cross a real network (docs/deploy.md, "Several
servers") build it with ``ip`` (they run as root): a bridge in the root namespace (the
*back* network, address 10.S.0.1, S random and free on this machine) and, per host, a
namespace with

- a *back* veth link into the bridge (10.S.0.10+i): the servers reach Redis, the
  database and so each other only across it; cutting it (``ip link set ... down`` on the
  bridge's side) drops the host's packets silently, as on a real partition;
- for a server, a *front* link of its own (10.S.i.2, the root namespace at 10.S.i.1),
  over which the test, or a proxy in the root namespace, reaches it.

A service (Redis, PostgreSQL) runs on a host of its own without a front link, started
with the ``within`` prefix (``ip netns exec NS``); the root namespace reaches it across
the bridge. :func:`cluster_on_hosts` sets up a whole cluster so: a private
``redis-server`` and a private PostgreSQL cluster (``initdb``/``pg_ctl``), each on its
host, and servers on hosts 1, 2, ... Everything made is undone by :meth:`Network.remove`, last first, even after a
failure.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.network_lock import root_network
from tests.server.test_cluster_outage import PG_BIN, REDIS_SERVER, PrivatePostgres, PrivateRedis, _pg_user
from tests.server.test_cluster_service import HANG_GUARD, Server

IP = shutil.which("ip") or ("/usr/sbin/ip" if Path("/usr/sbin/ip").exists() else None)


def netns_skip(drill: str) -> str | None:
    """Why ``drill`` cannot make its hosts here (not root, no ``ip netns``, no Redis or PostgreSQL to run), or None."""
    if os.name != "posix" or os.geteuid() != 0:
        return f"{drill} makes network namespaces: it needs root"
    if IP is None:
        return f"the `ip` command (iproute2) is not installed: {drill} did not run"
    if REDIS_SERVER is None:
        return f"redis-server is not installed: {drill} did not run"
    if PG_BIN is None or _pg_user() is None:
        return f"initdb/pg_ctl (or a user to run them as) are missing: {drill} did not run"
    probe = f"mhprobe{secrets.token_hex(3)}"
    made = subprocess.run([IP, "netns", "add", probe], capture_output=True, check=False)
    if made.returncode != 0:
        return f"`ip netns add` does not work here ({made.stderr.decode().strip()}): {drill} did not run"
    subprocess.run([IP, "netns", "delete", probe], capture_output=True, check=False)
    return None


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
        """Run ``ip ARGS``; it must succeed."""
        assert IP is not None
        done = subprocess.run([IP, *args], capture_output=True, timeout=HANG_GUARD, check=False)
        assert done.returncode == 0, f"ip {' '.join(args)}: {done.stderr.decode()}"

    @property
    def bridge(self) -> str:
        """The bridge's name (the back network)."""
        return f"mh{self.tag}br"

    @property
    def back_address(self) -> str:
        """The root namespace's address on the back network (the bridge's)."""
        return f"10.{self.subnet}.0.1"

    def make_bridge(self) -> None:
        """The back network: a bridge in the root namespace, at :attr:`back_address`."""
        self.ip("link", "add", self.bridge, "type", "bridge")
        self.made.append(["link", "delete", self.bridge])
        self.ip("addr", "add", f"{self.back_address}/24", "dev", self.bridge)
        self.ip("link", "set", self.bridge, "up")

    def namespace(self, index: int) -> str:
        """Host ``index``'s namespace."""
        return f"mh{self.tag}h{index}"

    def within(self, index: int) -> list[str]:
        """The command prefix that runs a program on host ``index``."""
        return [str(IP), "netns", "exec", self.namespace(index)]

    def make_host(self, index: int, *, front: bool = True) -> str:
        """Host ``index``: a namespace with its back link and (``front``) its front link; the namespace's name."""
        namespace = self.namespace(index)
        self.ip("netns", "add", namespace)
        self.made.append(["netns", "delete", namespace])  # (deleting it deletes its links too)
        self.ip("netns", "exec", namespace, "ip", "link", "set", "lo", "up")
        links: list[tuple[str, str | None, str]] = [(self.back_link(index), None, f"{self.host_address(index)}/24")]
        if front:
            links.append((f"mh{self.tag}f{index}", f"10.{self.subnet}.{index}.1/24", f"{self.front_address(index)}/24"))
        for outside, address, inside_address in links:
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
        """The bridge's side of host ``index``'s back link."""
        return f"mh{self.tag}b{index}"

    def host_address(self, index: int) -> str:
        """Host ``index``'s address on the back network."""
        return f"10.{self.subnet}.0.{10 + index}"

    def front_address(self, index: int) -> str:
        """Host ``index``'s address on its front link."""
        return f"10.{self.subnet}.{index}.2"

    def cut(self, index: int) -> None:
        """Cut host ``index`` off the back network: its packets vanish, nothing is refused."""
        self.ip("link", "set", self.back_link(index), "down")

    def heal(self, index: int) -> None:
        """Join host ``index`` to the back network again."""
        self.ip("link", "set", self.back_link(index), "up")

    def remove(self) -> None:
        """Undo everything made, last first (failures ignored: this runs after failures too)."""
        assert IP is not None
        for undo in reversed(self.made):
            subprocess.run([IP, *undo], capture_output=True, timeout=HANG_GUARD, check=False)


@pytest.fixture
def network() -> Iterator[Network]:
    """A fresh back network (its bridge made); hosts are added by the test, all removed at the end."""
    with root_network(changes=True):  # no browser runs while the root namespace's links change
        made = Network()
        try:
            made.make_bridge()
            yield made
        finally:
            made.remove()


#: The hosts of the cluster's Redis and PostgreSQL (the servers are hosts 1, 2, ...).
REDIS_HOST, POSTGRES_HOST = 8, 9


@dataclass
class Cluster:
    """A cluster on hosts of its own: its network, Redis, PostgreSQL and servers (server i on host i + 1)."""

    network: Network
    redis: PrivateRedis
    postgres: PrivatePostgres
    servers: list[Server]


@contextlib.contextmanager
def cluster_on_hosts(tmp: Path, network: Network, count: int = 2) -> Iterator[Cluster]:
    """Redis, PostgreSQL and ``count`` ready servers, each on a host of its own; all stopped at the end."""
    network.make_host(REDIS_HOST, front=False)
    network.make_host(POSTGRES_HOST, front=False)
    for index in range(1, count + 1):
        network.make_host(index)
    redis = PrivateRedis(tmp / "redis.log", host=network.host_address(REDIS_HOST), within=network.within(REDIS_HOST))
    postgres = PrivatePostgres(host=network.host_address(POSTGRES_HOST), within=network.within(POSTGRES_HOST))
    servers: list[Server] = []
    try:
        redis.start()
        postgres.create()
        secret = secrets.token_hex(32)
        for index in range(1, count + 1):
            server = Server(
                tmp, f"server{index}", postgres.url, secret, redis.url,
                within=network.within(index), host=network.front_address(index),
            )  # fmt: skip
            servers.append(server)
            server.wait_ready()  # the first makes the schema
        yield Cluster(network, redis, postgres, servers)
    finally:
        for server in reversed(servers):
            server.process.kill()  # (a server cut off would wait on its database to stop cleanly)
            server.process.wait(timeout=HANG_GUARD)
        postgres.remove()
        redis.kill()
