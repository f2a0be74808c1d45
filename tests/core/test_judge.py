"""core.judge.StateJudge, the judge of every game without its own: points as applied, words as previewed."""

from __future__ import annotations

import pytest

from meadhall.core.judge import StateJudge
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng


@pytest.mark.parametrize("name", ["bloodrage-valhalla", "valda"])
def test_each_target_scores_as_applied_and_reads_as_its_preview(name: str) -> None:
    game = get_game(name)
    words = game.words()
    assert words is not None
    state = game.new_game(players=3, seed=4)
    rng = Rng(9)
    judged = refusals = 0
    for step in range(120):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        legal = game.legal_notations(state, seat)
        if step % 10 == 0:
            judge = game.judge(state, seat)
            assert isinstance(judge, StateJudge) and judge.targets() == legal
            view = state.view(seat)
            for text, result in judge.judge_all(lines=True).items():
                after = state.clone()
                after.apply_quiet(seat, game.parse_action(text))
                assert result["legal"] and result["points"] == after.scores()[seat] - state.scores()[seat]
                (only,) = result["steps"]
                assert only["lines"] == words.preview(view, legal, text)["lines"]
                judged += 1
            for other in set(range(state.num_players)) - set(state.to_move()):
                refused = StateJudge(game, state, other).judge(legal[0], lines=False)
                assert not refused["legal"] and refused["rule"] and refused["steps"][-1]["error"] == refused["error"]
                refusals += 1
        state.apply_quiet(seat, game.parse_action(legal[rng.below(len(legal))]))
    assert judged > 0 and refusals > 0
