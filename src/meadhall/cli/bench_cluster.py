"""The services behind ``meadhall bench-server --postgres`` and ``--cluster N``, and their CPU.

``--postgres``: one server on a fresh PostgreSQL database of its own (dropped at the end),
no Redis, measured directly. ``--cluster N``: N servers on a fresh PostgreSQL database and
the Redis, behind HAProxy running deploy/haproxy.cfg with its ``bind`` and ``server``
lines set to free ports (as tests/server/test_front_door.py runs it); the load goes
through HAProxy. Around the measured window it reads the CPU time each part used: the
servers' and HAProxy's from ``/proc``, Redis's from ``INFO cpu``, PostgreSQL's backends of
the database from ``/proc`` and its commits from ``pg_stat_database``, so that each can be
given per move. Redis and PostgreSQL are shared services: what else uses them in the
window is counted too (the figures say so).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from meadhall.extras import require

JOB = "meadhall bench-server"
HAPROXY_CONFIG = Path(__file__).resolve().parents[3] / "deploy" / "haproxy.cfg"
BENCH_ENV = {
    "MEADHALL_LOGIN_RATE": "100000",
    "MEADHALL_LOG_LEVEL": "warning",
    "MEADHALL_COOKIE_SECURE": "false",
    # every simulated player comes from this machine's address, as fast as it can
    "MEADHALL_WS_MESSAGE_RATE": "100000/second",
    "MEADHALL_WS_PER_ADDRESS": "100000",
}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of process ``pid`` so far, all its threads (Linux ``/proc``; ``None`` elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def haproxy_path() -> str | None:
    """The haproxy executable, if installed."""
    return shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if Path(p).is_file()), None
    )


def front_door_config(config: str, front: int, servers: list[int]) -> str:
    """deploy/haproxy.cfg listening on ``front``, for the servers on ``servers``."""
    config = re.sub(r"(?m)^(\s*)bind \S+$", rf"\g<1>bind 127.0.0.1:{front}", config, count=1)
    config = re.sub(r"(?m)^\s*server .*\n", "", config)
    # HAProxy's access log (one line per request, to stdout) is not part of the load measured.
    config = re.sub(r"(?m)^\s*option httplog\n", "", config)
    lines = "".join(f"    server meadhall{i} 127.0.0.1:{port}\n" for i, port in enumerate(servers, 1))
    return config.rstrip("\n") + "\n" + lines


def redis_cpu(url: str) -> float | None:
    """Redis's own CPU seconds so far (``INFO cpu``: user plus system of the main process)."""
    match = re.match(r"redis://(?:[^@/]*@)?([^:/]+)(?::(\d+))?", url)
    if not match:
        return None
    try:
        with socket.create_connection((match[1], int(match[2] or 6379)), timeout=5) as connection:
            connection.sendall(b"*2\r\n$4\r\nINFO\r\n$3\r\ncpu\r\n")
            data = b""
            while b"used_cpu_user:" not in data or not data.endswith(b"\r\n"):
                chunk = connection.recv(65536)
                if not chunk:
                    break
                data += chunk
    except OSError:
        return None
    found = dict(re.findall(r"(used_cpu_(?:user|sys)):([\d.]+)", data.decode("ascii", "replace")))
    if "used_cpu_user" not in found:
        return None
    return float(found["used_cpu_user"]) + float(found.get("used_cpu_sys", 0))


class Postgres:
    """A fresh database of its own on a PostgreSQL server, dropped by :meth:`drop`."""

    def __init__(self, admin_url: str) -> None:
        self.psycopg = require("psycopg", "postgres", JOB)
        self.admin = admin_url.replace("+psycopg", "")
        self.name = f"meadhall_bench_{secrets.token_hex(4)}"
        with self.psycopg.connect(self.admin, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f'CREATE DATABASE "{self.name}"')
        base = admin_url if "+psycopg" in admin_url else admin_url.replace("postgresql://", "postgresql+psycopg://", 1)
        self.url = base.rsplit("/", 1)[0] + f"/{self.name}"

    def counters(self) -> tuple[int, dict[int, float]]:
        """Commits of the database so far, and the CPU seconds of each backend connected to it now."""
        with self.psycopg.connect(self.admin, autocommit=True) as connection:
            commits = connection.execute(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = %s", (self.name,)
            ).fetchone()
            pids = connection.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.name,)).fetchall()
        backends = {int(pid): cpu for (pid,) in pids if (cpu := cpu_seconds(int(pid))) is not None}
        return int(commits[0]) if commits else 0, backends

    def drop(self) -> None:
        """Drop the database (its connections closed first)."""
        with self.psycopg.connect(self.admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def table_messages(url: str) -> int | None:
    """How many tables' messages a server of several has heard from Redis (its ``/metrics``; None: not said)."""
    import urllib.request

    try:
        with urllib.request.urlopen(f"{url}/metrics", timeout=10) as response:
            text = response.read().decode()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("meadhall_cluster_table_messages_total "):
            return int(float(line.split()[1]))
    return None


def start_server(data: Path, port: int, extra_env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """Start ``meadhall serve`` on ``port`` with its data in ``data`` (not waiting for it)."""
    env = {**os.environ, **BENCH_ENV, **(extra_env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "meadhall.cli.main", "serve", "--port", str(port), "--data-dir", str(data)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def wait_ready(url: str, process: subprocess.Popen[Any], get: Any, seconds: float = 120) -> None:
    """Wait until ``url/readyz`` answers 200 (``SystemExit`` if the process dies or time runs out)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if get(f"{url}/readyz") == 200:
            return
        time.sleep(0.02)
    raise SystemExit(f"{JOB}: {url} did not become ready")


class Cluster:
    """The servers (and for a cluster Redis and HAProxy) of one run, and their CPU over the window."""

    def __init__(
        self, folder: Path, servers: int, proxy: bool, admin_url: str, redis_url: str | None, get: Any
    ) -> None:
        self.processes: list[subprocess.Popen[bytes]] = []
        self.proxy: subprocess.Popen[bytes] | None = None
        self.redis_url = redis_url
        self.database = Postgres(admin_url)
        self.cpu: list[dict[str, Any]] = []
        self.ports: list[int] = []
        try:
            env = {"MEADHALL_DATABASE_URL": self.database.url, "MEADHALL_SECRET_KEY": secrets.token_hex(32)}
            if redis_url:
                env["MEADHALL_REDIS_URL"] = redis_url
            ports = self.ports
            for index in range(servers):
                port = free_port()
                process = start_server(folder / f"server{index}", port, env)
                self.processes.append(process)
                wait_ready(f"http://127.0.0.1:{port}", process, get)  # the first makes the schema
                ports.append(port)
            self.url = f"http://127.0.0.1:{ports[0]}"
            if proxy:
                self._start_proxy(folder, ports, get)
        except BaseException:
            self.stop()
            raise

    def _start_proxy(self, folder: Path, ports: list[int], get: Any) -> None:
        haproxy = haproxy_path()
        if haproxy is None:
            raise SystemExit(f"{JOB}: --cluster needs haproxy (apt-get install haproxy)")
        front = free_port()
        config = folder / "haproxy.cfg"
        config.write_text(front_door_config(HAPROXY_CONFIG.read_text(), front, ports), encoding="utf-8")
        self.proxy = subprocess.Popen(
            [haproxy, "-db", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.url = f"http://127.0.0.1:{front}"
        # Ready when every server is up behind it (its health checks, two a second apart).
        deadline = time.monotonic() + 60
        answering = 0
        while answering < 10:
            if time.monotonic() > deadline or self.proxy.poll() is not None:
                raise SystemExit(f"{JOB}: HAProxy did not carry requests to the servers")
            answering = answering + 1 if get(f"{self.url}/readyz") == 200 else 0
            time.sleep(0.3 if answering == 1 else 0.05)

    def __call__(self, opening: bool) -> None:
        """Read every part's CPU counters as the window opens or closes."""
        commits, backends = self.database.counters()
        self.cpu.append(
            {
                "servers": [cpu_seconds(p.pid) for p in self.processes],
                "proxy": cpu_seconds(self.proxy.pid) if self.proxy else None,
                "redis": redis_cpu(self.redis_url) if self.redis_url else None,
                "commits": commits,
                "backends": backends,
                "heard": [table_messages(f"http://127.0.0.1:{port}") for port in self.ports] if self.redis_url else [],
            }
        )

    def figures(self, moves: int, seconds: float) -> dict[str, Any]:
        """Each part's CPU per move and share of a core over the window; PostgreSQL's commits per move.

        With Redis, also the tables' messages each server heard per move (``/metrics``).
        """
        if len(self.cpu) != 2 or seconds <= 0:
            return {}
        before, after = self.cpu
        out: dict[str, Any] = {"servers": len(self.processes), "proxy": self.proxy is not None}
        parts: dict[str, float] = {}
        if None not in before["servers"] and None not in after["servers"]:
            parts["server"] = sum(after["servers"]) - sum(before["servers"])
            out["server_cpu_ms_per_move_each"] = [
                round(1000 * (b - a) / moves, 3) if moves else None
                for a, b in zip(before["servers"], after["servers"], strict=True)
            ]
        if before["proxy"] is not None and after["proxy"] is not None:
            parts["proxy"] = after["proxy"] - before["proxy"]
        if before["redis"] is not None and after["redis"] is not None:
            parts["redis"] = after["redis"] - before["redis"]
        # Backends that were there at both ends; one that came meanwhile counts from zero.
        parts["postgres"] = sum(cpu - before["backends"].get(pid, 0.0) for pid, cpu in after["backends"].items())
        for name, used in parts.items():
            out[f"{name}_cpu_share"] = round(used / seconds, 3)
            if moves:
                out[f"{name}_cpu_ms_per_move"] = round(1000 * used / moves, 3)
        pairs = zip(before["heard"], after["heard"], strict=True)
        heard = [None if a is None or b is None else b - a for a, b in pairs]
        if moves and heard and None not in heard:  # what each server heard of the tables (servers that say it)
            out["table_messages_per_move_each"] = [round(h / moves, 2) for h in heard if h is not None]
        commits = after["commits"] - before["commits"]
        out["postgres_commits_per_s"] = round(commits / seconds, 1)
        if moves:
            out["postgres_commits_per_move"] = round(commits / moves, 3)
            server = parts.get("server")
            out["server_moves_per_cpu_second"] = round(moves / server, 1) if server else None
        return out

    def stop(self) -> None:
        """Stop HAProxy and the servers, then drop the database."""
        for process in [*([self.proxy] if self.proxy else []), *self.processes]:
            stop_process(process)
        self.database.drop()


def stop_process(process: subprocess.Popen[Any]) -> None:
    """Stop a process as a supervisor would: SIGTERM, then SIGKILL if it is still there after 30 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
