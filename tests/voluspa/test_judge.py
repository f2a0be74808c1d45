"""VoluspaJudge against explain_turn: the same judgement of every move, to the letter.

Differential: on positions of the golden games and on random positions of every preset,
every target the judge lists, and moves around them (boosted, Hermod follow-ups, a line
left unnamed, illegal ones), are judged by :class:`VoluspaJudge` (one set-up per position,
the C engine for legality and points) and by :func:`explain_turn` (each move from the
diagram, the reference engine): the results must be equal, with lines and without.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meadhall.core.errors import MalformedAction
from meadhall.core.judge import without_lines
from meadhall.core.record import GameRecord
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.games.voluspa import VoluspaState, format_board
from meadhall.games.voluspa.explain import VoluspaJudge, explain_turn
from meadhall.games.voluspa.notation import parse_action
from meadhall.games.voluspa.search import AVAILABLE
from meadhall.games.voluspa.tiles import CODES

GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("voluspa-*.json"))
GAME = get_game("voluspa")
POSITION = "origin -1,0/. TH ./OD FE SK+1/. VA ."


def _around(targets: list[str], rng: Rng) -> list[str]:
    """Moves that are not plain targets: boosted, two steps, a line left out, illegal, unreadable as one step."""
    picked = [targets[rng.below(len(targets))] for _ in range(12)] if targets else []
    moves = [f"FR+ {move}" for move in picked[:3]]
    moves += [f"FR+ FR+ {move}" for move in picked[3:5]]
    cells = [move.split("@")[1].split(">")[0].split(":")[0] for move in picked]
    moves += [f"HM@{cell} {other}" for cell, other in zip(cells[5:8], picked[:3], strict=True)]
    moves += [f"RA@{cell} end" for cell in cells[8:10]]
    moves += [move.split(":")[0] for move in targets if ":" in move][:6]  # SS@x,y / LB@x,y
    moves += [f"{code}@60,60" for code in CODES[:4]]  # touches nothing
    moves += ["end", "discard:TH", "JO@0,0>N", "FR+ SK@0,0"]
    return moves


def _check(board_text: str, options: dict[str, Any] | None, extra: list[str], every: int = 1) -> int:
    judge = VoluspaJudge(board_text, options=options)
    targets = judge.targets()
    moves = targets[::every] + extra + _around(targets, Rng(len(targets)))
    for move in moves:
        try:
            expected = explain_turn(board_text, move, options=options)
        except MalformedAction:
            with pytest.raises(MalformedAction):
                judge.judge(move)
            continue
        assert judge.judge(move) == expected, move
        assert judge.judge(move, lines=False) == without_lines(expected), move
    everything = judge.judge_all()
    assert list(everything) == targets
    assert all(result["legal"] for result in everything.values())
    return len(moves)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_golden_position_judges_as_explain(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    record = GameRecord.from_dict(data["record"])
    state = record.replay(upto=0)
    assert isinstance(state, VoluspaState)
    options = GAME.validate_options(dict(state.options), players=2)
    judged = 0
    for index, (seat, text) in enumerate(record.actions):
        if index % 9 == 4 and state.stage == 0 and state.board:
            judged += _check(format_board(state.board), options, [text], every=3)
        state.apply_text(seat, text)
    assert judged > 0


@pytest.mark.parametrize("preset", list(GAME.info.presets))
def test_random_positions_of_every_preset_judge_as_explain(preset: str) -> None:
    state = GAME.new_game(players=2, seed=len(preset), options={"preset": preset})
    assert isinstance(state, VoluspaState)
    rng = Rng(7)
    steps = 0
    while not state.is_terminal() and (steps < 24 or state.stage != 0):
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply_quiet(seat, legal[rng.below(len(legal))])
        steps += 1
    options = GAME.validate_options(dict(state.options), players=2)
    assert _check(format_board(state.board, one_line=True), options, [], every=2) > 0


def test_the_worked_position_with_both_switches() -> None:
    for auto in (False, True):
        judge = VoluspaJudge(POSITION, auto_best_line=auto)
        for move in [*judge.targets(), "LB@0,1", "SS@0,1", "HM@-1,2 TR@-1,3", "TH@5,5"]:
            expected = explain_turn(POSITION, move, auto_best_line=auto)
            assert judge.judge(move) == expected, move
            assert judge.judge(move, lines=False) == without_lines(expected), move


def test_points_only_comes_from_the_engine_when_built() -> None:
    judge = VoluspaJudge(POSITION)
    judge.judge("OD@1,2", lines=False)
    # The C engine holds a copy of the position for the move's hand (it answered).
    assert bool(judge._native) == AVAILABLE
    assert judge.judge("OD@1,2", lines=False) == without_lines(explain_turn(POSITION, "OD@1,2"))


def test_an_empty_board_and_an_unreadable_move() -> None:
    judge = VoluspaJudge("")
    assert judge.targets() == []
    assert judge.judge("TH@0,0") == explain_turn("", "TH@0,0")
    with pytest.raises(MalformedAction):
        VoluspaJudge(POSITION).judge("TH@@1")


def test_the_game_judges_a_seat_with_its_own_hand() -> None:
    state = GAME.new_game(players=2, seed=3, options={"preset": "saga"})
    assert isinstance(state, VoluspaState)
    rng = Rng(5)
    for _ in range(20):
        seat = state.to_move()[0]
        judge = GAME.judge(state, seat)
        legal = GAME.legal_notations(state, seat)
        assert judge.targets() == legal
        other = GAME.judge(state, 1 - seat)
        assert other.targets() == [] and not other.judge(legal[0], lines=False)["legal"]
        for text, result in judge.judge_all(lines=False).items():
            after = state.clone()
            after.apply_quiet(seat, parse_action(text))
            assert result["points"] == after.scores()[seat] - state.scores()[seat], text
        for text in legal[:: max(1, len(legal) // 5)]:
            events = state.clone().apply(seat, parse_action(text))
            scored = [event.data["lines"] for event in events if event.kind == "scored"]
            assert judge.judge(text)["steps"][0]["lines"] == (scored[0] if scored else []), text
        state.apply_quiet(seat, parse_action(legal[rng.below(len(legal))]))


def test_the_bench_measures_judging_in_process_and_through_the_batch() -> None:
    from meadhall.cli.bench import measure_judging

    row = measure_judging(GAME, "base", 2, 0.01, 1)
    assert row["positions"] == 40 and row["targets"] > 40 * 10
    for key in ("in_process_lines_per_s", "in_process_points_per_s", "batch_lines_per_s", "batch_points_per_s"):
        assert row[key] > 0, key


@pytest.mark.parametrize("preset", list(GAME.info.presets))
def test_every_target_of_a_seat_judges_as_its_events_say(preset: str) -> None:
    # Game.judge with lines: the C engine's facts of each line (or the board scored in
    # place) against the reference engine playing the target on a clone, with its events.
    from meadhall.games.voluspa.explain import _judge_steps

    state = GAME.new_game(players=2, seed=len(preset) + 11, options={"preset": preset})
    assert isinstance(state, VoluspaState)
    rng = Rng(13)
    judged = 0
    for turn in range(60):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        if turn % 6 == 5:
            for text, result in GAME.judge(state, seat).judge_all(lines=True).items():
                assert result == _judge_steps(state.clone(), [parse_action(text)], seat), text
                judged += 1
        legal = state.legal_actions(seat)
        state.apply_quiet(seat, legal[rng.below(len(legal))])
    assert judged > 0


def test_each_judgement_owns_its_lines() -> None:
    # The words' pieces are kept between judgements (labels, points texts), the results
    # are not: changing one judgement's lines leaves the next judgement of the move as it was.
    judge = VoluspaJudge(POSITION)
    first = judge.judge_all(lines=True)
    before = json.dumps(first)
    worded = [result for result in first.values() if result["steps"][0].get("lines")]
    assert worded
    for result in worded:
        line = result["steps"][0]["lines"][0]
        line["cells"][0].append(99)
        line["cells"].append([99, 99])
        line["reason"] += "!"
    assert json.dumps(judge.judge_all(lines=True)) == before
    assert json.dumps({text: explain_turn(POSITION, text) for text in first}) == before
