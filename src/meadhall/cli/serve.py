"""``meadhall serve``: the web server (started by ``make run``)."""

from __future__ import annotations

import argparse
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

    server.startup = startup  # type: ignore[method-assign]
    server.run()
    return 0 if not server.should_exit or server.started else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(argparse.Namespace()))
