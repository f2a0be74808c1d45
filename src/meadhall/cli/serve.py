"""``meadhall serve``: the web server (started by ``make run``)."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
    """Register ``serve``."""
    parser = commands.add_parser(
        "serve",
        help="run the web server: lobby, live and async play, bots (default http://127.0.0.1:8000)",
        description=(
            "Run the meadhall web server. Settings come from MEADHALL_* environment variables and an "
            "optional TOML file (MEADHALL_CONFIG, or meadhall.toml in the data directory); flags override both."
        ),
    )
    parser.add_argument("--host", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, help="port (default 8000)")
    parser.add_argument("--data-dir", help="data directory (default ./data)")
    parser.add_argument("--database-url", help="SQLAlchemy URL (default SQLite in the data directory)")
    parser.add_argument("--bot-workers", type=int, help="processes thinking for bots (default 1)")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes on this one address, each a cluster node (default 1; more needs redis_url "
        "and PostgreSQL; a supervisor restarts a worker that dies and stops all on Ctrl-C or SIGTERM)",
    )
    # A worker of `--workers N`: serve on the socket the supervisor bound (not for people;
    # the index only tells the workers apart in the process list).
    parser.add_argument("--worker-fd", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--worker-index", type=int, default=0, help=argparse.SUPPRESS)
    parser.set_defaults(run=run)


def ready_line(url: str) -> str:
    """The line a person reads first: the address to open."""
    return f"meadhall is ready: open {url} (Ctrl-C stops)"


def run(args: argparse.Namespace) -> int:
    """Start uvicorn with the app."""
    import uvicorn

    from meadhall.core.errors import MeadhallError
    from meadhall.extras import MissingExtra
    from meadhall.server.app import create_app
    from meadhall.server.db import require_driver
    from meadhall.server.settings import load_settings

    settings = load_settings(
        host=args.host,
        port=args.port,
        data_dir=Path(args.data_dir) if args.data_dir else None,
        database_url=args.database_url,
        bot_workers=args.bot_workers,
    )
    try:
        require_driver(settings.sqlalchemy_url)
    except MissingExtra:
        raise
    except MeadhallError as error:
        print(f"meadhall serve: {error}", file=sys.stderr)
        return 2
    workers = getattr(args, "workers", 1)
    if workers != 1:
        from meadhall.cli.serve_workers import Supervisor, refusal

        refused = refusal(settings, workers)
        if refused:
            print(f"meadhall serve: {refused}", file=sys.stderr)
            return 2
        passed = [
            f"--{name.replace('_', '-')}={value}"
            for name, value in (("data_dir", args.data_dir), ("database_url", args.database_url))
            if value is not None
        ]
        if args.bot_workers is not None:
            passed.append(f"--bot-workers={args.bot_workers}")
        return Supervisor(settings, workers, passed).run()
    worker_fd = getattr(args, "worker_fd", None)
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_config=None,
        ws="auto",
        ws_per_message_deflate=False,  # compressing every update costs more CPU than it saves
        ws_max_size=4 * settings.ws_max_message_chars,  # a character takes at most 4 bytes
        proxy_headers=False,
        server_header=False,
    )
    server = uvicorn.Server(config)
    original_startup = server.startup

    async def startup(sockets: Any = None) -> None:
        await original_startup(sockets=sockets)
        for listener in server.servers:
            for sock in listener.sockets:
                host, port = sock.getsockname()[:2]
                shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
                print(ready_line(f"http://{shown}:{port}/"), flush=True)

    if worker_fd is None:
        server.startup = startup  # type: ignore[method-assign]
        server.run()
    else:  # one of `--workers N`: the supervisor bound the socket and said the address once
        server.run(sockets=[socket.socket(fileno=worker_fd)])
    return 0 if not server.should_exit or server.started else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(argparse.Namespace()))
