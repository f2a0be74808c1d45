"""``meadhall bot-pool``: processes that think for the bots of every server sharing one Redis."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(commands: Any) -> None:
    """Register ``bot-pool``."""
    parser = commands.add_parser(
        "bot-pool",
        help="think for the bots of the servers sharing redis_url (their bot_pool = true), apart from them",
        description=(
            "Think the bots' moves the servers put on the Redis stream <redis_prefix>:bots (servers with "
            "redis_url and bot_pool = true), WORKERS moves at a time, each in a process of its own and within its "
            "deadline. Run as many pools, on as many hosts, as the bots need: they share the work, and a "
            "pool that dies leaves its moves to the others after --claim-ms. Settings (redis_url, and "
            "redis_prefix, which must be the servers') come from MEADHALL_* environment variables or the "
            "TOML file, as for serve; Ctrl-C or SIGTERM stops it "
            "after the moves under way. See docs/deploy.md, 'A pool of bots'."
        ),
    )
    parser.add_argument("--redis-url", help="the servers' Redis (default: the redis_url setting)")
    parser.add_argument("--redis-prefix", help="the servers' prefix in Redis (default: the redis_prefix setting)")
    parser.add_argument("--workers", type=int, default=1, help="moves thought at once, a process each (default 1)")
    parser.add_argument(
        "--claim-ms",
        type=int,
        default=2000,
        help="a move held by a pool that stopped answering (killed) is taken over after this long (default 2000)",
    )
    parser.add_argument("--log-level", help="debug, info (default), warning or error")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the pool until Ctrl-C or SIGTERM."""
    from meadhall.server import logs
    from meadhall.server.botpool import run_pool
    from meadhall.server.settings import load_settings

    settings = load_settings(redis_url=args.redis_url, redis_prefix=args.redis_prefix, log_level=args.log_level)
    if not settings.redis_url:
        print("meadhall bot-pool: needs redis_url (--redis-url or MEADHALL_REDIS_URL)", file=sys.stderr)
        return 2
    if args.workers < 1 or args.claim_ms < 100:
        print("meadhall bot-pool: --workers must be at least 1 and --claim-ms at least 100", file=sys.stderr)
        return 2
    logs.setup(settings.json_logs(), args.log_level or "info")
    try:
        return run_pool(settings.redis_url, settings.redis_prefix, args.workers, args.claim_ms)
    except OSError as error:  # Redis does not answer: restarting would not help
        print(f"meadhall bot-pool: {error}", file=sys.stderr)
        return 2
