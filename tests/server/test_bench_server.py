"""``meadhall bench-server`` as a user runs it: a real server, real players, real figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from meadhall.server.loadtest import Pace

NEEDS_PROC = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")


def bench_server(tmp_path: Path, *args: str) -> dict[str, Any]:
    """Run ``meadhall bench-server`` as a user does (a real server); its figures, as printed and written."""
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", "bench-server", "--game", "voluspa", "--preset", "base",
         *args, "--json", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert json.loads(done.stdout) == figures
    return figures


@NEEDS_PROC
@pytest.mark.parametrize("via", ["ws", "http"])
def test_bench_server_plays_moves_and_reports_latency_and_cpu(tmp_path: Path, via: str) -> None:
    figures = bench_server(tmp_path, "--tables", "2", "--seconds", "1.5", "--via", via)
    assert figures["game"] == "voluspa" and figures["preset"] == "base" and figures["tables"] == 2
    assert figures["via"] == via
    assert figures["moves"] > 0 and figures["errors"] == 0
    assert 0 < figures["move_p50_ms"] <= figures["move_p99_ms"]
    assert 0 < figures["fanout_p50_ms"] <= figures["fanout_p99_ms"]
    assert figures["server_cpu_ms_per_move"] > 0 and 0 < figures["server_cpu_share"] <= 1.5
    assert figures["client_cpu_share"] > 0


@NEEDS_PROC
def test_bench_server_asks_for_the_words_as_the_page_does(tmp_path: Path) -> None:
    figures = bench_server(tmp_path, "--tables", "2", "--seconds", "1.5", "--words")
    assert figures["words"] is True and figures["moves"] > 0 and figures["errors"] == 0


def test_even_pace_keeps_each_table_on_its_own_beat_even_when_moves_come_late() -> None:
    pace = Pace(tables=4, rate=40, start=100.0)  # each table every 0.1 s, 25 ms apart
    assert [pace.due(slot, 100.0) for slot in range(4)] == pytest.approx([100.0, 100.025, 100.05, 100.075])
    # All four answers came late, together, at 100.26: each waits for its own next beat,
    # so the tables stay 25 ms apart instead of all moving at 100.26.
    assert [pace.due(slot, 100.26) for slot in range(4)] == pytest.approx([100.3, 100.325, 100.35, 100.275])
    # On time, a table keeps its beat: 0.1 s after the last.
    assert pace.due(0, 100.31) == pytest.approx(100.4)


def test_random_pace_has_the_asked_mean_and_is_seeded() -> None:
    first, second = Pace(tables=10, rate=100, start=0.0, arrivals="random"), Pace(10, 100, 0.0, "random")
    dues = [first.due(slot % 10, 0.0) for slot in range(10_000)]
    assert dues == [second.due(slot % 10, 0.0) for slot in range(10_000)]
    moves_per_second = 10_000 / max(dues)
    assert 90 < moves_per_second < 110
    with pytest.raises(ValueError, match="arrivals must be 'even' or 'random'"):
        Pace(1, 1, 0.0, "bursty")


@NEEDS_PROC
@pytest.mark.parametrize("arrivals", ["even", "random"])
def test_bench_server_offers_the_rate_asked(tmp_path: Path, arrivals: str) -> None:
    figures = bench_server(tmp_path, "--tables", "4", "--seconds", "3", "--rate", "40", "--arrivals", arrivals)
    assert figures["arrivals"] == arrivals and figures["rate"] == 40 and figures["errors"] == 0
    # A paced run, not as fast as accepted: never above the rate asked. (How close to it a
    # run comes depends on how busy the machine is: that is measured, not tested.)
    assert 0 < figures["moves_per_s"] <= 50


@NEEDS_PROC
@pytest.mark.skipif(os.name != "posix", reason="kill -9 is POSIX")
def test_bench_server_restart_times_the_recovery_after_kill_9(tmp_path: Path) -> None:
    figures = bench_server(tmp_path, "--tables", "2", "--seconds", "1.5", "--restart")
    assert figures["moves"] > 0 and figures["tables_at_kill"] == 2
    assert figures["tables_replayed"] == 2  # every table of the load is served again after the crash
    assert figures["fresh_start_s"] > 0 and figures["restart_after_kill_s"] > 0
    ratio = figures["restart_after_kill_s"] / figures["fresh_start_s"]
    assert figures["restart_over_fresh"] == pytest.approx(ratio, abs=0.02)
