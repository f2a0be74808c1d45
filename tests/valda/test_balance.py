"""Valda's balance report: gods built in, seats, and how often a god weapon decided a game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from meadhall.core.balance import BalanceSpec
from meadhall.core.registry import get_game
from meadhall.games.valda.content import default_content
from meadhall.lab.balance import GameRow, SeatRow, Summary, WhatIf, WhatIfs, format_report, play_game, summarize
from meadhall.lab.selfplay import Series

OPTIONS = {o.id: o.name for card in default_content().cards.values() for o in card.options}


def _spec() -> BalanceSpec:
    spec = get_game("valda").balance_spec()
    assert spec is not None
    return spec


SPEC = _spec()


def _seat(seat: int, place: int, built: dict[str, int], weapons: list[str] | None = None) -> SeatRow:
    facts = {"built": built, "temples": dict(built), "weapons": weapons or []}
    return SeatRow(seat, "greedy", seat, place, 10 - place, facts)


def _game(index: int, seats: list[SeatRow], weapons: list[WhatIf]) -> GameRow:
    return GameRow(index, index, {"start": 0}, seats, weapons)


def _weapons(summary: Summary) -> WhatIfs:
    assert summary.what_ifs is not None
    return summary.what_ifs


def test_a_self_play_game_records_builds_weapons_and_what_ifs() -> None:
    config = Series(game="valda", bots=("greedy",), games=12, players=2, seed=1)
    rows = [play_game(config, index) for index in range(12)]
    assert all(row.error is None for row in rows)
    assert any(seat.facts["built"] for row in rows for seat in row.seats)
    plays = [play for row in rows for play in row.what_ifs]
    assert plays, "no god weapon was played in 12 greedy games"
    for row in rows:
        for play in row.what_ifs:
            assert play.option in OPTIONS and play.option in row.seats[play.seat].facts["weapons"]
            assert play.won == (row.seats[play.seat].place == 1)
    # the same seed plays the same games, what-ifs included
    again = play_game(config, 3)
    assert [p.decided for p in again.what_ifs] == [p.decided for p in rows[3].what_ifs]
    assert [s.score for s in again.seats] == [s.score for s in rows[3].seats]


def test_the_summary_counts_gods_seats_and_decisive_weapons() -> None:
    rows = []
    for index in range(40):
        odin_wins = index % 4 != 0  # seats that build Odin win three games in four
        seats = [_seat(0, 1 if odin_wins else 2, {"odin": 2}), _seat(1, 2 if odin_wins else 1, {"thor": 1})]
        weapons = [WhatIf("bullseye", 0, 5, odin_wins, decided=index < 10)] if index < 20 else []
        seats[0].facts["weapons"] = ["bullseye"] if index < 20 else []
        rows.append(_game(index, seats, weapons))
    summary = summarize(rows, 2, SPEC, needed=20)
    built = {e.key: e for e in summary.categories[0].entries}
    assert built["odin"].samples == 40 and built["odin"].win_rate == 0.75 and built["odin"].suspect
    assert "odin" in summary.categories[0].verdict.suspects and summary.categories[0].verdict.must_picks == ["odin"]
    bullseye = next(w for w in _weapons(summary).entries if w.option == "bullseye")
    assert (bullseye.played, bullseye.decided, bullseye.decided_games) == (20, 10, 0.25)
    assert _weapons(summary).games == 20 and _weapons(summary).decided_games == 10
    report = format_report(summary)
    assert "| MUST-BUILD |" in format_report(summary, markdown=True) and "decided 10 (25.0%)" in report
    assert "must-builds (ahead after the Bonferroni correction and by 5 points or more): odin" in report
    assert "bullseye (Bullseye)" in report


def test_the_summary_counts_the_locks_held_at_the_end() -> None:
    rows = []
    for index in range(40):
        locker_wins = index % 4 != 0  # a seat holding Tyr's area (and Surtur's, in half the games)
        locks = {"tyr": 3, "surtur": 3} if index % 2 else {"tyr": 3, "thor": 1}
        seats = [_seat(0, 1 if locker_wins else 2, locks), _seat(1, 2 if locker_wins else 1, {"tyr": 2, "odin": 1})]
        rows.append(_game(index, seats, []))
    summary = summarize(rows, 2, SPEC, needed=10)
    lock = next(c for c in summary.categories if c.name == "lock_held")
    entries = {e.key: e for e in lock.entries}
    assert entries["tyr"].samples == 40 and entries["tyr"].win_rate == 0.75
    assert entries["surtur"].samples == 20 and "thor" not in entries
    assert entries["(no lock)"].samples == 40 and entries["(no lock)"].win_rate == 0.25
    assert "(no lock)" not in lock.verdict.suspects and "tyr" in lock.verdict.suspects
    assert "Win rate by god area held locked at the end" in format_report(summary)


def test_the_balance_command_runs_valda(tmp_path: Path) -> None:
    out = tmp_path / "valda"
    done = subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", "balance", "--game", "valda", "--bots", "greedy,random",
         "--games", "4", "--jobs", "1", "--seed", "2", "--out", str(out), "--quiet"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Win rate by god area built in" in done.stdout and "God weapons: how often played" in done.stdout
    assert "Win rate by bot" in done.stdout
    data: dict[str, Any] = json.loads(out.with_name("valda.json").read_text(encoding="utf-8"))
    assert data["finished_games"] == 4 and data["config"]["players"] == 2
    assert set(data["categories"]) == {"god_built", "most_temples", "lock_held", "seat", "order", "bot"}
    assert len(data["weapons"]) == 14
