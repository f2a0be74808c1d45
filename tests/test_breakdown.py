"""Score breakdowns add up: over random games of every game, preset and player count, each
section of a game's breakdown sums, seat by seat, to the final scores."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from meadhall.core.breakdown import ScoreTable, mismatches
from meadhall.core.game import Game, GameState
from meadhall.core.registry import all_games
from meadhall.testing.conformance import setups

#: Random games per preset and player count (every game's presets times its seat counts).
GAMES_EACH = 5


def _played(game: Game, players: int, preset: str, seed: int) -> GameState[Any]:
    """A random game to its end, every action chosen by a seeded random generator."""
    options = game.validate_options({"preset": preset}, players=players)
    state = game.new_game(players=players, seed=seed, options=options)
    chooser = random.Random(seed)
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    return state


def _cases() -> list[Any]:
    cases = []
    for game in all_games():
        for setup in setups(game):
            cases.append(pytest.param(game.info.name, setup.preset, setup.players, id=f"{game.info.name}-{setup}"))
    return cases


def _game(name: str) -> Game:
    return next(game for game in all_games() if game.info.name == name)


@pytest.mark.parametrize(("name", "preset", "players"), _cases())
def test_breakdown_sums_to_final_scores(name: str, preset: str, players: int) -> None:
    game = _game(name)
    for seed in range(GAMES_EACH):
        state = _played(game, players, preset, 1000 * players + seed)
        table = game.breakdown(state)
        if table is None:
            continue  # a game without a breakdown: hosts show places and scores alone
        assert table["totals"] == state.scores()
        assert not mismatches(table), (seed, mismatches(table))
        assert any(part["adds_up"] and part["rows"] for part in table["sections"]) or not any(state.scores())
        json.dumps(table)  # hosts send it as it is


def test_every_meadhall_game_has_a_breakdown() -> None:
    for name in ("voluspa", "bloodrage-valhalla", "valda"):
        game = _game(name)
        state = _played(game, game.info.min_players, game.info.default_preset, 7)
        table: ScoreTable | None = game.breakdown(state)
        assert table is not None, name
        assert table["sections"] and table["title"]


def test_mismatches_names_a_section_that_does_not_add_up() -> None:
    table: ScoreTable = {
        "title": "t",
        "sections": [{"title": "Wrong", "rows": [{"label": "a", "points": [1, 2]}], "adds_up": True}],
        "totals": [1, 3],
        "notes": [],
    }
    assert mismatches(table) == ["Wrong: rows sum to [1, 2], totals are [1, 3]"]
    table["sections"][0]["adds_up"] = False
    assert mismatches(table) == []


def test_blood_rage_starting_glory_is_its_own_row() -> None:
    game = _game("bloodrage-valhalla")
    options = game.validate_options({"starting-glory": [1, 2, 3]}, players=3)
    state = game.new_game(players=3, seed=11, options=options)
    chooser = random.Random(11)
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    table = game.breakdown(state)
    assert table is not None and not mismatches(table)
    rows = {row["label"]: row["points"] for row in table["sections"][0]["rows"]}
    assert rows["Glory at the start (earlier games)"] == [12, 8, 4]


def test_the_terminal_shows_the_breakdown_at_the_end() -> None:
    from tests.test_play_cli import make_terminal

    terminal, _script, out = make_terminal(players=3, bots=(0, 1, 2), seed=8, preset="order")
    assert terminal.run() == 0
    text = out.getvalue()
    after = text[text.index("Final ranking:") :]
    assert "Where the points came from:" in after and "Points by round" in after and "Round 1" in after
    scores = terminal.state.scores()
    totals = [line for line in after.splitlines() if line.strip().startswith("Total")]
    assert len(totals) == 2 and all([int(n) for n in line.split()[1:]] == scores for line in totals)


def test_breakdown_lines_draw_a_column_per_seat() -> None:
    from meadhall.cli.play import breakdown_lines

    table: ScoreTable = {
        "title": "Where it came from",
        "sections": [
            {"title": "By source", "rows": [{"label": "Temples of {1}", "points": [3, 12]}], "adds_up": True},
            {"title": "Buildings", "rows": [{"label": "Mines", "points": [1, 0]}], "adds_up": False},
        ],
        "totals": [3, 12],
        "notes": [],
    }
    assert breakdown_lines(table, ["Ann", "Bo"]) == [
        "Where it came from:",
        "",
        "  By source      Ann  Bo",
        "  Temples of Bo    3  12",
        "  Total            3  12",
        "",
        "  Buildings  Ann  Bo",
        "  Mines        1   0",
    ]
