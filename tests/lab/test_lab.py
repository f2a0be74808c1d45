"""meadhall.lab as researchers use it: one self-play loop, the arena, a balance report for every game with one."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

from meadhall.core.balance import (
    MUST_PICK,
    BalanceSpec,
    CategorySpec,
    ChoiceSpec,
    ChoiceWords,
    Description,
    GameFacts,
    SeatFacts,
    WhatIfSpec,
    WhatIfWords,
)
from meadhall.core.game import Action, Game, GameState
from meadhall.core.registry import all_games, get_game
from meadhall.lab import arena, balance, selfplay
from meadhall.lab.arena import Checkpoint
from meadhall.lab.selfplay import Series

LAB = Path(__file__).resolve().parents[2] / "src" / "meadhall" / "lab"


def _without_seconds(records: list[Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in asdict(record).items() if k != "seconds"} for record in records]


def test_a_tiny_arena_between_random_bots_reproduces_from_its_seed() -> None:
    series = Series("voluspa", ("random", "random"), games=4, seed=11)
    first, stopped = arena.run(series)
    again, _ = arena.run(series)
    assert not stopped and [r.index for r in first] == [0, 1, 2, 3]
    assert _without_seconds(first) == _without_seconds(again)
    assert first[0].deal == first[1].deal and first[0].lineup == ["random", "random"]
    assert all(r.error is None and sorted(r.places)[0] == 1 for r in first)
    other, _ = arena.run(replace(series, seed=12))
    assert [r.scores for r in other] != [r.scores for r in first], "another seed deals other games"
    rows = arena.summarize(first, ["random"], bootstrap=0)
    assert rows[0].games == 4 and rows[0].wins == 4  # one bot in every seat wins every game
    assert "| random | 4 |" in arena.format_table(rows, markdown=True)


def test_the_self_play_loop_gives_the_same_records_in_one_process_and_in_two() -> None:
    series = Series("voluspa", ("random", "greedy"), games=6, players=3, options={"preset": "saga"}, seed=4)
    alone, _ = selfplay.run_games(arena.play_game, series, series.games, jobs=1)
    pooled, _ = selfplay.run_games(arena.play_game, series, series.games, jobs=2)
    assert _without_seconds(alone) == _without_seconds(pooled)
    reports = Series("valda", ("greedy", "random"), games=4, players=2, seed=2)
    rows_alone, _ = selfplay.run_games(balance.play_game, reports, reports.games, jobs=1)
    rows_pooled, _ = selfplay.run_games(balance.play_game, reports, reports.games, jobs=2)
    assert _without_seconds(rows_alone) == _without_seconds(rows_pooled)


def test_a_match_is_the_same_game_wherever_it_is_played() -> None:
    series = Series("valda", ("greedy", "random"), games=3, players=2, seed=9)
    match = selfplay.dealt_match(series, 1)
    assert match.lineup == ("random", "greedy") and match.seed == selfplay.game_seed(series, 1)
    seen: list[tuple[int, int, str]] = []
    outcome = selfplay.play(match, lambda ply, seat, action, state: seen.append((ply, seat, str(action))))
    again = selfplay.play(match)
    assert outcome.error is None and outcome.state.is_terminal()
    assert [(seat, action) for _, seat, action in seen] == [(s, str(a)) for s, a in outcome.state.history()]
    assert [ply for ply, _, _ in seen] == list(range(len(seen))) and sum(outcome.decisions) == len(seen)
    assert again.state.fingerprint() == outcome.state.fingerprint()
    assert outcome.first.fingerprint() != outcome.state.fingerprint() and not outcome.first.history()


def test_a_checkpoint_writes_whole_files_that_resume(tmp_path: Path) -> None:
    now = [0.0]
    series = Series("voluspa", ("random", "greedy"), games=3)
    results = [arena.play_game(series, index) for index in range(3)]
    checkpoint = Checkpoint(series, tmp_path / "run", every=10.0, clock=lambda: now[0])
    checkpoint(results[0], 1)
    assert not (tmp_path / "run.json").exists(), "not due yet"
    now[0] = 10.0
    checkpoint(results[1], 2)
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert data["interrupted"] and data["finished_games"] == 2
    assert [r.index for r in arena.load_earlier(series, tmp_path / "run")] == [0, 1]
    with pytest.raises(ValueError, match="cannot resume: the earlier run had seed"):
        arena.load_earlier(replace(series, seed=2), tmp_path / "run")


REPORTED = [game for game in all_games() if game.balance_spec() is not None]


def test_the_games_with_balance_reports() -> None:
    assert {game.info.name for game in REPORTED} >= {"bloodrage-valhalla", "valda"}
    assert get_game("voluspa").balance_spec() is None
    with pytest.raises(Exception, match="Völuspá has no balance report"):
        balance.run(Series("voluspa", ("random",), games=1))


@pytest.mark.parametrize("game", REPORTED, ids=[game.info.name for game in REPORTED])
def test_a_balance_report_from_a_handful_of_games(game: Game) -> None:
    defaults = game.balance_spec()
    assert defaults is not None
    series = Series(game.info.name, ("random", "greedy"), games=4, players=defaults.players, options=defaults.options)
    rows, stopped = balance.run(series)
    assert not stopped and len(rows) == 4 and all(row.error is None for row in rows)
    spec = balance.spec_of(series)
    summary = balance.summarize(rows, series.players, spec, needed=2)
    names = [category.name for category in summary.categories]
    assert names == [c.name for c in spec.categories] + ["seat", "order", "bot"]
    assert summary.games == 4 and summary.fair_share == 1 / series.players
    assert sum(e.samples for e in summary.categories[-3].entries) == 4 * series.players  # by seat: every seat once
    text, markdown = balance.format_report(summary), balance.format_report(summary, markdown=True)
    for category in summary.categories:
        assert f"{category.title}:" in text and f"### {category.title}" in markdown
        assert f"verdict ({category.name.replace('_', ' ')})" in text
    data = json.loads(json.dumps(balance.to_json(series, rows, summary, False, {}, 1.0)))
    assert set(data["categories"]) == set(names) and len(data["games"]) == 4
    assert f"mean_{spec.score_key}" in data["summary"]
    seat = data["games"][0]["seats"][0]
    assert {"seat", "bot", "order", "place", spec.score_key} <= set(seat)
    # The facts are the game's, whole: the per-game records keep what each seat chose.
    assert set(seat) - {"seat", "bot", "order", "place", spec.score_key} == set(rows[0].seats[0].facts)


# A game adds a balance report by returning a spec: here one for Völuspá, written in the test.


def _facts(first: GameState[Any], last: GameState[Any]) -> GameFacts:
    placed: list[list[str]] = [[] for _ in range(last.num_players)]
    for seat, action in last.history():
        placed[seat].append(str(action).split("@")[0])
    scores = last.scores()
    return GameFacts(
        {"tiles": sorted({t for p in placed for t in p})},
        [SeatFacts(s, scores[s], {"placed": p}) for s, p in enumerate(placed)],
    )


def _first_tile(game: Mapping[str, Any], seat: Mapping[str, Any]) -> list[tuple[str, float]]:
    return [(seat["placed"][0], 1.0)] if seat["placed"] else []


def _odin(action: Action) -> str | None:
    return "OD" if str(action).startswith("OD@") else None


def _voluspa_spec(options: Mapping[str, Any] | None = None) -> BalanceSpec:
    return BalanceSpec(
        facts=_facts,
        categories=(CategorySpec("first_tile", "Win rate by the first tile placed", _first_tile, MUST_PICK),),
        score_key="points",
        score_name="points",
        order_title="Win rate by turn order",
        players=2,
        choices=ChoiceSpec(
            ChoiceWords("tile", "tiles", "group", "none", "in_bag", "placed", "placing", "placed", "unplaced"),
            offered=lambda game: game["tiles"],
            chosen=lambda seat: seat["placed"],
            used=lambda seat: seat["placed"],
            describe=lambda key: Description(key, None, "tile"),
        ),
        what_ifs=WhatIfSpec(WhatIfWords("tile of Odin", "tiles of Odin", "tile", "odins"), _odin, {"OD": "Odin"}),
    )


def test_a_game_adds_its_report_by_returning_a_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    voluspa = get_game("voluspa")
    monkeypatch.setattr(type(voluspa), "balance_spec", lambda self, options=None: _voluspa_spec(options))
    series = Series("voluspa", ("greedy", "random"), games=4, players=2, seed=3)
    rows, _ = balance.run(series)
    assert all(row.error is None for row in rows)
    plays = [what_if for row in rows for what_if in row.what_ifs]
    assert plays and all(play.option == "OD" for play in plays)
    summary = balance.summarize(rows, 2, balance.spec_of(series), needed=1)
    report = balance.format_report(summary)
    assert "Win rate by the first tile placed:" in report and "avg points" in report
    assert "Top " in report and "tiles by win rate when placed" in report
    assert f"A tile of Odin was played in {summary.what_ifs.games if summary.what_ifs else 0} of 4 games" in report
    data = balance.to_json(series, rows, summary, False, {}, 0.0)
    assert "odins" in data and "placed_tile_win_rate" in data["summary"] and data["tiles"]["all"][0]["tile"]


def test_the_lab_names_no_game_and_imports_none() -> None:
    names = {word for game in all_games() for word in (game.info.name, game.info.title, *game.info.aliases)}
    names |= {name.split("-")[0] for name in names} | {"Blood Rage", "Völuspá", "Voluspa"}
    for path in sorted(LAB.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for name in names:
            assert not re.search(rf"\b{re.escape(name)}\b", text, flags=re.I), f"{path.name} names {name!r}"
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("meadhall.games"), f"{path.name} imports {node.module}"


def test_the_python_example_of_the_bots_page_runs(capsys: pytest.CaptureFixture[str]) -> None:
    page = (LAB.parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    (block,) = [block for block in re.findall(r"```python\n(.*?)```", page, flags=re.S) if "format_table" in block]
    exec(compile(block, "docs/bots.md", "exec"), {"__name__": "docs"})
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split()[:3] == ["bot", "games", "wins"] and [row.split()[0] for row in rows] == ["greedy", "random"]
