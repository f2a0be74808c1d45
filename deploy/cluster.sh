#!/bin/sh
# `make cluster`: several meadhall servers on this machine behind HAProxy, all real.
#
# This machine's PostgreSQL (the database meadhall_cluster, created if missing) and Redis;
# `meadhall serve --workers N` on 127.0.0.1:8001 (N processes on one socket, each a cluster
# node); HAProxy on 127.0.0.1:8000 with deploy/haproxy.cfg as it is; and a pool of bots,
# `meadhall bot-pool --workers P` (P = CLUSTER_BOT_POOL, 1 unless set; 0: the servers think
# for their bots themselves). Open http://127.0.0.1:8000/. Ctrl-C stops everything.
# docs/deploy.md, "A front door" and "A pool of bots".
set -eu
BIN=${BIN:-.venv/bin}
WORKERS=${CLUSTER_WORKERS:-2}
PG=${CLUSTER_PG:-postgres@127.0.0.1:5432}
DB=${CLUSTER_DB:-meadhall_cluster}
REDIS=${CLUSTER_REDIS:-redis://127.0.0.1:6379}
POOL=${CLUSTER_BOT_POOL:-1}
HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)

"$BIN/python" - "postgresql://$PG/postgres" "$DB" <<'PY'
import sys

import psycopg

url, name = sys.argv[1], sys.argv[2]
with psycopg.connect(url, autocommit=True) as connection:
    if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
        connection.execute(f'CREATE DATABASE "{name}"')
        print(f"make cluster: created the database {name}")
PY

"$HAPROXY" -c -f deploy/haproxy.cfg
"$HAPROXY" -db -q -f deploy/haproxy.cfg &
started=$!
if [ "$POOL" -gt 0 ]; then
  MEADHALL_REDIS_URL="$REDIS" "$BIN/meadhall" bot-pool --workers "$POOL" &
  started="$started $!"
  BOT_POOL=true
else
  BOT_POOL=false
fi
trap 'kill $started 2>/dev/null || true; wait $started 2>/dev/null || true' EXIT INT TERM
echo "make cluster: open http://127.0.0.1:8000/ (HAProxy, deploy/haproxy.cfg) in front of $WORKERS workers on 127.0.0.1:8001, bots in a pool of $POOL; Ctrl-C stops them all"
MEADHALL_DATABASE_URL="postgresql+psycopg://$PG/$DB" MEADHALL_REDIS_URL="$REDIS" MEADHALL_BOT_POOL="$BOT_POOL" \
  "$BIN/meadhall" serve --workers "$WORKERS" --host 127.0.0.1 --port 8001 --data-dir data/cluster
