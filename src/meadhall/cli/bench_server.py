"""``meadhall bench-server``: load-test a real server process (SQLite by default).

Besides moves per second and latencies it reports the CPU the server process and the load
generator each used in the measured window: the server's CPU milliseconds per move say
what one core could carry if the server had it to itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def add_parser(commands: Any) -> None:
    """Register ``bench-server``."""
    parser = commands.add_parser(
        "bench-server",
        help="start a server and measure moves/s, move latency and WebSocket fan-out",
        description="Starts `meadhall serve` on a temporary SQLite database (or --url of a running server).",
    )
    parser.add_argument("--url", help="measure this running server instead of starting one")
    parser.add_argument("--tables", type=int, default=120, help="games played at once (default 120)")
    parser.add_argument("--sockets", type=int, default=0, help="open this many WebSockets in all (spectators fill up)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the measurement (default 10)")
    parser.add_argument("--rate", type=float, help="cap total moves per second (default: as fast as accepted)")
    parser.add_argument("--preset", default="all", help="Völuspá preset of the tables (default all: the largest views)")
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
    parser.add_argument("--json", dest="json_path", help="write the figures to this JSON file")
    parser.set_defaults(run=run)


def _start(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    with __import__("socket").socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {
        **os.environ,
        "MEADHALL_LOGIN_RATE": "100000",
        "MEADHALL_LOG_LEVEL": "warning",
        "MEADHALL_COOKIE_SECURE": "false",
        # every simulated player comes from this machine's address, as fast as it can
        "MEADHALL_WS_MESSAGE_RATE": "100000/second",
        "MEADHALL_WS_PER_ADDRESS": "100000",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "meadhall.cli.main", "serve", "--port", str(port), "--data-dir", str(data)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/readyz", timeout=0.5).status_code == 200:
                return process, base
        except httpx.HTTPError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start")


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
    from meadhall.server.loadtest import run as load

    process = None
    with tempfile.TemporaryDirectory() as folder:
        base = args.url
        if base is None:
            process, base = _start(Path(folder))
        cpu = CpuWindow(process.pid if process is not None else None)
        try:
            results = _run_loop(
                load(
                    base,
                    args.tables,
                    args.sockets,
                    args.seconds,
                    args.rate,
                    {"preset": args.preset},
                    window=cpu,
                    via=args.via,
                    arrivals=args.arrivals,
                )
            )
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
    summary = {
        "tables": args.tables,
        "sockets": max(args.sockets, 2 * args.tables),
        "rate": args.rate,
        "preset": args.preset,
        "via": args.via,
        "arrivals": args.arrivals if args.rate else None,
        **results.summary(),
        **cpu.figures(results.moves, results.seconds),
    }
    print(json.dumps(summary, indent=1))
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0
