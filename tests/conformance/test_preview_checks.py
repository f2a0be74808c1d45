"""The conformance suite's preview check passes for Völuspá and catches a preview that leaks."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core.errors import IllegalAction
from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA
from meadhall.games.voluspa.state import VoluspaState
from meadhall.testing.conformance import check_previews


def _mid_game(seed: int = 5) -> VoluspaState:
    state: VoluspaState = VOLUSPA.new_game(players=2, seed=seed, options={"preset": "all+lightning"})
    rng = Rng(seed)
    for _ in range(12):
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    return state


def _candidates(state: VoluspaState) -> list[Any]:
    seat = state.to_move()[0]
    other = VOLUSPA.new_game(players=2, seed=99, options={"preset": "all+lightning"})
    return [*state.legal_actions(seat)[:3], *other.legal_actions(other.to_move()[0])[:5]]


def test_voluspa_previews_leak_nothing() -> None:
    state = _mid_game()
    check_previews(state, _candidates(state), Rng(1), "here")


def test_a_refusal_that_reads_the_draw_pile_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _mid_game()
    original = VoluspaState.check

    def leaky(self: VoluspaState, seat: int, action: Any) -> None:
        try:
            original(self, seat, action)
        except IllegalAction as error:
            raise IllegalAction(f"{error} (the next tile is {list(self.pile)[-3:]})", error.rule) from None

    monkeypatch.setattr(VoluspaState, "check", leaky)
    with pytest.raises(AssertionError, match="previews depend on information hidden"):
        check_previews(state, _candidates(state), Rng(1), "here")
