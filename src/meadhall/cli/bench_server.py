"""``meadhall bench-server``: load-test a real server process (SQLite by default).

Besides moves per second and latencies it reports the CPU the server process and the load
generator each used in the measured window: the server's CPU milliseconds per move say
what one core could carry if the server had it to itself.

With ``--restart`` it kills the server with ``kill -9`` as the measured window closes
(under load, as the crash drill tests/server/test_crash.py does), starts it again on the
same data and reports how long until it was ready beside a fresh start on an empty
database (``restart_over_fresh``; the fresh start is the better of two), and how long
until every table of the load was served again (each is replayed from its actions when
first asked for). The drill checks that nothing is lost; how fast the recovery is belongs
here, measured, not in a test.

The load generator needs an HTTP and WebSocket client: ``pip install 'meadhall[bench]'``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from meadhall.cli.bench_cluster import Cluster
from meadhall.cli.games import choose_game
from meadhall.core.errors import MeadhallError
from meadhall.extras import require

JOB = "meadhall bench-server"


def add_parser(commands: Any) -> None:
    """Register ``bench-server``."""
    parser = commands.add_parser(
        "bench-server",
        help="start a server and measure moves/s, move latency and WebSocket fan-out",
        description=(
            "Starts `meadhall serve` on a temporary SQLite database (or --url of a running server). "
            "Needs pip install 'meadhall[bench]'."
        ),
    )
    parser.add_argument("--url", help="measure this running server instead of starting one")
    parser.add_argument("--tables", type=int, default=120, help="games played at once (default 120)")
    parser.add_argument("--sockets", type=int, default=0, help="open this many WebSockets in all (spectators fill up)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the measurement (default 10)")
    parser.add_argument("--rate", type=float, help="cap total moves per second (default: as fast as accepted)")
    parser.add_argument(
        "--game", help="the game of the tables, two players each ('meadhall games'; needed when several are installed)"
    )
    parser.add_argument("--preset", help="the game's preset for the tables (default: the game's own default)")
    parser.add_argument(
        "--via",
        choices=("ws", "http"),
        default="ws",
        help="how players send moves: over their WebSocket as the browser does (default), or POST",
    )
    parser.add_argument(
        "--arrivals",
        choices=("even", "random"),
        default="even",
        help="with --rate: each table on a fixed, evenly staggered beat (default), or random pauses of the same mean",
    )
    parser.add_argument(
        "--words",
        action="store_true",
        help="every socket asks for the game's words (labels of the legal actions, event texts) as the table page does",
    )
    parser.add_argument(
        "--restart",
        action="store_true",
        help="then kill -9 the server, start it again on its data and time the recovery beside the fresh start",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="one server on a fresh PostgreSQL database (no Redis, measured directly); CPU of its backends too",
    )
    parser.add_argument(
        "--cluster",
        type=int,
        metavar="N",
        help="N servers on a fresh PostgreSQL database and the Redis, the load through HAProxy (deploy/haproxy.cfg);"
        " CPU of the servers, HAProxy, Redis and PostgreSQL per move",
    )
    parser.add_argument(
        "--postgres-url",
        default=os.environ.get("MEADHALL_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"),
        help="a PostgreSQL database to connect to for creating the run's own (default: $MEADHALL_BENCH_POSTGRES"
        " or the local test database)",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("MEADHALL_REDIS_URL", "redis://127.0.0.1:6379"),
        help="the Redis of --cluster (default: $MEADHALL_REDIS_URL or the local one)",
    )
    parser.add_argument("--json", dest="json_path", help="write the figures to this JSON file")
    parser.set_defaults(run=run)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> int:
    """The status of ``GET url`` (0 when nothing answers)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def _start(data: Path, port: int) -> tuple[subprocess.Popen[bytes], str, float]:
    """Start ``meadhall serve`` on ``data``; the process, its address and the seconds until ready."""
    env = {
        **os.environ,
        "MEADHALL_LOGIN_RATE": "100000",
        "MEADHALL_LOG_LEVEL": "warning",
        "MEADHALL_COOKIE_SECURE": "false",
        # every simulated player comes from this machine's address, as fast as it can
        "MEADHALL_WS_MESSAGE_RATE": "100000/second",
        "MEADHALL_WS_PER_ADDRESS": "100000",
    }
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "meadhall.cli.main", "serve", "--port", str(port), "--data-dir", str(data)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = started + 120
    while time.monotonic() < deadline and process.poll() is None:
        if _get(f"{base}/readyz") == 200:
            return process, base, time.monotonic() - started
        time.sleep(0.01)
    process.kill()
    raise SystemExit("the server did not start")


def _restart(
    killed: subprocess.Popen[bytes], data: Path, port: int, table_ids: list[str], fresh: float
) -> dict[str, Any]:
    """Start the killed server again on its data, then once more fresh; the recovery figures.

    The fresh start is the better of two: the one before the load (which may also pay for
    cold caches) and one more on an empty database after the recovery.
    """
    killed.wait(timeout=30)
    again, base, ready = _start(data, port)
    try:
        began = time.monotonic()
        served = sum(1 for table_id in table_ids if _get(f"{base}/api/tables/{table_id}/state") == 200)
        replay = time.monotonic() - began
    finally:
        again.terminate()
        again.wait(timeout=30)
    empty = data.with_name(data.name + "-fresh")
    other, _, fresh_again = _start(empty, port)
    other.terminate()
    other.wait(timeout=30)
    best = min(fresh, fresh_again)
    return {
        "fresh_start_s": round(best, 3),
        "restart_after_kill_s": round(ready, 3),
        "restart_over_fresh": round(ready / best, 2) if best > 0 else None,
        "tables_replayed": served,
        "tables_at_kill": len(table_ids),
        "replay_all_tables_s": round(replay, 3),
    }


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of process ``pid`` so far (Linux ``/proc``; ``None`` elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuWindow:
    """CPU seconds of the server and of this load generator over the measured window."""

    def __init__(self, server_pid: int | None) -> None:
        self.server_pid = server_pid
        self.server: list[float | None] = []
        self.client: list[float] = []

    def __call__(self, opening: bool) -> None:
        """Read the counters as the window opens or closes."""
        self.server.append(_cpu_seconds(self.server_pid) if self.server_pid else None)
        self.client.append(time.process_time())

    def figures(self, moves: int, seconds: float) -> dict[str, Any]:
        """CPU per move and the share of a core each side used."""
        out: dict[str, Any] = {}
        if len(self.client) == 2 and seconds > 0:
            client = self.client[1] - self.client[0]
            out["client_cpu_share"] = round(client / seconds, 2)
        if len(self.server) == 2 and self.server[0] is not None and self.server[1] is not None and seconds > 0:
            server = self.server[1] - self.server[0]
            out["server_cpu_share"] = round(server / seconds, 2)
            if moves:
                out["server_cpu_ms_per_move"] = round(1000 * server / moves, 3)
                out["server_moves_per_cpu_second"] = round(moves / server, 1) if server > 0 else None
        return out


def _run_loop(coroutine: Any) -> Any:
    """Run the load generator on uvloop where installed (as the server runs): it is cheaper."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def run(args: argparse.Namespace) -> int:
    """Run the load test and print the figures."""
    require("httpx", "bench", JOB)
    require("websockets", "bench", JOB)
    from meadhall.server.loadtest import run as load

    try:
        game = choose_game(args.game)
        options = {"preset": args.preset} if args.preset else {}
        game.validate_options(options, players=2)
    except MeadhallError as error:
        print(f"{JOB}: {error}", file=sys.stderr)
        return 2

    if args.restart and args.url:
        print(f"{JOB}: --restart kills and restarts the server it starts itself; leave out --url", file=sys.stderr)
        return 2
    services = args.postgres or args.cluster is not None
    if services and (args.url or args.restart):
        print(
            f"{JOB}: --postgres and --cluster start their own servers; leave out --url and --restart", file=sys.stderr
        )
        return 2
    if args.cluster is not None and args.cluster < 1:
        print(f"{JOB}: --cluster needs at least one server", file=sys.stderr)
        return 2
    process = None
    recovery: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        data, port = Path(folder) / "data", _free_port()
        base, fresh = args.url, 0.0
        cluster: Cluster | None = None
        if services:
            cluster = Cluster(
                Path(folder),
                servers=args.cluster or 1,
                proxy=args.cluster is not None,
                admin_url=args.postgres_url,
                redis_url=args.redis_url if args.cluster is not None else None,
                get=_get,
            )
            base = cluster.url
        elif base is None:
            process, base, fresh = _start(data, port)
        cpu = CpuWindow(process.pid if process is not None else None)
        server = process

        def window(opening: bool) -> None:
            cpu(opening)
            if cluster is not None:
                cluster(opening)
            if not opening and args.restart and server is not None:
                server.send_signal(signal.SIGKILL)  # as the window closes: under load, as in the crash drill

        try:
            results = _run_loop(
                load(
                    base,
                    game.info.name,
                    args.tables,
                    args.sockets,
                    args.seconds,
                    args.rate,
                    options,
                    window=window,
                    via=args.via,
                    arrivals=args.arrivals,
                    words=args.words,
                )
            )
            if args.restart and process is not None:
                killed, process = process, None
                recovery = _restart(killed, data, port, results.table_ids, fresh)
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
            if cluster is not None:
                cluster.stop()
    summary = {
        "tables": args.tables,
        "sockets": max(args.sockets, 2 * args.tables),
        "rate": args.rate,
        "game": game.info.name,
        "preset": options.get("preset", game.info.default_preset),
        "via": args.via,
        "words": args.words,
        "arrivals": args.arrivals if args.rate else None,
        **results.summary(),
        **cpu.figures(results.moves, results.seconds),
        **(cluster.figures(results.moves, results.seconds) if cluster is not None else {}),
        **recovery,
        # the machine's load as the run ended: the CPU figures per move hold on a busy machine, latencies less so
        "load_average_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }
    print(json.dumps(summary, indent=1))
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0
