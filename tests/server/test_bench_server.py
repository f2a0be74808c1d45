"""``meadhall bench-server`` as a user runs it: a real server, real players, real figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
@pytest.mark.parametrize("via", ["ws", "http"])
def test_bench_server_plays_moves_and_reports_latency_and_cpu(tmp_path: Path, via: str) -> None:
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", "bench-server", "--tables", "2", "--seconds", "1.5",
         "--preset", "base", "--via", via, "--json", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["preset"] == "base" and figures["tables"] == 2 and figures["via"] == via
    assert figures["moves"] > 0 and figures["errors"] == 0
    assert 0 < figures["move_p50_ms"] <= figures["move_p99_ms"]
    assert 0 < figures["fanout_p50_ms"] <= figures["fanout_p99_ms"]
    assert figures["server_cpu_ms_per_move"] > 0 and 0 < figures["server_cpu_share"] <= 1.5
    assert figures["client_cpu_share"] > 0
    assert json.loads(done.stdout) == figures
