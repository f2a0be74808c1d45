"""``meadhall bench-server``: load-test a real server process (SQLite by default)."""

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


def run(args: argparse.Namespace) -> int:
    """Run the load test and print the figures."""
    from meadhall.server.loadtest import run as load

    process = None
    with tempfile.TemporaryDirectory() as folder:
        base = args.url
        if base is None:
            process, base = _start(Path(folder))
        try:
            results = asyncio.run(load(base, args.tables, args.sockets, args.seconds, args.rate))
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
    summary = {
        "tables": args.tables,
        "sockets": max(args.sockets, 2 * args.tables),
        "rate": args.rate,
        **results.summary(),
    }
    print(json.dumps(summary, indent=1))
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0
