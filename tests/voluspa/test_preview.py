"""Völuspá's previews: a legal step shows the points and lines ``explain`` gives (and the engine scores);
an illegal target the engine's refusal; every action's target names its own notation."""

from __future__ import annotations

from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.preview import preview_target
from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA
from meadhall.games.voluspa.board import cell_of, piece_of
from meadhall.games.voluspa.explain import explain_turn, format_line
from meadhall.games.voluspa.state import VoluspaState
from meadhall.games.voluspa.tiles import CODE_INDEX
from meadhall.games.voluspa.words import WORDS


def _positions(seed: int, steps: int) -> Any:
    state: VoluspaState = VOLUSPA.new_game(players=2, seed=seed, options={"preset": "all+lightning"})
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])


def _points(points: int) -> str:
    return f"{points} point{'' if points == 1 else 's'}"


def test_a_legal_step_previews_what_explain_says_and_what_the_engine_scores() -> None:
    checked = 0
    for state in _positions(7, 80):
        seat = state.to_move()[0]
        view = state.view(seat)
        legal = [str(a) for a in state.legal_actions(seat)]
        for item in WORDS.actions(view, legal)[:6]:
            if not item["target"] or "cell" not in item["target"]:
                continue
            preview = preview_target(WORDS, state, seat, item["target"], legal)
            assert preview is not None and preview["legal"], item
            assert preview["title"] == item["label"]
            board = {cell_of(t["x"], t["y"]): piece_of(CODE_INDEX[t["tile"]], t["boost"]) for t in view["board"]}
            if view["stage"] == "raven":  # its second placement: the Raven is lifted from its first cell
                del board[cell_of(*view["raven"])]
            judged = explain_turn(board, item["notation"], options=view["options"])
            step = judged["steps"][0]
            assert preview["points"] == _points(step["points"])
            assert preview["lines"][: len(step["lines"])] == [format_line(line, "") for line in step["lines"]]
            # The engine, playing it, scores the same.
            events = state.clone().apply(seat, VOLUSPA.parse_action(item["notation"]))
            scored = [int(e.data["points"]) for e in events if e.kind == "scored"]
            assert preview["points"] == _points(scored[0] if scored else 0), item["notation"]
            checked += 1
    assert checked > 100


def test_an_illegal_target_gives_the_engines_refusal() -> None:
    state = next(s for i, s in enumerate(_positions(3, 10)) if i == 4)
    seat = state.to_move()[0]
    tile = state.view(seat)["hand"][0]
    far = {"tile": tile, "cell": [12, 12]}
    preview = preview_target(WORDS, state, seat, far)
    assert preview is not None and not preview["legal"]
    try:
        state.check(seat, VOLUSPA.parse_action(f"{tile}@12,12"))
    except IllegalAction as error:
        assert preview["refusal"] == str(error) and preview["rule"] == error.rule
    else:
        raise AssertionError("a tile far from the board was accepted")
    # The other seat: not its turn, in the engine's words.
    other = preview_target(WORDS, state, 1 - seat, far)
    assert other is not None and not other["legal"] and other["rule"] == "turn"


def test_every_target_names_its_own_action() -> None:
    for state in _positions(11, 60):
        seat = state.to_move()[0]
        view = state.view(seat)
        legal = [str(a) for a in state.legal_actions(seat)]
        for item in WORDS.actions(view, legal):
            assert WORDS.target_notation(view, item["target"] or {}) == item["notation"]


def test_targets_that_name_nothing_preview_nothing() -> None:
    state = next(iter(_positions(1, 1)))
    seat = state.to_move()[0]
    for target in (
        {},
        {"tile": "XX", "cell": [0, 1]},
        {"tile": "TH", "cell": "0,1"},
        {"kind": "bump", "tile": "JO", "cell": [7, 7], "direction": "Q"},
    ):
        assert preview_target(WORDS, state, seat, target) is None
