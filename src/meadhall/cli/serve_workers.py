"""``meadhall serve --workers N``: N server processes on one host behind one address.

How (docs/deploy.md, "Several servers on one host"): this process, the *supervisor*, binds
the listening socket once and starts N ``meadhall serve`` processes that inherit it. The
kernel hands each new connection to whichever worker accepts it first, so one address
serves them all without a proxy, and a dead worker simply stops taking connections: none
is queued for it (as it would be with ``SO_REUSEPORT``, one queue per process). Each
worker is a server of its own, a cluster node with its own id on the same database and
the same Redis (``redis_url``): a table is run by one of them and mirrored by the others
exactly as across hosts.

Before any worker starts, the supervisor brings the database to the newest schema (so N
workers never race to migrate an empty one) and settles the secret key every worker
signs with. It restarts a worker that dies (waiting a little longer each time one dies
young, so a broken configuration does not spin), and on Ctrl-C or SIGTERM stops them all
(SIGTERM, then SIGKILL after ``STOP_GRACE`` seconds) and exits.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

from meadhall.server.settings import Settings

#: Seconds a worker gets to stop cleanly (hand its tables back) before it is killed.
STOP_GRACE = 30.0
#: A worker that dies sooner than this after its start died young: the next restart waits.
YOUNG = 10.0
#: The longest wait before restarting a worker that keeps dying young.
MOST_BACKOFF = 30.0


def refusal(settings: Settings, workers: int) -> str | None:
    """Why ``--workers`` cannot run with these settings (None: it can)."""
    if workers < 1:
        return "--workers must be at least 1"
    if workers == 1:
        return None
    if not settings.redis_url:
        return (
            f"--workers {workers} needs redis_url (MEADHALL_REDIS_URL): the workers share tables through Redis; "
            "see docs/deploy.md, 'Several servers'"
        )
    if settings.sqlalchemy_url.startswith("sqlite"):
        return (
            f"--workers {workers} needs a PostgreSQL database_url (MEADHALL_DATABASE_URL), not the embedded "
            "SQLite: every worker writes to one database; see docs/deploy.md, 'Several servers'"
        )
    return None


def listen(host: str, port: int) -> socket.socket:
    """The one listening socket every worker inherits."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


class Supervisor:
    """N worker processes on one inherited socket: started, restarted when they die, stopped together."""

    def __init__(self, settings: Settings, workers: int, passed: list[str]) -> None:
        self.settings = settings
        self.count = workers
        self.passed = passed  # the command line's own options, handed on to every worker
        self.sock: socket.socket | None = None
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * workers
        self.started: list[float] = [0.0] * workers
        self.deaths: list[int] = [0] * workers  # young deaths in a row, for the backoff
        self.due: list[float] = [0.0] * workers  # when a dead worker may start again
        self.stopping = False

    def prepare(self) -> str | None:
        """Reach Redis, migrate the database and settle the secret key, once, before any worker starts.

        What went wrong, in words (None: all is well): a worker could not start either, and
        restarting it forever would not help.
        """
        import asyncio

        from sqlalchemy.exc import SQLAlchemyError

        from meadhall.server.cluster import Cluster
        from meadhall.server.db import make_engine
        from meadhall.server.migrate import upgrade

        async def ping() -> None:
            cluster = Cluster(
                self.settings.redis_url, self.settings.cluster_lease_ms, prefix=self.settings.redis_prefix
            )
            await asyncio.wait_for(cluster.redis.ping(), 10)

        try:
            asyncio.run(ping())
        except (OSError, TimeoutError) as error:
            return f"cannot reach Redis at {self.settings.redis_url}: {error}"
        except Exception as error:  # coredis' own connection errors are not OSErrors
            return f"cannot reach Redis at {self.settings.redis_url}: {type(error).__name__}: {error}"
        engine = make_engine(self.settings.sqlalchemy_url)
        try:
            upgrade(engine)
        except SQLAlchemyError as error:
            return f"cannot prepare the database: {type(error).__name__}: {str(error).splitlines()[0]}"
        finally:
            engine.dispose()
        self.settings.ensure_secret()
        return None

    def spawn(self, index: int) -> None:
        """Start worker ``index`` on the shared socket."""
        assert self.sock is not None
        fd = self.sock.fileno()
        env = {**os.environ, "MEADHALL_SECRET_KEY": self.settings.ensure_secret()}
        command = [sys.executable, "-m", "meadhall.cli.main", "serve", *self.passed]
        command += ["--worker-fd", str(fd), "--worker-index", str(index)]
        # A process group of its own: Ctrl-C in a terminal reaches the whole foreground group,
        # and a worker told to stop twice (by the terminal, then by the supervisor) would skip
        # its clean shutdown, where it hands its tables back. The supervisor alone tells it.
        self.processes[index] = subprocess.Popen(command, env=env, pass_fds=(fd,), process_group=0)
        self.started[index] = time.monotonic()

    def _stop_signal(self, signum: int, frame: Any) -> None:
        self.stopping = True

    def run(self) -> int:
        """Serve until Ctrl-C or SIGTERM; the exit status."""
        trouble = self.prepare()
        if trouble:
            print(f"meadhall serve: {trouble}", file=sys.stderr)
            return 2
        self.sock = listen(self.settings.host, self.settings.port)
        host, port = self.sock.getsockname()[:2]
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        previous = {s: signal.signal(s, self._stop_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            for index in range(self.count):
                self.spawn(index)
            print(
                f"meadhall serve: {self.count} workers on http://{shown}:{port}/ "
                f"(pids {', '.join(str(p.pid) for p in self.processes if p)}; Ctrl-C stops them all)",
                flush=True,
            )
            while not self.stopping:
                self.watch()
                time.sleep(0.2)
        finally:
            self.stop()
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            self.sock.close()
        return 0

    def watch(self) -> None:
        """Restart every worker found dead (after its backoff, when it died young)."""
        now = time.monotonic()
        for index, process in enumerate(self.processes):
            if process is not None and process.poll() is None:
                continue
            if process is not None:  # just found dead
                young = now - self.started[index] < YOUNG
                self.deaths[index] = self.deaths[index] + 1 if young else 0
                wait = min(MOST_BACKOFF, 0.5 * 2 ** (self.deaths[index] - 1)) if young else 0.0
                self.due[index] = now + wait
                print(
                    f"meadhall serve: worker {index} (pid {process.pid}) exited with {process.returncode}; "
                    f"starting it again in {wait:.1f} s",
                    file=sys.stderr,
                    flush=True,
                )
                self.processes[index] = None
            if now >= self.due[index]:
                self.spawn(index)

    def stop(self) -> None:
        """SIGTERM every worker, then SIGKILL those still running after ``STOP_GRACE``."""
        running = [p for p in self.processes if p is not None and p.poll() is None]
        for process in running:
            process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE
        for process in running:
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
