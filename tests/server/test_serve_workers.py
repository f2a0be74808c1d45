"""``meadhall serve --workers N``: N servers on one address, a supervisor that restarts and stops them.

The refusals need nothing; the drill runs two real workers on a fresh PostgreSQL
database and the real Redis (skipped, saying so, when either is missing).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.server import test_cluster_service as drill
from tests.server.conftest import PG, PG_ADMIN, free_port
from tests.server.test_cluster import REDIS

HANG_GUARD = drill.HANG_GUARD

database = drill.database  # a fresh PostgreSQL database of the test's own


def _env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEADHALL_")}
    return {**env, **{f"MEADHALL_{k.upper()}": v for k, v in settings.items()}}


def _serve(tmp: Path, *extra: str, **settings: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "meadhall.cli.main", "serve", "--data-dir", str(tmp / "data"), *extra]
    return subprocess.run(command, env=_env(**settings), capture_output=True, text=True, timeout=HANG_GUARD)


@pytest.mark.parametrize(
    ("extra", "settings", "said"),
    [
        (("--workers", "2"), {}, "--workers 2 needs redis_url"),
        (("--workers", "3"), {"redis_url": "redis://127.0.0.1:6379"}, "--workers 3 needs a PostgreSQL database_url"),
        (("--workers", "0"), {}, "--workers must be at least 1"),
    ],
)
def test_workers_without_what_they_share_are_refused_in_words(
    tmp_path: Path, extra: tuple[str, ...], settings: dict[str, str], said: str
) -> None:
    done = _serve(tmp_path, *extra, **settings)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr
    assert "Traceback" not in done.stderr


def test_workers_that_cannot_reach_redis_are_refused_before_any_starts(tmp_path: Path) -> None:
    nobody = f"redis://127.0.0.1:{free_port()}"  # a port nothing listens on
    done = _serve(tmp_path, "--workers", "2", redis_url=nobody, database_url="postgresql+psycopg://u@127.0.0.1/x")
    assert done.returncode == 2, done.stderr
    assert f"meadhall serve: cannot reach Redis at {nobody}" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not REDIS, reason="Redis is not reachable at 127.0.0.1:6379: this refusal was not tested")
def test_workers_without_their_database_are_refused_before_any_starts(tmp_path: Path) -> None:
    missing = PG_ADMIN.rsplit("/", 1)[0] + "/meadhall_no_such_database"
    done = _serve(tmp_path, "--workers", "2", redis_url="redis://127.0.0.1:6379", database_url=missing)
    assert done.returncode == 2, done.stderr
    assert "meadhall serve: cannot prepare the database: OperationalError" in done.stderr
    assert "Traceback" not in done.stderr


def _workers(marker: str) -> set[int]:
    """The pids of the running worker processes whose command line holds ``marker``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if b"--worker-fd" in command and marker.encode() in b" ".join(command) and state != "Z":
            found.add(int(entry.name))
    return found


@pytest.mark.skipif(not PG, reason="PostgreSQL is not reachable at 127.0.0.1:5432: the drill did not run")
@pytest.mark.skipif(not REDIS, reason="Redis is not reachable at 127.0.0.1:6379: the drill did not run")
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the workers in /proc (Linux)")
def test_two_workers_share_one_address_and_a_dead_one_comes_back(tmp_path: Path, database: str) -> None:
    port = free_port()
    data = tmp_path / "data"
    out = tmp_path / "supervisor.log"
    settings = {
        "database_url": database,
        "redis_url": "redis://127.0.0.1:6379",
        "cluster_lease_ms": "1000",
        "log_format": "text",
    }
    with out.open("w") as log:
        supervisor = subprocess.Popen(
            [sys.executable, "-m", "meadhall.cli.main", "serve", "--workers", "2", "--port", str(port),
             "--data-dir", str(data)],
            env=_env(**settings), stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        nodes: set[str] = set()

        def answered_by(count: int) -> bool:
            assert supervisor.poll() is None, out.read_text()[-3000:]
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5)
            except httpx.HTTPError:
                return False
            if ready.status_code == 200:
                nodes.add(ready.json()["node"])
            return len(nodes) >= count

        drill._until("two workers (two nodes) to answer on the one address", lambda: answered_by(2))
        said = re.search(r"2 workers on http://127\.0\.0\.1:(\d+)/ \(pids (\d+), (\d+);", out.read_text())
        assert said is not None and int(said[1]) == port, out.read_text()
        first = {int(said[2]), int(said[3])}
        assert _workers(str(data)) == first

        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        drill._until("the supervisor to start the killed worker again", lambda: len(_workers(str(data)) - first) == 1)
        assert victim not in _workers(str(data))
        drill._until("the new worker (a new node) to answer", lambda: answered_by(3))
        assert f"pid {victim}) exited with -9" in out.read_text()

        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=HANG_GUARD) == 0
        assert _workers(str(data)) == set()  # none left behind
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait()
        for pid in _workers(str(data)):
            os.kill(pid, signal.SIGKILL)
