"""Health and metrics for whoever runs the server."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse
from sqlalchemy import text

from meadhall.server.deps import services
from meadhall.server.errors import ApiError

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, str]:
    """The process answers (200 whatever else is down: restarting it would not help).

    With ``redis_url`` set, ``redis`` says whether this server reaches the Redis shared with
    the others (``ok`` or ``unreachable``, also while a lease it holds may have run out
    unrenewed), and ``status`` is ``degraded`` while it does not: no updates between
    servers, and no moves on its tables (docs/deploy.md).
    """
    cluster = services(request).games.cluster
    if cluster is None:
        return {"status": "ok"}
    degraded = cluster.degraded
    return {"status": "degraded" if degraded else "ok", "redis": "unreachable" if degraded else "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> dict[str, Any]:
    """The process answers and its database too."""
    svc = services(request)
    try:
        await svc.store.aread(lambda c: c.execute(text("SELECT 1")).scalar())
    except Exception as error:
        raise ApiError(503, "database", f"database unavailable: {type(error).__name__}") from None
    ready: dict[str, Any] = {"status": "ready", "tables_in_memory": len(svc.games.runtimes)}
    if svc.games.cluster is not None:
        ready["node"] = svc.games.cluster.node  # this server's name among several (docs/deploy.md)
        ready["redis"] = "unreachable" if svc.games.cluster.degraded else "ok"
    return ready


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(request: Request) -> str:
    """Prometheus text format: requests, moves, latencies, sockets, tables (and what a server of several hears)."""
    svc = services(request)
    m = svc.metrics
    lines = [
        "# HELP meadhall_uptime_seconds Seconds since the server started.",
        "# TYPE meadhall_uptime_seconds gauge",
        f"meadhall_uptime_seconds {time.time() - m.started:.1f}",
        "# HELP meadhall_http_requests_total HTTP requests by status class.",
        "# TYPE meadhall_http_requests_total counter",
    ]
    lines += [f'meadhall_http_requests_total{{status="{k}"}} {v}' for k, v in sorted(m.requests.items())]
    lines += [
        "# HELP meadhall_http_request_seconds Request latency quantiles (recent requests).",
        "# TYPE meadhall_http_request_seconds summary",
    ]
    lines += [f'meadhall_http_request_seconds{{quantile="{q}"}} {_quantile(m.latencies, q):.6f}' for q in (0.5, 0.99)]
    lines += [
        "# HELP meadhall_moves_total Actions accepted and committed.",
        "# TYPE meadhall_moves_total counter",
        f"meadhall_moves_total {svc.games.moves}",
        "# HELP meadhall_move_seconds Accepted action latency quantiles (recent actions).",
        "# TYPE meadhall_move_seconds summary",
    ]
    lines += [
        f'meadhall_move_seconds{{quantile="{q}"}} {_quantile(svc.games.move_seconds, q):.6f}' for q in (0.5, 0.99)
    ]
    lines += [
        "# HELP meadhall_event_loop_lag_seconds How late the event loop wakes a sleeping task (recent).",
        "# TYPE meadhall_event_loop_lag_seconds summary",
    ]
    lines += [f'meadhall_event_loop_lag_seconds{{quantile="{q}"}} {_quantile(m.loop_lag, q):.6f}' for q in (0.5, 0.99)]
    lines += [
        "# HELP meadhall_websockets Open WebSocket connections.",
        "# TYPE meadhall_websockets gauge",
        f"meadhall_websockets {m.websockets}",
        "# HELP meadhall_tables_in_memory Tables loaded in memory.",
        "# TYPE meadhall_tables_in_memory gauge",
        f"meadhall_tables_in_memory {len(svc.games.runtimes)}",
        "# HELP meadhall_bots_thinking Bots thinking in a worker process now.",
        "# TYPE meadhall_bots_thinking gauge",
        f"meadhall_bots_thinking {svc.games.bots.thinking() if svc.games.bots else 0}",
    ]
    cluster = svc.games.cluster
    if cluster is not None:  # several servers (docs/deploy.md): what this one hears of the tables
        lines += [
            "# HELP meadhall_cluster_tables_heard Tables whose channel this server listens to.",
            "# TYPE meadhall_cluster_tables_heard gauge",
            f"meadhall_cluster_tables_heard {len(cluster.tables)}",
            "# HELP meadhall_cluster_table_messages_total Tables' messages this server heard from Redis.",
            "# TYPE meadhall_cluster_table_messages_total counter",
            f"meadhall_cluster_table_messages_total {cluster.heard}",
        ]
    return "\n".join(lines) + "\n"
